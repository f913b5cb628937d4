// The front door: one fastify instance serving the management API, every project's content
// API (by `/p/{slug}` prefix or `{slug}.{BASE_DOMAIN}` host) and health checks.
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { mediaOrigin } from '@cms/config';
import { normalizeError } from '@cms/errors';
import { tenantSlugFromHost } from '@cms/tenancy';
import { registerErrorHandling, sendError, writeClientError } from './http/errors.ts';
import { registerCors, registerSecurityHeaders } from './http/browser-access.ts';
import { registerDashboard } from './http/dashboard.ts';
import { registerHealth } from './http/health.ts';
import { lazyChild } from './http/lazy-logger.ts';
import { registerMetricsRoute } from './http/metrics.ts';
import { registerServerTiming } from './http/server-timing.ts';
import { registerTelemetry } from './http/telemetry.ts';
import { parseQueryString } from '@cms/query';
import { managementPlugin } from './management/index.ts';
import { tenantPlugin } from './tenant/index.ts';
import type { Platform } from './platform.ts';
import { scheduleHooks } from './schedule-hooks.ts';

export interface App {
  fastify: FastifyInstance;
  platform: Platform;
}

/** Trust the nearest `hops` proxies (fastify's typings take a count only as a function). */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

export async function buildApp(platform: Platform): Promise<App> {
  const { config } = platform;
  const fastify: FastifyInstance = Fastify({
    loggerInstance: platform.logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' }),
    // Each request's logger is made on its first log line (most requests never log).
    childLoggerFactory: (logger, bindings, options) => lazyChild(logger, bindings, options),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    bodyLimit: config.bodyLimit,
    // Behind a load balancer the client IP (auth rate limits) comes from X-Forwarded-For.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // Route schemas validate strictly: wrong types and unknown keys are errors, never coerced or dropped.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: true, useDefaults: true } },
    routerOptions: { querystringParser: parseQueryString, maxParamLength: 1000 },
    // Router-level failures (malformed URL, over-long path parameter) use the envelope too.
    frameworkErrors: (error, _request, reply) => sendError(reply, normalizeError(error), error),
    // …and so are requests Node's HTTP parser refuses before routing.
    clientErrorHandler: writeClientError,
    // Host-based tenant routing: `{slug}.{BASE_DOMAIN}/api/x` is served as `/p/{slug}/api/x`.
    rewriteUrl: (req) => {
      const slug = tenantSlugFromHost(req.headers.host, config.baseDomain);
      return slug ? `/p/${slug}${req.url ?? '/'}` : (req.url ?? '/');
    },
  });
  // Tracing and metrics hooks (none when telemetry is off); first, so they see every request.
  await registerTelemetry(fastify);
  registerServerTiming(fastify);
  // Delivery (tenant/answers.ts, change-notes.ts): set by the content and management routes.
  fastify.decorateRequest('deliveryClass', null);
  fastify.decorateRequest('changeNotes', null);
  // Set when the request arrives (kept on every answer, errors included): a synchronous hook, no promise per request.
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // A WebSocket upgrade that no route took (only a project's `/graphql` does) is answered over
  // HTTP like any request, then its connection closed: nothing else would close it.
  fastify.addHook('onResponse', (request, _reply, done) => {
    if (request.raw.headers.upgrade !== undefined && !request.raw.socket.destroyed) request.raw.socket.end();
    done();
  });
  // An empty JSON body is "no body" (the official @strapi/client sends one on DELETE, and koa-body
  // accepts it); anything else goes through fastify's own prototype-poisoning-safe parser.
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).trim() === '') done(null, undefined);
    else parseJson(request, body as string, done);
  });
  // Form-encoded bodies are read like Strapi's koa-body does: with the query-string parser.
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, parseQueryString(body as string));
  });
  registerErrorHandling(fastify, config.bodyDrain, await registerDashboard(fastify, config.dashboardDir, config.baseDomain, mediaOrigin(config)));
  await registerSecurityHeaders(fastify);
  await registerCors(fastify, platform.registry, config.dashboardOrigins);
  registerHealth(fastify, platform);
  registerMetricsRoute(fastify, config.metricsToken);
  await fastify.register(managementPlugin, { prefix: '/v1', platform });
  await fastify.register(tenantPlugin, { prefix: '/p/:slug', platform });
  // Live streams hold their connections open: closed first, so the server can close (their
  // clients reconnect to another gateway and resume).
  fastify.addHook('preClose', async () => platform.live.close());
  // Scheduled releases and actions run in every gateway with SCHEDULER on (scheduler.ts).
  if (config.scheduler.enabled) platform.scheduler.start(scheduleHooks(platform));
  return { fastify, platform };
}
