// What browsers need from the gateway: CORS (per project on the content APIs, the dashboard's
// origins on the management API) and Strapi's default security headers on every answer.
// @fastify/cors does the CORS header work; this module only decides its options.
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_SLUG_LENGTH, type ProjectRegistry } from '@cms/tenancy';
import { corsSettingsOf, type EffectiveCors } from './cors-settings.ts';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
// Strapi's list, plus what its clients send (Strapi-Response-Format, tracing, cache validators).
const ALLOWED_HEADERS = [
  'Content-Type', 'Authorization', 'Origin', 'Accept', 'Strapi-Response-Format', 'X-Requested-With',
  'X-Request-Id', 'Cache-Control', 'If-None-Match', 'traceparent', 'tracestate',
];
const EXPOSED_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'X-Request-Id'];

// Options for an allowed origin: the request's origin is reflected (it was checked just before).
const ALLOWED_BASE: FastifyCorsOptions = {
  origin: (requestOrigin, callback) => callback(null, requestOrigin ?? false),
  methods: METHODS,
  allowedHeaders: ALLOWED_HEADERS,
  exposedHeaders: EXPOSED_HEADERS,
  strictPreflight: false,
};

// A refused origin (or a request without one) gets no CORS headers at all, and its preflight a 404.
const REFUSED: FastifyCorsOptions = { origin: false };

// One options object per project settings object, so a request builds nothing.
const allowedOptions = new WeakMap<EffectiveCors, FastifyCorsOptions>();
function optionsFor(settings: EffectiveCors, origin: string): FastifyCorsOptions {
  let options = allowedOptions.get(settings);
  if (!options) {
    options = { ...ALLOWED_BASE, credentials: settings.credentials, maxAge: settings.maxAge };
    allowedOptions.set(settings, options);
  }
  return settings.allows(origin) ? options : REFUSED;
}

/** The project a request is for: its route's `:slug`, or the path of a preflight (`OPTIONS *`). */
function slugOf(request: FastifyRequest): string | undefined {
  const params = request.params as { slug?: string; '*'?: string } | undefined;
  return params?.slug ?? /^\/?p\/([^/]+)/.exec(params?.['*'] ?? '')?.[1];
}

/**
 * CORS for every route, registered once at the root so that its hook runs first and its
 * preflight route (`OPTIONS *`) answers for every path. Project routes follow the project's
 * settings (read from the registry's in-memory entry: no query per request); the management API
 * allows the dashboard's origins; anything else allows no origin.
 */
export async function registerCors(app: FastifyInstance, registry: ProjectRegistry, dashboardOrigins: readonly string[]): Promise<void> {
  const management: FastifyCorsOptions = { ...ALLOWED_BASE, credentials: false, maxAge: 7200 };
  const dashboard = new Set(dashboardOrigins);
  await app.register(cors, {
    hook: 'onRequest',
    // The callback form: @fastify/cors runs it synchronously, so a request without an Origin (or of
    // a project already in memory) costs no promise.
    delegator: (request: FastifyRequest, callback: (error: Error | null, options: FastifyCorsOptions) => void) => {
      const origin = request.headers.origin;
      if (!origin) return callback(null, REFUSED);
      if (request.url.startsWith('/v1/') || request.url === '/v1') return callback(null, dashboard.has(origin) ? management : REFUSED);
      const slug = slugOf(request);
      if (!slug || slug.length > MAX_SLUG_LENGTH) return callback(null, REFUSED);
      registry.resolveThen(
        slug,
        (tenant) => callback(null, tenant ? optionsFor(corsSettingsOf(tenant.project.settings), origin) : REFUSED),
        (err) => callback(err, REFUSED),
      );
    },
  });
}

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Strapi's `strapi::security` defaults: no referrer, nosniff, no DNS prefetch, no IE download
 * opening, SAMEORIGIN framing, no Flash/PDF cross-domain policies — the headers helmet 8 writes
 * with those options, in its order — and HSTS only on answers served over HTTPS. No CSP on JSON
 * answers (uploaded files set their own sandboxing one) and no cross-origin isolation headers,
 * which would stop other sites from embedding a project's images. Fixed values, set by one hook:
 * @fastify/helmet rebuilt helmet's middleware chain on every request.
 */
const SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Referrer-Policy', 'no-referrer'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'SAMEORIGIN'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
];

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', (request, reply, done) => {
    const res = reply.raw;
    for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    done();
  });
}
