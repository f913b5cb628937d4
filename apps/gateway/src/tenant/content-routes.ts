// REST content API reads: `GET /api/:pluralApiId`, `GET /api/:pluralApiId/:documentId` and
// single types `GET /api/:singularApiId`. The JSON body is built by Postgres and spliced in.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError, NotFoundError } from '@cms/errors';
import { paginationMeta, parseQuery, planQuery, runFind, runFindOne, type QueryAst, type QueryPlan } from '@cms/query';
import type { ContentType } from '@cms/schema';
import type { ProjectRuntime, TenantEntry } from '@cms/tenancy';
import type { Platform } from '../platform.ts';
import type { Services } from '../services.ts';
import { resolveAccess, type Access } from './access.ts';
import { tenantOf } from './index.ts';

// Strapi's `api.rest.defaultLimit` / template `maxLimit`.
const REST_LIMITS = { defaultLimit: 25, maxLimit: 100 };
const JSON_TYPE = 'application/json; charset=utf-8';

interface RouteTarget {
  type: ContentType;
  single: boolean;
}

/** pluralApiId (collections) / singularApiId (single types) → content type, per model version. */
function routeTable(runtime: ProjectRuntime): Map<string, RouteTarget> {
  let table = runtime.artefacts.get('rest-routes') as Map<string, RouteTarget> | undefined;
  if (!table) {
    table = new Map();
    for (const type of Object.values(runtime.model.contentTypes)) {
      if (type.kind === 'singleType') table.set(type.singularName, { type, single: true });
      else table.set(type.pluralName, { type, single: false });
    }
    runtime.artefacts.set('rest-routes', table);
  }
  return table;
}

interface ReadContext {
  tenant: TenantEntry;
  runtime: ProjectRuntime;
  target: RouteTarget;
  access: Access;
  ast: QueryAst;
}

export function registerContentRoutes(app: FastifyInstance, platform: Platform, services: Services): void {
  const pool = platform.db.pool;

  /** `byDocumentId`: the path names a document, which single types never have. */
  async function prepare(request: FastifyRequest, name: string, byDocumentId: boolean): Promise<ReadContext> {
    const tenant = tenantOf(request);
    const runtime = await platform.runtimes.get(tenant.project);
    const target = routeTable(runtime).get(name);
    if (!target || (byDocumentId && target.single)) throw new NotFoundError();
    // Single types are read with `find` (Strapi has no findOne for them).
    const action = byDocumentId ? 'findOne' : 'find';
    const access = await resolveAccess(request, tenant, services);
    if (!access.can(target.type.uid, action)) throw new ForbiddenError();
    const ast = parseQuery(request.query as Record<string, unknown>, REST_LIMITS);
    return { tenant, runtime, target, access, ast };
  }

  function plan({ tenant, runtime, target, access, ast }: ReadContext): QueryPlan {
    return planQuery(ast, {
      model: runtime.model,
      physical: runtime.physical,
      uid: target.type.uid,
      schema: runtime.schemaName,
      locale: ast.locale ?? tenant.project.defaultLocale,
      status: ast.status ?? 'published',
      canFind: (uid) => access.can(uid, 'find'),
      ...REST_LIMITS,
    });
  }

  async function sendOne(reply: FastifyReply, queryPlan: QueryPlan, documentId: string | null): Promise<FastifyReply> {
    const json = await runFindOne(pool, queryPlan, documentId);
    if (json === null) throw new NotFoundError();
    return reply.type(JSON_TYPE).send(`{"data":${json},"meta":{}}`);
  }

  app.get<{ Params: { name: string } }>('/api/:name', async (request, reply) => {
    const ctx = await prepare(request, request.params.name, false);
    const queryPlan = plan(ctx);
    if (ctx.target.single) return sendOne(reply, queryPlan, null);
    const { json, total } = await runFind(pool, queryPlan);
    const meta = JSON.stringify({ pagination: paginationMeta(queryPlan, total) });
    return reply.type(JSON_TYPE).send(`{"data":${json},"meta":${meta}}`);
  });

  app.get<{ Params: { name: string; documentId: string } }>('/api/:name/:documentId', async (request, reply) => {
    const ctx = await prepare(request, request.params.name, true);
    return sendOne(reply, plan(ctx), request.params.documentId);
  });
}
