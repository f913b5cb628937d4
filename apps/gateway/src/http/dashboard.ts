// The customer dashboard (apps/dashboard, a Vite build) at `/`: hashed assets under `/assets/`
// cached for a year, and the app's page for every GET that no route answers outside the APIs
// (so client-side routes survive a reload); on project hosts and API paths a miss stays the JSON
// 404. The page carries a strict Content-Security-Policy: scripts and connections only from this
// origin (Mantine needs inline styles); images also from the media files' origin when that is another.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The page's policy; `mediaOrigin` (S3 or MEDIA_PUBLIC_URL) may serve the images and videos of the media library. */
export function dashboardCsp(mediaOrigin: string | null): string {
  const media = mediaOrigin ? ` ${mediaOrigin}` : '';
  return [
    "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", `img-src 'self' data: blob:${media}`,
    `media-src 'self' blob:${media}`, "font-src 'self'",
    "connect-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
  ].join('; ');
}

// Paths that belong to the APIs (and a project's paths on its own host): never the app's page.
const API_PATH = /^\/(v1|p|api|graphql|uploads)(\/|$)|^\/(healthz|readyz)$/;

const NOT_BUILT = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dashboard not built</title></head><body>' +
  '<main><h1>The dashboard is not built</h1><p>Run <code>make start</code>, which builds it, or ' +
  '<code>npm run build -w @cms/dashboard</code>. The APIs are served under <code>/v1</code> and <code>/p/{slug}</code>.</p></main></body></html>';

/** Serves the app's page for a request no route matched; false when the miss is an API's 404. */
export type DashboardFallback = (request: FastifyRequest, reply: FastifyReply) => boolean;

export async function registerDashboard(app: FastifyInstance, dir: string, baseDomain: string, mediaOrigin: string | null = null): Promise<DashboardFallback> {
  const csp = dashboardCsp(mediaOrigin);
  let page: string | null = null;
  const pageHtml = () => {
    // Read once it exists (a build may land while the gateway runs).
    if (page === null) {
      try {
        page = readFileSync(join(dir, 'index.html'), 'utf8');
      } catch {
        return null;
      }
    }
    return page;
  };
  await app.register(fastifyStatic, {
    root: join(dir, 'assets'), prefix: '/assets/', decorateReply: false, index: false, immutable: true, maxAge: '365d',
  });
  const projectHost = (host: string) => host.split(':')[0]!.toLowerCase().endsWith(`.${baseDomain}`);
  return (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    if (API_PATH.test(request.url.split('?')[0]!) || projectHost(request.host)) return false;
    const html = pageHtml();
    reply.header('content-security-policy', csp).header('cache-control', 'no-cache').header('x-frame-options', 'DENY').type('text/html; charset=utf-8');
    reply.status(html ? 200 : 503).send(html ?? NOT_BUILT);
    return true;
  };
}
