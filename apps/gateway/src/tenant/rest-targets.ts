// Shared by the REST read and write routes: which content type a path names, the REST limits,
// and the request-scoped pieces every content route resolves first.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '@cms/db';
import { NotFoundError } from '@cms/errors';
import { parseQuery, planQuery, queryShape, type Binder, type CompiledRead, type QueryAst, type QueryPlan, type QueryTemplate, type ReadRequest } from '@cms/query';
import type { ProjectRuntime, RestRoute, TenantEntry } from '@cms/tenancy';
import { HIT, instruments, MISS, tracedSync } from '@cms/telemetry';
import { setServerTiming } from '../http/server-timing.ts';
import type { Platform } from '../platform.ts';
import type { Access } from './access.ts';
import { accessOf } from './caller.ts';
import { tenantOf } from './request-context.ts';
import { toV4Data, wantsV4 } from './v4-format.ts';

// Strapi's `api.rest.defaultLimit` / template `maxLimit`.
export const REST_LIMITS = { defaultLimit: 25, maxLimit: 100 };
// Rows by id: the page is the ids' count.
const ROW_LIMITS = { defaultLimit: 1, maxLimit: Number.MAX_SAFE_INTEGER };
const BY_ID = [{ path: ['id'], direction: 'asc' as const }];

export interface PageLimits {
  defaultLimit: number;
  maxLimit: number;
}

/** The request's query string (`?…`, or '' without one): with the caller, all a compiled read depends on. */
export function queryStringOf(request: FastifyRequest): string {
  const url = request.url;
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at);
}

/**
 * A REST read through the project's compiled reads (@cms/query's read cache): kept for this exact
 * query string, else parsed and bound to its query shape's plan (planned if the shape is new).
 */
export function cachedRead<T>(runtime: ProjectRuntime, request: ReadRequest<T>): CompiledRead {
  const read = runtime.reads.cached(request);
  if (read) {
    instruments.planCache.add(1, HIT);
    return read;
  }
  instruments.planCache.add(1, MISS);
  return tracedSync('query.plan', () => runtime.reads.compile(request));
}

/** The read plan of a plugin type (media files, end users): one table, without status or locale. */
export function planPluginRead(runtime: ProjectRuntime, access: Access, uid: string, ast: QueryAst | QueryTemplate, limits: PageLimits, binder?: Binder): QueryPlan {
  return planQuery(ast, {
    model: runtime.model, physical: runtime.physical, uid, schema: runtime.schemaName,
    locale: '*', status: 'published', canFind: (target) => access.can(target, 'find'), ...limits,
  }, binder);
}

/** Rows of a plugin type by id, in id order, as JSON array text (one compiled read whatever the ids). */
export async function pluginRowsJson(db: Db, runtime: ProjectRuntime, access: Access, uid: string, ids: readonly string[]): Promise<string> {
  const ast: QueryAst = {
    filters: { kind: 'compare', path: ['id'], op: '$in', value: ids },
    sort: BY_ID,
    pagination: { kind: 'offset', start: 0, limit: ids.length, withCount: false },
  };
  const read = runtime.reads.read({
    context: `rows\n${uid}\n${access.key}`,
    shape: () => queryShape(ast),
    plan: (template, binder) => planPluginRead(runtime, access, uid, template, ROW_LIMITS, binder),
  });
  return (await read.find(db)).json;
}

/**
 * A list read of a plugin type from the request's query, cached per caller and query string (and
 * shape); sorted by id unless the query sorts.
 */
export function pluginListRead(request: FastifyRequest, runtime: ProjectRuntime, access: Access, uid: string, query: Record<string, unknown>, limits: PageLimits): CompiledRead {
  return cachedRead(runtime, {
    context: `plugin\n${uid}\n${access.key}\n${limits.defaultLimit}/${limits.maxLimit}`,
    exact: queryStringOf(request),
    shape: () => {
      const ast = parseQuery(query, limits);
      if (ast.sort.length === 0) ast.sort = BY_ID;
      return queryShape(ast);
    },
    plan: (template, binder) => planPluginRead(runtime, access, uid, template, limits, binder),
  });
}
const JSON_TYPE = 'application/json; charset=utf-8';

/** The content type a REST path names (the runtime's `restRoutes`). */
export type RouteTarget = RestRoute;

async function runtimeAndTarget(request: FastifyRequest, platform: Platform, name: string): Promise<{ runtime: ProjectRuntime; target: RouteTarget }> {
  const runtime = await platform.runtimes.get(tenantOf(request).project);
  const target = runtime.restRoutes.get(name);
  if (!target) throw new NotFoundError();
  return { runtime, target };
}

/** The content type a path names, without resolving the caller (405 answers need only this). */
export async function routeTarget(request: FastifyRequest, platform: Platform, name: string): Promise<RouteTarget> {
  return (await runtimeAndTarget(request, platform, name)).target;
}

export interface RouteContext {
  tenant: TenantEntry;
  runtime: ProjectRuntime;
  target: RouteTarget;
  access: Access;
}

/**
 * Tenant, model, content type and caller of a content route (its caller resolved by its hook,
 * caller.ts). `byDocumentId`: the path names a document, which single types never have (→ 404,
 * whatever the credential).
 */
export async function resolveRoute(
  request: FastifyRequest, platform: Platform, name: string, byDocumentId: boolean,
): Promise<RouteContext> {
  const tenant = tenantOf(request);
  const { runtime, target } = await runtimeAndTarget(request, platform, name);
  if (byDocumentId && target.single) throw new NotFoundError();
  return { tenant, runtime, target, access: accessOf(request) };
}

/** The JSON text Postgres built, as is, or re-shaped for v4 clients. */
function dataText(request: FastifyRequest, ctx: RouteContext, json: string): string {
  return wantsV4(request.headers) ? JSON.stringify(toV4Data(ctx.runtime.model, ctx.target.type.uid, JSON.parse(json))) : json;
}

/** `{"data":<document>,"meta":{}}` */
export function documentBody(request: FastifyRequest, ctx: RouteContext, json: string): string {
  return tracedSync('serialize', () => `{"data":${dataText(request, ctx, json)},"meta":{}}`);
}

export function listBody(request: FastifyRequest, ctx: RouteContext, json: string, meta: unknown): string {
  return tracedSync('serialize', () => `{"data":${dataText(request, ctx, json)},"meta":${JSON.stringify(meta)}}`);
}

export function sendDocument(request: FastifyRequest, reply: FastifyReply, ctx: RouteContext, json: string, status = 200): FastifyReply {
  setServerTiming(request, reply);
  return reply.status(status).type(JSON_TYPE).send(documentBody(request, ctx, json));
}
