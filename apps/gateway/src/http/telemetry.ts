// Request telemetry of the gateway, registered only when the process edge turned telemetry on
// (apps/gateway/src/main.ts → @cms/telemetry/sdk): with it off, no hook is added here.
//  - per request: SQL statement count and time (gathered by @cms/db's interceptor);
//  - on the request span of @fastify/otel: project.id, project.slug, the statement count;
//  - metrics: duration/rate/status per route and project (bounded: top projects, the rest `other`),
//    5xx errors, 429 rate-limit rejections, SQL statements and time per request.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Attributes } from '@opentelemetry/api';
import { instruments, ProjectLabels, runWithRequestStats, telemetryEnabled, telemetryState, type RequestStats } from '@cms/telemetry';
import type { TenantEntry } from '@cms/tenancy';

const kStats = Symbol('cms.requestStats');
type Observed = FastifyRequest & { [kStats]?: RequestStats; tenant?: TenantEntry | null };

/** How many projects keep their own label value; the others are counted as `other`. */
export const LABELLED_PROJECTS = 20;

export async function registerTelemetry(app: FastifyInstance): Promise<void> {
  if (!telemetryEnabled()) return;
  const labels = new ProjectLabels(LABELLED_PROJECTS);
  app.addHook('onClose', async () => labels.close());

  app.addHook('onRequest', (request, _reply, done) => {
    const stats: RequestStats = { statements: 0, dbMs: 0 };
    (request as Observed)[kStats] = stats;
    runWithRequestStats(stats, done);
  });

  if (telemetryState.tracing) {
    // Before @fastify/otel's own onSend (registered below), which ends the request span.
    app.addHook('onSend', (request: Observed, _reply, payload, done) => {
      const otel = request.opentelemetry?.();
      const span = otel?.span;
      if (span) {
        const tenant = request.tenant;
        if (tenant) span.setAttributes({ 'project.id': tenant.project.id, 'project.slug': tenant.project.slug });
        const stats = request[kStats];
        if (stats) span.setAttributes({ 'db.statement_count': stats.statements, 'db.duration_ms': Math.round(stats.dbMs * 1000) / 1000 });
      }
      done(null, payload);
    });
  }

  app.addHook('onResponse', (request: Observed, reply, done) => {
    const tenant = request.tenant;
    const route = request.routeOptions.url ?? 'unmatched';
    const project = tenant ? labels.label(tenant.project.slug) : 'none';
    const status = reply.statusCode;
    const attrs: Attributes = { 'http.route': route, 'http.request.method': request.method, 'http.response.status_code': status, project };
    instruments.requestDuration.record(reply.elapsedTime / 1000, attrs);
    if (status >= 500 || status === 429) {
      const byRoute = { 'http.route': route, project };
      if (status >= 500) instruments.requestErrors.add(1, byRoute);
      else instruments.rateLimitRejections.add(1, byRoute);
    }
    const stats = request[kStats];
    if (stats && (tenant || stats.statements > 0)) {
      const byRoute = { 'http.route': route, project };
      instruments.sqlStatements.record(stats.statements, byRoute);
      instruments.sqlDuration.record(stats.dbMs / 1000, byRoute);
    }
    done();
  });

  // @fastify/otel last: it instruments the hooks and routes registered after it.
  if (telemetryState.fastifyPlugin) await app.register(telemetryState.fastifyPlugin);
}
