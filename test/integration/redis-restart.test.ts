// Redis goes away and comes back (killed, restarted empty): the content API keeps answering,
// changes made meanwhile reach every gateway, and what needs Redis (jobs, the bus, rate limits)
// works again on its own once it is back. Two gateway processes on a Redis of this test's own.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { call, freePort, spawnGateway, type GatewayProcess } from '../helpers/process.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';

const MODEL = (extra: Record<string, unknown> = {}) => ({
  contentTypes: {
    'api::note.note': {
      kind: 'collectionType', info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      options: { draftAndPublish: false }, attributes: { title: { type: 'string' }, ...extra },
    },
  },
  components: {},
});

class RedisServer {
  private child: ChildProcess | null = null;
  constructor(readonly port: number) {}
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }
  /** Start empty (no persistence: a restart loses every key, the worst case). */
  async start(): Promise<void> {
    this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      if (await this.answers()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('redis-server did not start');
  }
  async kill(): Promise<void> {
    const child = this.child!;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    this.child = null;
  }
  private async answers(): Promise<boolean> {
    const { createConnection } = await import('node:net');
    return new Promise((resolve) => {
      const socket = createConnection(this.port, '127.0.0.1');
      socket.once('connect', () => { socket.end(); resolve(true); });
      socket.once('error', () => resolve(false));
    });
  }
}

