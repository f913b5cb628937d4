// Shared by the REST read and write routes: which content type a path names, the REST limits,
// and the request-scoped pieces every content route resolves first.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '@cms/db';
import { NotFoundError } from '@cms/errors';
import { compileRead, parseQuery, planQuery, runFind, type CompiledRead, type QueryAst, type QueryPlan } from '@cms/query';
import type { ContentType } from '@cms/schema';
import type { ProjectRuntime, TenantEntry } from '@cms/tenancy';
import type { Platform } from '../platform.ts';
import type { Services } from '../services.ts';
import { resolveAccess, type Access } from './access.ts';
import { tenantOf } from './request-context.ts';
import { toV4Data, wantsV4 } from './v4-format.ts';

// Strapi's `api.rest.defaultLimit` / template `maxLimit`.
export const REST_LIMITS = { defaultLimit: 25, maxLimit: 100 };
// Compiled reads kept per model version; the oldest go first past this many query shapes.
const READ_CACHE_SIZE = 2000;

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

/** A compiled read kept with the model version under `key`, built on first use. */
export function cachedRead(runtime: ProjectRuntime, key: string, build: () => CompiledRead): CompiledRead {
  let cache = runtime.artefacts.get('rest-reads') as Map<string, CompiledRead> | undefined;
  if (!cache) runtime.artefacts.set('rest-reads', (cache = new Map()));
  let read = cache.get(key);
  if (!read) {
    read = build();
    if (cache.size >= READ_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(key, read);
  }
  return read;
}

/** The read plan of a plugin type (media files, end users): one table, without status or locale. */
export function planPluginRead(runtime: ProjectRuntime, access: Access, uid: string, ast: QueryAst, limits: PageLimits): QueryPlan {
  return planQuery(ast, {
    model: runtime.model, physical: runtime.physical, uid, schema: runtime.schemaName,
    locale: '*', status: 'published', canFind: (target) => access.can(target, 'find'), ...limits,
  });
}

/** Rows of a plugin type by id, in id order, as JSON array text. */
export async function pluginRowsJson(db: Db, runtime: ProjectRuntime, access: Access, uid: string, ids: readonly string[]): Promise<string> {
  const ast: QueryAst = {
    filters: { kind: 'compare', path: ['id'], op: '$in', value: ids },
    sort: [{ path: ['id'], direction: 'asc' }],
    pagination: { kind: 'offset', start: 0, limit: ids.length, withCount: false },
  };
  return (await runFind(db, planPluginRead(runtime, access, uid, ast, { defaultLimit: ids.length, maxLimit: ids.length }))).json;
}

/**
 * A list read of a plugin type from the request's query, cached per caller and query string;
 * sorted by id unless the query sorts.
 */
export function pluginListRead(request: FastifyRequest, runtime: ProjectRuntime, access: Access, uid: string, query: Record<string, unknown>, limits: PageLimits): CompiledRead {
  const key = `${uid}\n${access.key}\n${limits.defaultLimit}/${limits.maxLimit}\n${queryStringOf(request)}`;
  return cachedRead(runtime, key, () => {
    const ast = parseQuery(query, limits);
    if (ast.sort.length === 0) ast.sort = [{ path: ['id'], direction: 'asc' }];
    return compileRead(planPluginRead(runtime, access, uid, ast, limits));
  });
}
const JSON_TYPE = 'application/json; charset=utf-8';

export interface RouteTarget {
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

async function runtimeAndTarget(request: FastifyRequest, platform: Platform, name: string): Promise<{ runtime: ProjectRuntime; target: RouteTarget }> {
  const runtime = await platform.runtimes.get(tenantOf(request).project);
  const target = routeTable(runtime).get(name);
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
 * Tenant, model, content type and caller of a content route. `byDocumentId`: the path names a
 * document, which single types never have (→ 404).
 */
export async function resolveRoute(
  request: FastifyRequest, platform: Platform, services: Services, name: string, byDocumentId: boolean,
): Promise<RouteContext> {
  const tenant = tenantOf(request);
  const { runtime, target } = await runtimeAndTarget(request, platform, name);
  if (byDocumentId && target.single) throw new NotFoundError();
  const access = await resolveAccess(request, tenant, services);
  return { tenant, runtime, target, access };
}

/** The JSON text Postgres built, as is, or re-shaped for v4 clients. */
function dataText(request: FastifyRequest, ctx: RouteContext, json: string): string {
  return wantsV4(request.headers) ? JSON.stringify(toV4Data(ctx.runtime.model, ctx.target.type.uid, JSON.parse(json))) : json;
}

/** `{"data":<document>,"meta":{}}` */
export function sendDocument(request: FastifyRequest, reply: FastifyReply, ctx: RouteContext, json: string, status = 200): FastifyReply {
  return reply.status(status).type(JSON_TYPE).send(`{"data":${dataText(request, ctx, json)},"meta":{}}`);
}

export function sendList(request: FastifyRequest, reply: FastifyReply, ctx: RouteContext, json: string, meta: unknown): FastifyReply {
  return reply.type(JSON_TYPE).send(`{"data":${dataText(request, ctx, json)},"meta":${JSON.stringify(meta)}}`);
}
