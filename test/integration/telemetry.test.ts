// OpenTelemetry end to end: a real gateway process (the SDK set up by its entry point, exactly as
// in production) exports spans over OTLP/HTTP JSON to a receiver started here; /metrics answers
// Prometheus text to the metrics token only.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { multipart } from '../helpers/multipart.ts';
import { spawnGateway, type GatewayProcess } from '../helpers/process.ts';
import { blogRawModel } from '../fixtures/index.ts';

interface OtlpValue { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number }
interface OtlpSpan {
  traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number;
  attributes?: Array<{ key: string; value: OtlpValue }>;
  links?: Array<{ traceId: string; spanId: string }>;
  scope: string;
}

/** A tiny OTLP/HTTP JSON receiver: keeps every span posted to /v1/traces. */
async function startReceiver(): Promise<{ url: string; spans: OtlpSpan[]; close(): Promise<void> }> {
  const spans: OtlpSpan[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const parsed = JSON.parse(body) as { resourceSpans?: Array<{ scopeSpans?: Array<{ scope?: { name?: string }; spans?: Omit<OtlpSpan, 'scope'>[] }> }> };
        for (const rs of parsed.resourceSpans ?? []) {
          for (const ss of rs.scopeSpans ?? []) for (const span of ss.spans ?? []) spans.push({ ...span, scope: ss.scope?.name ?? '' });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, spans, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const attr = (span: OtlpSpan, key: string): string | number | boolean | undefined => {
  const v = span.attributes?.find((a) => a.key === key)?.value;
  if (!v) return undefined;
  return v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.boolValue ?? v.doubleValue;
};

async function until<T>(what: string, fn: () => T | undefined | null | false, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const traceparent = () => {
  const traceId = randomBytes(16).toString('hex');
  return { traceId, header: `00-${traceId}-${randomBytes(8).toString('hex')}-01` };
};

/** Sum of the samples of one Prometheus series family whose labels include all of `labels`. */
function sampleSum(text: string, name: string, labels: Record<string, string>): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

const METRICS_TOKEN = 'metrics-token-for-tests';

describe('telemetry (OpenTelemetry traces over OTLP, /metrics)', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let t: TestApp;
  let p: ContentProject;
  let gw: GatewayProcess;
  let token: string;

  before(async () => {
    receiver = await startReceiver();
    // The in-process app sets the project up; the traced gateway process serves it (and runs the media jobs).
    t = await startTestApp({ env: { MEDIA_WORKER: 'false' } });
    p = await setupContentProject(t, blogRawModel());
    token = await p.token('full-access');
    const created = await p.api.post('/api/tags', { data: { label: 'Telemetry' } });
    assert.equal(created.statusCode, 201, created.body);
    gw = await spawnGateway({
      ...t.env,
      MEDIA_WORKER: 'true',
      MEDIA_PROCESSING_WAIT_MS: '100',
      LOG_LEVEL: 'debug',
      METRICS_TOKEN,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_METRIC_EXPORT_INTERVAL: '60000',
    });
  });
  after(async () => {
    await gw?.stop();
    await t?.close();
    await receiver?.close();
  });

  it('traces a REST read: caller traceparent, project attributes, one span per SQL statement; Server-Timing', async () => {
    const { traceId, header } = traceparent();
    const res = await fetch(`${gw.url}/p/${p.slug}/api/tags`, { headers: { authorization: `Bearer ${token}`, traceparent: header } });
    assert.equal(res.status, 200, await res.text());
    assert.match(res.headers.get('server-timing') ?? '', /^plan;dur=\d+(\.\d+)?, db;dur=\d+(\.\d+)?$/);

    const request = await until('the request span', () =>
      receiver.spans.find((s) => s.traceId === traceId && s.scope === '@fastify/otel' && s.name === 'request'));
    assert.equal(attr(request, 'project.id'), p.id);
    assert.equal(attr(request, 'project.slug'), p.slug);
    assert.equal(attr(request, 'http.route'), '/p/:slug/api/:name');
    assert.equal(attr(request, 'http.response.status_code'), 200);
    const statements = attr(request, 'db.statement_count') as number;
    assert.ok(statements >= 1, `statement count ${statements}`);
    // The caller's span is the parent: the trace continues the caller's.
    assert.equal(request.parentSpanId, header.split('-')[2]);

    const sql = await until('SQL spans', () => {
      const found = receiver.spans.filter((s) => s.traceId === traceId && s.scope === '@opentelemetry/instrumentation-pg' && !/connect/.test(s.name));
      return found.length >= statements ? found : null;
    });
    assert.ok(sql.every((s) => attr(s, 'db.system') === 'postgresql' || attr(s, 'db.system.name') === 'postgresql'));
    const names = new Set(receiver.spans.filter((s) => s.traceId === traceId).map((s) => s.name));
    for (const name of ['auth', 'serialize']) assert.ok(names.has(name), `no ${name} span in ${[...names].join(', ')}`);
    // Log lines written inside the request carry its trace id.
    await until('a log line with the trace id', () => gw.output().includes(`"trace_id":"${traceId}"`));
  });

  it('carries the trace of an upload into its media job', async () => {
    const { traceId, header } = traceparent();
    const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: 'green' } }).png().toBuffer();
    const body = await multipart({ files: { name: 'traced.png', content: png, type: 'image/png' } });
    const res = await fetch(`${gw.url}/p/${p.slug}/api/upload`, {
      method: 'POST', headers: { ...body.headers, authorization: `Bearer ${token}`, traceparent: header }, body: body.payload,
    });
    assert.equal(res.status, 201, await res.text());

    const producer = await until('the queue hand-off span', () => receiver.spans.find((s) => s.traceId === traceId && s.scope === 'bullmq' && s.kind === 4));
    // The job's span: in the same trace, or linked to it.
    const job = await until('the job span', () => receiver.spans.find((s) => s.scope === 'bullmq' && s.kind === 5 &&
      (s.traceId === traceId || (s.links ?? []).some((l) => l.traceId === traceId)) && s.name.includes('process')), 30_000);
    assert.ok(producer && job);
    // The job's own SQL is traced under it.
    await until('SQL of the job', () => receiver.spans.some((s) => s.traceId === job.traceId && s.scope === '@opentelemetry/instrumentation-pg' && s.spanId !== job.spanId), 30_000);
  });

  it('/metrics: 401 without or with a wrong token; Prometheus text whose counters move', async () => {
    assert.equal((await fetch(`${gw.url}/metrics`)).status, 401);
    assert.equal((await fetch(`${gw.url}/metrics`, { headers: { authorization: 'Bearer not-the-token' } })).status, 401);
    const scrape = async () => {
      const res = await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
      return res.text();
    };
    const read = { 'http_route': '/p/:slug/api/:name', project: p.slug };
    const before = await scrape();
    const countBefore = sampleSum(before, 'http_server_request_duration_count', read);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${gw.url}/p/${p.slug}/api/tags?i=${i}`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.status, 200);
    }
    const text = await scrape();
    assert.equal(sampleSum(text, 'http_server_request_duration_count', read), countBefore + 3, text);
    assert.ok(sampleSum(text, 'cms_db_request_statements_count', read) >= 3);
    assert.ok(sampleSum(text, 'cms_db_request_statements_sum', read) >= 3);
    assert.ok(sampleSum(text, 'cms_db_request_duration_count', read) >= 3);
    assert.ok(sampleSum(text, 'cms_plan_cache_lookups_total', { result: 'miss' }) >= 3);
    assert.ok(sampleSum(text, 'cms_runtime_cache_lookups_total', { result: 'hit' }) >= 1);
    assert.ok(sampleSum(text, 'cms_runtime_builds_total', {}) >= 1);
    assert.match(text, /^cms_db_pool_connections\{.*state="idle"/m);
    assert.match(text, /^cms_queue_depth\{.*queue="media"/m);
    assert.ok(sampleSum(text, 'cms_queue_job_duration_count', { queue: 'media' }) >= 1);
    // The answer cache: the same read twice is a miss, then a hit.
    for (let i = 0; i < 2; i++) await fetch(`${gw.url}/p/${p.slug}/api/tags?again`, { headers: { authorization: `Bearer ${token}` } });
    const cached = await scrape();
    assert.ok(sampleSum(cached, 'cms_answer_cache_lookups_total', { result: 'hit' }) >= 1, cached);
    assert.ok(sampleSum(cached, 'cms_answer_cache_lookups_total', { result: 'miss' }) >= 1);
    assert.match(cached, /^cms_answer_cache_entries(\{[^}]*\})? [1-9]/m);
    assert.match(cached, /^cms_answer_cache_bytes(_bytes)?(\{[^}]*\})? [1-9]/m);
  });

  it('/metrics is 404 when METRICS_TOKEN is unset', async () => {
    const res = await t.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    assert.equal(res.statusCode, 404);
    // …and the content answers of an app without telemetry still carry Server-Timing.
    const read = await p.api.get('/api/tags');
    assert.equal(read.statusCode, 200);
    assert.match(String(read.headers['server-timing']), /^plan;dur=[\d.]+, db;dur=[\d.]+$/);
  });
});
