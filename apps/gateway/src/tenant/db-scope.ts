// Every request of a project's APIs runs in its database scope (@cms/db request-scope.ts): its
// statements count against the project's share of the pool, run under its plan's statement
// timeout, and are cancelled if the client goes away before the answer.
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { effectivePlan, PLAN_STATEMENT_TIMEOUT_MS, type PlanHolder } from '@cms/billing';
import type { Config } from '@cms/config';
import type { DbScope } from '@cms/db';
import type { Platform } from '../platform.ts';

const kScope = Symbol('cms.dbScope');
type Watched = ServerResponse & { [kScope]?: DbScope };

/** A project's statement timeout: its plan's (or the plan's override) with plan limits on, else the operator's. */
export function statementTimeoutOf(config: Config, project: PlanHolder): number {
  if (!config.limits.plans) return config.statementTimeoutMs;
  const plan = effectivePlan(project);
  return config.limits.planStatementTimeoutMs[plan] ?? PLAN_STATEMENT_TIMEOUT_MS[plan];
}

/** Point the request's scope at its project's cluster again (a rerun on a reloaded project, which may have moved). */
export function rescope(reply: { raw: ServerResponse }, cluster: string): void {
  const scope = (reply.raw as Watched)[kScope];
  if (scope) scope.cluster = cluster;
}

/** Whether a transaction of the request committed (its change is recorded before it is answered). */
export function committedIn(reply: { raw: ServerResponse }): boolean {
  return (reply.raw as Watched)[kScope]?.committed === true;
}

// One listener for every response (no closure per request): `close` before `finish` is a client
// that went away, whose running statements are then cancelled.
function onResponseClose(this: Watched): void {
  if (!this.writableFinished) this[kScope]?.abort();
}

/** Registered after the hook that resolves the project (tenant/index.ts). */
export function registerDbScope(app: FastifyInstance, platform: Platform): void {
  const { config } = platform;
  const scopes = platform.db.scopes;
  app.addHook('onRequest', (request, reply, done) => {
    const project = request.tenant!.project;
    // Its tenant statements go to the pool of the cluster holding the project (@cms/db routingPool).
    const scope = scopes.create(project.id, statementTimeoutOf(config, project), project.cluster);
    const res = reply.raw as Watched;
    res[kScope] = scope;
    res.on('close', onResponseClose);
    // The rest of the request (body parsing, handler) runs in the scope.
    scopes.run(scope, done);
  });
}
