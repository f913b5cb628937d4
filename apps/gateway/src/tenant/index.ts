// Each project's content API lives under `/p/{slug}`; host-based requests
// (`{slug}.{BASE_DOMAIN}`) are rewritten to that prefix before routing (see app.ts).
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { NotFoundError, isStaleModelError } from '@cms/errors';
import { setRateLimitHeaders } from '../http/errors.ts';
import type { Platform } from '../platform.ts';
import type { Services } from '../services.ts';
import { registerContentRoutes } from './content-routes.ts';
import { registerContentWrites } from './content-writes.ts';
import { registerGraphqlRoutes } from './graphql-route.ts';
import { registerLocaleRoutes } from './locales.ts';
import { registerUploadRoutes } from './upload-routes.ts';
import { registerUserRoutes } from './user-routes.ts';
import { registerUploadedFiles } from './uploaded-files.ts';
import './request-context.ts';

export async function tenantPlugin(app: FastifyInstance, opts: { platform: Platform; services: Services }): Promise<void> {
  const { platform, services } = opts;
  app.decorateRequest('tenant', null);
  app.decorateRequest('rerunOnFreshModel', false);
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
        if (!isStaleModelError(err) || request.rerunOnFreshModel || reply.sent || request.isMultipart() || !request.tenant) throw err;
        request.log.info({ err }, 'model changed under the request: reloading the project');
        platform.registry.refresh(request.tenant.project.id);
        request.tenant = await platform.registry.resolve(request.tenant.project.slug);
        if (!request.tenant) throw new NotFoundError();
        request.rerunOnFreshModel = true;
        return handler.call(this, request, reply);
      }
    };
  });
  app.addHook('onRequest', async (request, reply) => {
    const slug = (request.params as { slug?: string }).slug ?? '';
    const entry = slug.length <= 40 ? await platform.registry.resolve(slug) : null;
    if (!entry) throw new NotFoundError();
    request.tenant = entry;
    request.log = request.log.child({ projectId: entry.project.id });
    // Refused before the body is read: a throttled client costs almost nothing. Every answer
    // (errors included) states the monthly quota left.
    const quota = await services.rateLimits.admit(entry.project);
    if (quota) setRateLimitHeaders(reply, quota);
  });
  // Usage metering: batched in memory, written every few seconds. Refused requests and
  // preflights are not counted.
  app.addHook('onResponse', async (request, reply) => {
    if (request.tenant && reply.statusCode !== 429 && request.method !== 'OPTIONS') services.usage.record(request.tenant.project.id);
  });
  // Multipart bodies are parsed only by the upload routes, part by part (nothing is buffered).
  await app.register(multipart, { throwFileSizeLimit: true });
  registerLocaleRoutes(app);
  registerContentRoutes(app, platform, services);
  registerContentWrites(app, platform, services);
  registerGraphqlRoutes(app, platform, services);
  registerUploadRoutes(app, platform, services);
  registerUserRoutes(app, platform, services);
  registerUploadedFiles(app, platform);
  // Anything else under a known project is an unknown route (OPTIONS is the CORS plugin's).
  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/*',
    handler: async () => {
      throw new NotFoundError();
    },
  });
}
