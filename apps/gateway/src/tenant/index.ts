// Each project's content API lives under `/p/{slug}`; host-based requests
// (`{slug}.{BASE_DOMAIN}`) are rewritten to that prefix before routing (see app.ts).
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { ifNoneMatchHits, strongEtag } from '@cms/delivery';
import { NotFoundError, ProjectBusyError, StaleProjectError, isStaleModelError } from '@cms/errors';
import { MAX_SLUG_LENGTH, type TenantEntry } from '@cms/tenancy';
import { setRateLimitHeaders } from '../http/errors.ts';
import { refreshCaller } from './caller.ts';
import { contentRoutes } from './content-routes.ts';
import { contentWriteRoutes } from './content-writes.ts';
import { committedIn, registerDbScope, rescope } from './db-scope.ts';
import { cacheControlOf } from './answers.ts';
import { collectChanges, purgeKeysOf } from '../change-notes.ts';
import { graphqlRoutes } from './graphql-route.ts';
import { localeRoutes } from './locales.ts';
import { meteredRoute } from './metered-route.ts';
import { openApiRoute } from './openapi-route.ts';
import type { TenantOptions } from './options.ts';
import { uploadRoutes } from './upload-routes.ts';
import { uploadWriteRoutes } from './upload-writes.ts';
import { userAuthRoutes } from './user-auth-routes.ts';
import { userRoutes } from './user-routes.ts';
import { uploadedFileRoutes } from './uploaded-files.ts';
import { liveRoute } from '../live/live-route.ts';
import { lazyGraphqlSocketHandler } from '../live/graphql-socket-lazy.ts';
import './request-context.ts';