/** A request that must answer within `ms` (a hung request fails the test, it does not stall it). */
async function timed(base: string, method: string, path: string, body?: unknown, token?: string, ms = 10_000) {
  return Promise.race([
    call(base, method, path, body, token),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${method} ${path} did not answer within ${ms} ms`)), ms)),
  ]);
}

async function eventually<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('a Redis restart', () => {
  let db: TestDatabase;
  let redis: RedisServer;
  let a: GatewayProcess;
  let b: GatewayProcess;
  let token: string;
  let key: string;
  let imageId: number;
  let rx: Receiver;
  let hookId: string;
  const slug = 'through-outage';

  async function upload(base: string): Promise<{ status: number; body: any }> {
    const png = await sharp({ create: { width: 600, height: 400, channels: 3, background: 'green' } }).png().toBuffer();
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'outage.png');
    const res = await fetch(`${base}/p/${slug}/api/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(10_000) });
    return { status: res.status, body: await res.json() };
  }

  before(async () => {
    db = await createTestDatabase();
    rx = await startReceiver();
    // The first delivery fails: its retry waits in Redis, where the restart loses it.
    rx.respond = (_r, n) => (n === 1 ? { status: 500, body: 'not yet' } : { status: 200, body: 'ok' });
    redis = new RedisServer(await freePort());
    await redis.start();
    const env = {
      DATABASE_URL: db.url, REDIS_URL: redis.url, REDIS_PREFIX: `test:${db.name}:`,
      APP_SECRET: randomBytes(24).toString('hex'), LOG_LEVEL: 'error',
      // An upload waits this long for its formats before answering without them.
      MEDIA_PROCESSING_WAIT_MS: '1000',
      WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_BACKOFF_MS: '3000', WEBHOOKS_MAX_ATTEMPTS: '5', WEBHOOKS_RETRY_WINDOW_MS: '0',
      WEBHOOKS_RELAY_INTERVAL_MS: '100',
    };
    a = await spawnGateway(env);
    b = await spawnGateway(env);
    token = (await call(a.url, 'POST', '/v1/auth/signup', { email: 'outage@example.com', password: 'long enough pw' })).body.token;
    assert.equal((await call(a.url, 'POST', '/v1/projects', { name: 'Outage', slug }, token)).status, 201);
    assert.equal((await call(a.url, 'PUT', `/v1/projects/${slug}/schema`, MODEL(), token)).status, 200);
    assert.equal((await call(a.url, 'PUT', `/v1/projects/${slug}/roles/public/permissions`, { permissions: { 'api::note.note': ['find'] } }, token)).status, 200);
    key = (await call(a.url, 'POST', `/v1/projects/${slug}/api-tokens`, { name: 'k', type: 'full-access' }, token)).body.accessKey;
    hookId = (await call(a.url, 'POST', `/v1/projects/${slug}/webhooks`, { name: 'rx', url: rx.url, events: ['entry.create'] }, token)).body.webhook?.id;
    assert.equal((await call(a.url, 'POST', `/p/${slug}/api/notes`, { data: { title: 'before' } }, key)).status, 201);
    // Both gateways now hold the project, its model and its roles in their caches.
    for (const g of [a, b]) assert.equal((await call(g.url, 'GET', `/p/${slug}/api/notes`)).body.meta.pagination.total, 1);
  });

  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await rx?.close();
    await redis?.kill().catch(() => {});
    await db?.drop();
  });

  it('keeps serving reads and writes while Redis is down, and a change made meanwhile reaches the other gateway', async () => {
    assert.ok(hookId, 'the webhook was created');
    await rx.waitFor(1);
    // The first attempt failed; its retry is a delayed job in Redis, lost with it.
    await redis.kill();
    for (const g of [a, b]) {
      const listed = await timed(g.url, 'GET', `/p/${slug}/api/notes`);
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
    }
    const written = await timed(a.url, 'POST', `/p/${slug}/api/notes`, { data: { title: 'during' } }, key);
    assert.equal(written.status, 201, JSON.stringify(written.body));
    const onB = await timed(b.url, 'GET', `/p/${slug}/api/notes?sort=id`);
    assert.deepEqual(onB.body.data.map((n: { title: string }) => n.title), ['before', 'during']);

    // A model change and a permission change through A while the bus is down: answered, and B
    // serves them on its next requests (it cannot be told, so it does not trust its cache).
    const pushed = await timed(a.url, 'PUT', `/v1/projects/${slug}/schema`, MODEL({ body: { type: 'text' } }), token);
    assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
    const withBody = await eventually(() => timed(b.url, 'GET', `/p/${slug}/api/notes?fields=body`), (r) => r.status === 200, 5_000);
    assert.equal(withBody.status, 200, JSON.stringify(withBody.body));
    const revoked = await timed(a.url, 'PUT', `/v1/projects/${slug}/roles/public/permissions`, { permissions: {} }, token);
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    const refused = await eventually(() => timed(b.url, 'GET', `/p/${slug}/api/notes`), (r) => r.status === 403, 5_000);
    assert.equal(refused.status, 403);

    // An upload is stored and answered; its formats wait for the queue.
    const uploaded = await upload(a.url);
    assert.equal(uploaded.status, 201, JSON.stringify(uploaded.body));
    assert.equal(uploaded.body[0].width, null, 'no formats made without the queue');
    imageId = uploaded.body[0].id;
  });

  it('once Redis is back (empty), invalidations, rate limits and jobs work again without a restart', async () => {
    await redis.start();
    // Readiness comes back on both gateways.
    for (const g of [a, b]) {
      const ready = await eventually(() => fetch(`${g.url}/readyz`).then((r) => r.status), (s) => s === 200);
      assert.equal(ready, 200, `${g.url} ready again`);
    }
    // A permission change through B reaches A's next request through the bus again.
    assert.equal((await timed(a.url, 'GET', `/p/${slug}/api/notes`)).status, 403);
    const granted = await timed(b.url, 'PUT', `/v1/projects/${slug}/roles/public/permissions`, { permissions: { 'api::note.note': ['find'] } }, token);
    assert.equal(granted.status, 200);
    const open = await eventually(() => timed(a.url, 'GET', `/p/${slug}/api/notes`), (r) => r.status === 200, 5_000);
    assert.equal(open.status, 200);
    assert.equal(open.body.meta.pagination.total, 2);

    // The job of the upload made during the outage runs now, and new uploads get their formats.
    const file = await eventually(() => timed(a.url, 'GET', `/p/${slug}/api/upload/files/${imageId}`, undefined, key), (r) => r.body?.formats?.thumbnail !== undefined);
    assert.equal(file.body.width, 600);
    assert.ok(file.body.formats.thumbnail.url, JSON.stringify(file.body));
    const after = await upload(b.url);
    assert.equal(after.status, 201);
    const made = await eventually(() => timed(b.url, 'GET', `/p/${slug}/api/upload/files/${after.body[0].id}`, undefined, key), (r) => r.body?.formats?.thumbnail !== undefined);
    assert.equal(made.body.width, 600);

    // Webhooks: the retry Redis lost is attempted again (attempt 2, not a fresh count), and the
    // event written during the outage is delivered; each exactly once.
    const got = await rx.waitFor(3);
    await new Promise((r) => setTimeout(r, 1_000));
    const titles = rx.received.map((r) => r.json.entry.title);
    assert.deepEqual(titles.sort(), ['before', 'before', 'during']);
    const log = await call(a.url, 'GET', `/v1/projects/${slug}/webhooks/${hookId}/deliveries`, undefined, token);
    assert.equal(log.status, 200);
    const byTitle = new Map(log.body.deliveries.map((d: { id: string }) => [d.id, d]));
    assert.equal(byTitle.size, 2, JSON.stringify(log.body));
    for (const d of log.body.deliveries) assert.equal(d.status, 'delivered', JSON.stringify(d));
    assert.deepEqual(log.body.deliveries.map((d: { attempts: number }) => d.attempts).sort(), [1, 2]);
    assert.equal(got.length, 3);
  });
});
