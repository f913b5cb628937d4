// REST content API reads: `GET /api/:pluralApiId`, `GET /api/:pluralApiId/:documentId` and
// single types `GET /api/:singularApiId`. The JSON body is built by Postgres and spliced in.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenError, NotFoundError } from '@cms/errors';
import { draftReadFinder, paginationMeta, parseQuery, planQuery, queryShape, typesOfPlan, type Binder, type CompiledRead, type Leaf, type QueryAst, type QueryPlan, type QueryTemplate } from '@cms/query';
import { addDbTime, addPlanTime } from '../http/server-timing.ts';
import { admitDraftRead, isDraftRead } from './draft-reads.ts';
import { deliverRead } from './answers.ts';
import { callerHook } from './caller.ts';
import type { TenantOptions } from './options.ts';
import { cachedRead, documentBody, listBody, queryStringOf, REST_LIMITS, resolveRoute, type RouteContext } from './rest-targets.ts';
import { wantsV4 } from './v4-format.ts';

/**
 * The read plan of a route: the request's query at the given status and locale. `locale` is a
 * code, or a shape template's reference to the request's (the default locale when it names none).
 * `previewed`: a draft read under `draftAccess: "preview"` (draft-reads.ts), which reaches only
 * the drafts the caller may preview.
 */
export function planRead(
  ctx: RouteContext, ast: QueryAst | QueryTemplate, status: 'draft' | 'published', locale: Leaf<string | undefined>, binder?: Binder, previewed = false,
): QueryPlan {
  return planQuery(ast, {
    model: ctx.runtime.model,
    physical: ctx.runtime.physical,
    uid: ctx.target.type.uid,
    schema: ctx.runtime.schemaName,
    locale,
    defaultLocale: ctx.tenant.project.defaultLocale,
    status,
    ...(ast.publication ? { publication: ast.publication } : {}),
    ...(ast.release !== undefined ? { release: ast.release } : {}),
    canFind: previewed ? draftReadFinder(ctx.runtime.model, (uid, action) => ctx.access.can(uid, action)) : (uid) => ctx.access.can(uid, 'find'),
    ...REST_LIMITS,
  }, binder);
}

/**
 * The compiled read of a request: planned and rendered once per model version, caller
 * permissions, default locale and query shape — the SQL depends on nothing else; the request's
 * values (filters, `_q`, page, locale, release, documentId) are bound when it runs. A draft read
 * under `draftAccess: "preview"` plans against what the caller may preview: a key of its own (its
 * status and release are in the query, hence in the exact text and the shape).
 */
function compiledReadOf(ctx: RouteContext, request: FastifyRequest, byDocumentId: boolean, previewed: boolean): CompiledRead {
  return cachedRead(ctx.runtime, {
    context: `rest\n${ctx.target.type.uid}\n${byDocumentId}\n${ctx.access.key}\n${ctx.tenant.project.defaultLocale}${previewed ? '\npreview' : ''}`,
    exact: queryStringOf(request),
    shape: () => queryShape(parseQuery(request.query as Record<string, unknown>, REST_LIMITS)),
    plan: (ast, binder) => planRead(ctx, ast, ast.status ?? 'published', ast.locale, binder, previewed),
  });
}

/**
 * The answer cache's name of a REST read within its project: the caller's class (its access key:
 * equal keys read the same), the response format and the URL (path and query string).
 */
const answerKey = (request: FastifyRequest, ctx: RouteContext): string => `rest\n${ctx.access.key}\n${wantsV4(request.headers) ? 4 : 5}\n${request.url}`;

export async function contentRoutes(app: FastifyInstance, { platform }: TenantOptions): Promise<void> {
  const pool = platform.db.tenantPool;
  // Both reads answer their caller (caller.ts).
  app.addHook('preHandler', callerHook(platform));

  /** The route's context once the caller may read it; the read is compiled only when no kept answer serves it. */
  async function prepare(request: FastifyRequest, name: string, byDocumentId: boolean): Promise<{ ctx: RouteContext; compile: () => CompiledRead }> {
    const ctx = await resolveRoute(request, platform, name, byDocumentId);
    // Single types are read with `find` (Strapi has no findOne for them).
    if (!ctx.access.can(ctx.target.type.uid, byDocumentId ? 'findOne' : 'find')) throw new ForbiddenError();
    const query = request.query as Record<string, unknown>;
    const draft = isDraftRead(query);
    const previewed = draft && (await admitDraftRead(platform, ctx, query));
    if (draft) request.deliveryClass = 'draft';
    return {
      ctx,
      compile: () => {
        const started = performance.now();
        const read = compiledReadOf(ctx, request, byDocumentId, previewed);
        addPlanTime(request, started);
        return read;
      },
    };
  }

  app.get<{ Params: { name: string } }>('/api/:name', async (request, reply) => {
    const { ctx, compile } = await prepare(request, request.params.name, false);
    return deliverRead(request, reply, platform, ctx, answerKey(request, ctx), async () => {
      const read = compile();
      const started = performance.now();
      if (ctx.target.single) {
        const json = await read.findOne(pool, null);
        addDbTime(request, started);
        if (json === null) throw new NotFoundError();
        return { body: documentBody(request, ctx, json), uids: typesOfPlan(read.plan) };
      }
      const { json, total } = await read.find(pool);
      addDbTime(request, started);
      return { body: listBody(request, ctx, json, { pagination: paginationMeta(read.plan, total) }), uids: typesOfPlan(read.plan) };
    });
  });

  app.get<{ Params: { name: string; documentId: string } }>('/api/:name/:documentId', async (request, reply) => {
    const { ctx, compile } = await prepare(request, request.params.name, true);
    return deliverRead(request, reply, platform, ctx, answerKey(request, ctx), async () => {
      const read = compile();
      const started = performance.now();
      const json = await read.findOne(pool, request.params.documentId);
      addDbTime(request, started);
      if (json === null) throw new NotFoundError();
      return { body: documentBody(request, ctx, json), uids: typesOfPlan(read.plan) };
    });
  });
}
