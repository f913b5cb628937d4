// Environments (management-api.md § Environments): copies of a project linked to it, slug
// `{parent}--{name}`, made and copied by @cms/tenancy `EnvironmentService`. Every other route
// works on an environment as on any project (its members are its parent's). Here: create (the
// plan's limit), list, delete (dropped at once: a copy has no restore window) and promote (the
// environment's model onto the parent, as `PUT /schema` would, after a backup of the parent).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { backupRetentionDays, effectivePlan, ENVIRONMENTS, usageReport, type UsageReport } from '@cms/billing';
import { ApplicationError, ForbiddenError, ValidationError } from '@cms/errors';
import { environmentRoutes as schemas } from '@cms/management-api';
import type { EnvironmentRecord, MemberProject, PlannedChange, ProjectRecord } from '@cms/tenancy';
import type { Platform } from '../platform.ts';
import type { ManagementOptions } from './options.ts';
import { purgeProject } from './project-deletion.ts';
import { contentApiUrls, projectOf } from './request-context.ts';

const OWNERS = { access: 'owner' as const };

interface EnvironmentRoute {
  Params: { slug: string; name: string };
}

export function environmentJson(request: FastifyRequest, e: EnvironmentRecord) {
  return {
    name: e.name,
    slug: e.slug,
    status: e.status,
    error: e.error,
    ...contentApiUrls(request, e.slug),
    createdAt: e.createdAt,
  };
}

/** A step of a promotion's plan, as the contract shows it. */
export function promoteStep(change: PlannedChange) {
  return { kind: change.op, uid: change.type, attribute: change.attribute, description: change.description, destructive: change.destructive };
}

/** The 400 of an apply that deletes data without `confirm`: the destructive steps, listed. */
export function unconfirmedError(steps: ReturnType<typeof promoteStep>[]): ValidationError {
  const destructive = steps.filter((s) => s.destructive);
  const listed = destructive.map((s) => s.description).join('; ');
  return new ValidationError(`This promotion deletes data: ${listed}. Send {"dryRun": false, "confirm": true} to apply it`, { steps: destructive });
}

/** `{dryRun?, confirm?}` (booleans), or no body at all. */
export function promoteOptions(body: unknown): { dryRun?: boolean; confirm?: boolean } {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new ValidationError('The body must be a JSON object');
  const { dryRun, confirm, ...rest } = body as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw new ValidationError(`Unknown key ${unknown.slice(0, 100)}`, { key: unknown.slice(0, 100) });
  for (const [key, value] of [['dryRun', dryRun], ['confirm', confirm]] as const) {
    if (value !== undefined && typeof value !== 'boolean') {
      throw ValidationError.fromFieldErrors([{ path: [key], message: `${key} must be a boolean`, name: 'ValidationError', value: String(value).slice(0, 100) }]);
    }
  }
  return { ...(dryRun === undefined ? {} : { dryRun: dryRun as boolean }), ...(confirm === undefined ? {} : { confirm: confirm as boolean }) };
}

function parentOf(request: FastifyRequest): MemberProject {
  const project = projectOf(request);
  if (project.parentId) throw new ValidationError('An environment cannot have environments of its own: use its parent project');
  return project;
}

export async function environmentRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  app.post<{ Params: { slug: string }; Body: { name: string } }>('/projects/:slug/environments', { config: OWNERS, schema: schemas.create }, async (request, reply) => {
    const parent = parentOf(request);
    const plan = effectivePlan(parent);
    const max = ENVIRONMENTS[plan];
    if ((await platform.environments.count(parent.id)) >= max) {
      throw new ForbiddenError(
        `The ${plan} plan allows ${max} environment${max === 1 ? '' : 's'} per project: delete one, or upgrade the plan`,
        { limit: 'environments', plan, max },
      );
    }
    const environment = await platform.environments.create(parent, request.body.name);
    return reply.status(202).send({ environment: environmentJson(request, environment) });
  });

  app.get('/projects/:slug/environments', { schema: schemas.list }, async (request) => {
    const parent = parentOf(request);
    return { environments: (await platform.environments.list(parent.id)).map((e) => environmentJson(request, e)) };
  });

  app.delete<EnvironmentRoute>('/projects/:slug/environments/:name', { config: OWNERS, schema: schemas.remove }, async (request, reply) => {
    const env = await platform.environments.projectOf(parentOf(request).id, request.params.name);
    await purgeProject(platform, env);
    return reply.status(204).send();
  });

  // The body is optional (no body: apply): checked here rather than by a schema.
  app.post<EnvironmentRoute>('/projects/:slug/environments/:name/promote', { config: OWNERS, schema: schemas.promote }, async (request) => {
    const options = promoteOptions(request.body);
    const parent = parentOf(request);
    const env = await platform.environments.projectOf(parent.id, request.params.name);
    if (env.environmentStatus !== 'ready') throw new ApplicationError(`The environment is not ready (it is ${env.environmentStatus})`, {}, 409);
    return promote(platform, parent, env.id, options);
  });
}

/**
 * Make the parent's model the environment's: planned (a rehearsal, rolled back) and shown; then,
 * unless a dry run, a manual backup of the parent, waited for, and the push at the version the
 * plan was made against. Content never moves.
 */
async function promote(platform: Platform, parent: MemberProject, envId: number, body: { dryRun?: boolean; confirm?: boolean }) {
  const model = (await platform.models.current(envId)).raw;
  const { version } = await platform.models.current(parent.id);
  const { changed, changes } = await platform.models.rehearse(parent, model, { expectedVersion: version });
  const steps = changes.map(promoteStep);
  // `changed` without steps: the models differ only in what moves no column (names shown, options).
  if (body.dryRun === true || !changed) return { plan: { steps, changed }, applied: false, backup: null };
  if (steps.some((s) => s.destructive) && body.confirm !== true) throw unconfirmedError(steps);
  const backup = await platform.archives.start(parent, 'manual', { keepDays: backupRetentionDays(parent) });
  await platform.archives.finished(backup.id);
  const done = await platform.archiveStore.get(parent.id, backup.id);
  if (done?.status !== 'done') {
    throw new ApplicationError(`The backup of the project taken before promoting failed (${done?.error ?? 'unknown reason'}): nothing was changed`, {}, 503);
  }
  await platform.models.push(parent, model, { expectedVersion: version });
  return { plan: { steps, changed }, applied: true, backup: { id: backup.id } };
}

/**
 * A parent's usage with its environments' documents and history added (their requests are
 * metered as the parent's already). Their files are not added: they are the parent's stored
 * objects until changed.
 */
export async function withEnvironmentsUsage(platform: Platform, parent: ProjectRecord, report: UsageReport): Promise<UsageReport> {
  if (parent.parentId) return report;
  for (const env of await platform.environments.projectsOf(parent.id)) {
    const { physical } = await platform.runtimes.get(env);
    const tables = Object.values(physical.contentTypes).map((t) => t.table);
    const own = await usageReport(platform.db.pool, platform.usage, env, tables, platform.db.poolOf(env.cluster));
    report = { ...report, documents: report.documents + own.documents, historyBytes: report.historyBytes + own.historyBytes };
  }
  return report;
}
