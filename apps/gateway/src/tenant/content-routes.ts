// REST content API reads: `GET /api/:pluralApiId`, `GET /api/:pluralApiId/:documentId` and
// single types `GET /api/:singularApiId`. The JSON body is built by Postgres and spliced in.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenError, NotFoundError } from '@cms/errors';
import { compileRead, paginationMeta, parseQuery, planQuery, type CompiledRead, type QueryAst, type QueryPlan } from '@cms/query';
import type { Platform } from '../platform.ts';
import type { Services } from '../services.ts';
import { cachedRead, queryStringOf, REST_LIMITS, resolveRoute, sendDocument, sendList, type RouteContext } from './rest-targets.ts';

/** The read plan of a route: the request's query at the given status and locale. */
export function planRead(ctx: RouteContext, ast: QueryAst, status: 'draft' | 'published', locale: string): QueryPlan {
  return planQuery(ast, {
    model: ctx.runtime.model,
    physical: ctx.runtime.physical,
    uid: ctx.target.type.uid,
    schema: ctx.runtime.schemaName,
    locale,
    status,
    ...(ast.publication ? { publication: ast.publication } : {}),
    canFind: (uid) => ctx.access.can(uid, 'find'),
    ...REST_LIMITS,
  });
}

/**
 * The compiled read of a request: parsed, planned and rendered once per model version, caller
 * permissions, default locale and query string — the SQL depends on nothing else.
 */
function compiledReadOf(ctx: RouteContext, request: FastifyRequest, byDocumentId: boolean): CompiledRead {
  const key = `${ctx.access.key}\n${ctx.tenant.project.defaultLocale}\n${ctx.target.type.uid}\n${byDocumentId}\n${queryStringOf(request)}`;
  return cachedRead(ctx.runtime, key, () => {
    const ast = parseQuery(request.query as Record<string, unknown>, REST_LIMITS);
    return compileRead(planRead(ctx, ast, ast.status ?? 'published', ast.locale ?? ctx.tenant.project.defaultLocale));
  });
}

export function registerContentRoutes(app: FastifyInstance, platform: Platform, services: Services): void {
  const pool = platform.db.pool;

  async function prepare(request: FastifyRequest, name: string, byDocumentId: boolean): Promise<{ ctx: RouteContext; read: CompiledRead }> {
    const ctx = await resolveRoute(request, platform, services, name, byDocumentId);
    // Single types are read with `find` (Strapi has no findOne for them).
    if (!ctx.access.can(ctx.target.type.uid, byDocumentId ? 'findOne' : 'find')) throw new ForbiddenError();
    return { ctx, read: compiledReadOf(ctx, request, byDocumentId) };
  }

  app.get<{ Params: { name: string } }>('/api/:name', async (request, reply) => {
    const { ctx, read } = await prepare(request, request.params.name, false);
    if (ctx.target.single) {
      const json = await read.findOne(pool, null);
      if (json === null) throw new NotFoundError();
      return sendDocument(request, reply, ctx, json);
    }
    const { json, total } = await read.find(pool);
    return sendList(request, reply, ctx, json, { pagination: paginationMeta(read.plan, total) });
  });

  app.get<{ Params: { name: string; documentId: string } }>('/api/:name/:documentId', async (request, reply) => {
    const { ctx, read } = await prepare(request, request.params.name, true);
    const json = await read.findOne(pool, request.params.documentId);
    if (json === null) throw new NotFoundError();
    return sendDocument(request, reply, ctx, json);
  });
}
