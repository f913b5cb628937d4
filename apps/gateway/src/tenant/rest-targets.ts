// Shared by the REST read and write routes: which content type a path names, the REST limits,
// and the request-scoped pieces every content route resolves first.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '@cms/errors';
import type { ContentType } from '@cms/schema';
import type { ProjectRuntime, TenantEntry } from '@cms/tenancy';
import type { Platform } from '../platform.ts';
import type { Services } from '../services.ts';
import { resolveAccess, type Access } from './access.ts';
import { tenantOf } from './index.ts';
import { toV4Data, wantsV4 } from './v4-format.ts';

// Strapi's `api.rest.defaultLimit` / template `maxLimit`.
export const REST_LIMITS = { defaultLimit: 25, maxLimit: 100 };
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
