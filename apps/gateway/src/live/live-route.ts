// `GET /p/{slug}/api/live` (and `{slug}.{BASE_DOMAIN}/api/live`): the project's live stream as
// Server-Sent Events (management-api.md § Delivery: the live stream, docs/live.md). Authorised
// like a read: the public role, an API token, an end user's JWT or a dashboard key; a type the
// credential may not `find` is never streamed, and each `entry` is the document as the credential
// reads it (REST, no populate: private attributes are never in it).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError, RateLimitError, ValidationError } from '@cms/errors';
import { liveHead, type LiveEvent } from '@cms/live';
import { mayReadDrafts, parseQuery, queryShape } from '@cms/query';
import type { ProjectRuntime, RestRoute, TenantEntry } from '@cms/tenancy';
import { planRead } from '../tenant/content-routes.ts';
import type { Access } from '../tenant/access.ts';
import { accessOf, callerHook } from '../tenant/caller.ts';
import type { TenantOptions } from '../tenant/options.ts';
import { cachedRead, REST_LIMITS, type RouteContext } from '../tenant/rest-targets.ts';
import { tenantOf } from '../tenant/request-context.ts';
import { previewSettingsOf } from '../preview-settings.ts';
import { liveStreamLimitOf } from './live-limits.ts';
import type { Platform } from '../platform.ts';
import { SseStream, type StreamFilter } from './live-stream.ts';
import { acceptsOf, type LiveScope } from './live-filter.ts';

const STATUSES = new Set(['published', 'draft']);
const POSITION = /^\d{1,15}$/;

/** A content type's REST route by uid (per compiled model). */
const routesByUid = new WeakMap<ProjectRuntime, Map<string, RestRoute>>();
function routeOf(runtime: ProjectRuntime, uid: string): RestRoute | undefined {
  let routes = routesByUid.get(runtime);
  if (!routes) routesByUid.set(runtime, (routes = new Map([...runtime.restRoutes.values()].map((r) => [r.type.uid, r]))));
  return routes.get(uid);
}

/** `types=a,b` or `types=a&types=b` (or `types[]=`): the uids asked for, or null for every type. */
function typesOf(value: unknown): string[] | null {
  if (value === undefined) return null;
  const list = (Array.isArray(value) ? value : [value]).flatMap((v) => (typeof v === 'string' ? v.split(',') : [null]));
  if (list.some((v) => v === null)) throw new ValidationError('types must be a comma-separated list of content type uids');
  return (list as string[]).map((v) => v.trim()).filter(Boolean);
}

interface StreamRequest extends LiveScope {
  /** The position to resume after (Last-Event-ID), or null for "from now". */
  after: number | null;
}

/** The stream's query and Last-Event-ID, checked against the model and the caller's permissions. */
function streamRequestOf(request: FastifyRequest, tenant: TenantEntry, runtime: ProjectRuntime, access: Access): StreamRequest {
  const query = request.query as Record<string, unknown>;
  const model = runtime.model;
  const asked = typesOf(query.types);
  for (const uid of asked ?? []) {
    if (!routeOf(runtime, uid)) throw new ValidationError(`${uid.slice(0, 200)} is not a content type of this project`);
  }
  const status = query.status ?? 'published';
  if (typeof status !== 'string' || !STATUSES.has(status)) throw new ValidationError('status must be published or draft');
  const locale = query.locale ?? null;
  if (locale !== null && (typeof locale !== 'string' || !tenant.localeCodes.has(locale))) throw new ValidationError('locale must be one of the project\'s locales');
  const lastEventId = request.headers['last-event-id'] ?? query.lastEventId;
  if (lastEventId !== undefined && (typeof lastEventId !== 'string' || !POSITION.test(lastEventId))) {
    throw new ValidationError('Last-Event-ID must be the id of an event of this stream');
  }
  const candidates = asked ?? [...runtime.restRoutes.values()].map((r) => r.type.uid);
  const findable = candidates.filter((uid) => access.can(uid, 'find'));
  // Asked for by name and not readable: refused, not silently empty.
  if (findable.length === 0 || (asked !== null && findable.length < asked.length)) throw new ForbiddenError();
  if (status === 'draft') {
    const { draftAccess } = previewSettingsOf(tenant.project.settings);
    if (!findable.every((uid) => mayReadDrafts(model, draftAccess, (u, action) => access.can(u, action), uid))) throw new ForbiddenError();
  }
  return { uids: new Set(findable), locale: locale as string | null, status: status as 'published' | 'draft', after: lastEventId === undefined ? null : Number(lastEventId) };
}

/** Which events a stream shows, and how it renders their entries. */
function filterOf(platform: Platform, tenant: TenantEntry, runtime: ProjectRuntime, access: Access, wanted: StreamRequest): StreamFilter {
  const model = runtime.model;
  return {
    renderKey: `${access.key}\n${wanted.status}`,
    modelOf: (uid) => model.contentTypes[uid]?.singularName ?? uid,
    accepts: acceptsOf(model, wanted),
    async render(event: LiveEvent) {
      const target = routeOf(runtime, event.uid);
      if (!target) return null;
      const ctx: RouteContext = { tenant, runtime, target, access };
      const query: Record<string, unknown> = { status: wanted.status, ...(event.locale ? { locale: event.locale } : {}) };
      const read = cachedRead(runtime, {
        context: `live\n${event.uid}\n${access.key}\n${tenant.project.defaultLocale}`,
        exact: `?status=${wanted.status}&locale=${event.locale ?? ''}`,
        shape: () => queryShape(parseQuery(query, REST_LIMITS)),
        plan: (ast, binder) => planRead(ctx, ast, ast.status ?? 'published', ast.locale, binder),
      });
      return read.findOne(platform.db.poolOf(tenant.project.cluster), event.documentId);
    },
  };
}

export async function liveRoute(app: FastifyInstance, { platform }: TenantOptions): Promise<void> {
  app.get('/api/live', { preHandler: callerHook(platform) }, async (request: FastifyRequest, reply: FastifyReply) => {
    const tenant = tenantOf(request);
    const access = accessOf(request);
    const runtime = await platform.runtimes.get(tenant.project);
    const wanted = streamRequestOf(request, tenant, runtime, access);
    const project = { id: tenant.project.id, cluster: tenant.project.cluster, schemaName: runtime.schemaName };
    const limit = liveStreamLimitOf(platform.config, tenant.project);
    if (limit !== null && (await platform.live.counts.total(project.id)) >= limit) {
      throw new RateLimitError(5, `This project has ${limit} live streams open, its plan's limit; try again later.`);
    }
    const start = wanted.after ?? (await liveHead(platform.db.poolOf(project.cluster), project.schemaName));
    reply.hijack();
    const stream = new SseStream(project, start, reply.raw, filterOf(platform, tenant, runtime, access, wanted), (s) => platform.live.dropped(s));
    stream.open();
    reply.raw.on('close', () => {
      stream.gone();
      platform.live.remove(stream);
    });
    platform.live.add(stream);
  });
}