export async function tenantPlugin(app: FastifyInstance, opts: TenantOptions): Promise<void> {
  const { platform } = opts;
  app.decorateRequest('tenant', null);
  app.decorateRequest('rerunOnFreshModel', false);
  app.decorateRequest('fromDashboard', false);
  app.decorateRequest('author', null);
  app.decorateRequest('access', null);
  app.decorateRequest('accessRefusal', null);
  // A model change committed by another instance reaches this one by a message a few ms later;
  // a request planned in between against the old model fails on a dropped or renamed column or
  // table. It reloads the project and runs once more (reads, and writes, which rolled back);
  // only multipart uploads, whose body is consumed, cannot.
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = async function rerunOnStaleModel(request, reply) {
      try {
        return await handler.call(this, request, reply);
      } catch (err) {
        if (!isStaleModelError(err) || reply.sent || !request.tenant) throw err;
        if (request.rerunOnFreshModel || request.isMultipart()) throw await movedMeanwhile(request.tenant, err);
        request.log.info({ err }, 'model changed under the request: reloading the project');
        // A stamp older than the project's (answers.ts): its compiled model may still be current.
        if (err instanceof StaleProjectError) platform.registry.reload(request.tenant.project.id);
        else platform.registry.refresh(request.tenant.project.id);
        request.tenant = await platform.registry.resolve(request.tenant.project.slug);
        if (!request.tenant) throw new NotFoundError();
        // A project moved to another cluster meanwhile (its old schema dropped) reruns there.
        rescope(reply, request.tenant.project.cluster);
        // Its caller too is the reloaded project's (roles, tokens) — caller.ts.
        await refreshCaller(request, platform);
        request.rerunOnFreshModel = true;
        return handler.call(this, request, reply);
      }
    };
  });
  // A request that cannot run again (an upload, whose body is consumed) and met its project's
  // schema dropped because the project moved to another cluster: asked to retry, not failed.
  async function movedMeanwhile(tenant: TenantEntry, err: unknown): Promise<unknown> {
    platform.registry.refresh(tenant.project.id);
    const fresh = await platform.registry.resolve(tenant.project.slug);
    if (!fresh || fresh.project.cluster === tenant.project.cluster) return err;
    return new ProjectBusyError(1, 'This project was just moved to another database cluster; please send the request again.');
  }
  const COPYING = 'This environment is still being copied from its parent project; please try again in a few seconds.';
  const COPY_FAILED = 'This environment could not be copied: delete it and create it again';
  // Callback style, synchronous for a project in memory without plan limits: no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    const slug = (request.params as { slug?: string }).slug ?? '';
    if (slug.length > MAX_SLUG_LENGTH) return done(new NotFoundError());
    const admit = (entry: TenantEntry | null) => {
      if (!entry) return done(new NotFoundError());
      // An environment whose copy has not finished would answer part of its content.
      if (entry.project.copyStatus === 'copying') return done(new ProjectBusyError(2, COPYING));
      if (entry.project.copyStatus === 'failed') return done(new NotFoundError(COPY_FAILED));
      request.tenant = entry;
      request.log = request.log.child({ projectId: entry.project.id });
      if (!platform.rateLimits.enforced) return done();
      // Refused before the body is read: a throttled client costs almost nothing. Every answer
      // (errors included) states the monthly quota left.
      platform.rateLimits.admit(entry.project).then((quota) => {
        if (quota) setRateLimitHeaders(reply, quota);
        done();
      }, done);
    };
    platform.registry.resolveThen(slug, admit, done);
  });
  // Admitted: the rest runs in the project's database scope (share of the pool, plan's timeout).
  registerDbScope(app, platform);
  // …collecting what its writes change, for the purge sent after them.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.method === 'GET' || request.method === 'HEAD') done();
    else collectChanges(request, done);
  });
  // Every 200 GET carries a strong ETag and its Cache-Control (the content reads set theirs in
  // answers.ts); a committed write moves the project's content version on before it is answered.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode === 200 && (request.method === 'GET' || request.method === 'HEAD') && !reply.hasHeader('etag')
      && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
      const etag = strongEtag(payload);
      reply.header('etag', etag);
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', cacheControlOf(request));
      if (ifNoneMatchHits(request.headers['if-none-match'], etag)) {
        reply.code(304);
        return done(null, '');
      }
    }
    if (!request.tenant || !committedIn(reply)) return done(null, payload);
    const project = request.tenant.project;
    // Documents changed: their live events are positioned and published before the answer.
    const notes = request.changeNotes;
    const live = notes ? platform.live.afterWrites(project, notes.positioned, notes.unsequenced) : undefined;
    Promise.all([live, platform.delivery.changed(project.id, purgeKeysOf(notes))]).then(() => done(null, payload), done);
  });
  // Usage metering: batched in memory, written every few seconds, by route. Refused requests
  // (counted by the limiters as rejections), preflights and the dashboard's own calls are not counted.
  // An environment's requests count as its parent's.
  app.addHook('onResponse', (request, reply, done) => {
    if (request.tenant && reply.statusCode !== 429 && request.method !== 'OPTIONS' && !request.fromDashboard) platform.usage.record(request.tenant.project.parentId ?? request.tenant.project.id, meteredRoute(request, reply.statusCode));
    done();
  });
  // Multipart bodies are parsed only by the upload routes, part by part (nothing is buffered).
  await app.register(multipart, { throwFileSizeLimit: true });
  // Each route module is a plugin of its own, registered after the hooks above (which all of them
  // inherit), with the platform only: `opts` also carries this plugin's `/p/:slug` prefix. The
  // routes that answer their caller resolve it in a hook of theirs (caller.ts).
  const routes: TenantOptions = { platform };
  await app.register(localeRoutes);
  await app.register(openApiRoute, routes);
  await app.register(contentRoutes, routes);
  await app.register(contentWriteRoutes, routes);
  // With the WebSocket plugin, in their own context: no other route pays for its hooks.
  await app.register(graphqlRoutes, { ...routes, socketHandler: lazyGraphqlSocketHandler(platform) });
  await app.register(uploadRoutes, routes);
  await app.register(uploadWriteRoutes, routes);
  await app.register(userAuthRoutes, routes);
  await app.register(userRoutes, routes);
  await app.register(uploadedFileRoutes, routes);
  await app.register(liveRoute, routes);
  // Anything else under a known project is an unknown route (OPTIONS is the CORS plugin's).
  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/*',
    handler: async () => {
      throw new NotFoundError();
    },
  });
}
