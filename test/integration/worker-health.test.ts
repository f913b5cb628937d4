// The worker's probes (apps/worker/src/health.ts): the server alone with checks that pass, fail or
// hang, then the real worker (`apps/worker/src/main.ts`) on this machine's Postgres and Redis:
// /healthz and /readyz on WORKER_HEALTH_PORT, and a port already taken refuses the start.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startHealthServer, type HealthServer } from '../../apps/worker/src/health.ts';
import { createTestDatabase, TEST_REDIS_URL, type TestDatabase } from '../helpers/db.ts';
import { freePort } from '../helpers/process.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function get(port: number, path: string, method = 'GET'): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { method });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

describe('worker health server', () => {
  let postgres = true;
  let redis: 'up' | 'down' | 'hangs' = 'up';
  let server: HealthServer;

  before(async () => {
    server = await startHealthServer({
      postgres: async () => postgres,
      redis: () => (redis === 'hangs' ? new Promise<boolean>(() => {}) : Promise.resolve(redis === 'up')),
    }, { port: 0, host: '127.0.0.1', checkTimeoutMs: 200 });
  });
  after(() => server?.close());

  it('answers /healthz and /readyz with what each check says', async () => {
    assert.deepEqual(await get(server.port, '/healthz'), { status: 200, body: { status: 'ok' } });
    assert.deepEqual(await get(server.port, '/readyz'), { status: 200, body: { status: 'ok', postgres: 'ok', redis: 'ok' } });
    postgres = false;
    assert.deepEqual(await get(server.port, '/readyz'), { status: 503, body: { status: 'unavailable', postgres: 'unreachable', redis: 'ok' } });
    postgres = true;
    redis = 'down';
    assert.deepEqual(await get(server.port, '/readyz'), { status: 503, body: { status: 'unavailable', postgres: 'ok', redis: 'unreachable' } });
    // A check that never answers counts as failed after the timeout; liveness does not wait on it.
    redis = 'hangs';
    const started = performance.now();
    assert.deepEqual(await get(server.port, '/readyz'), { status: 503, body: { status: 'unavailable', postgres: 'ok', redis: 'unreachable' } });
    assert.ok(performance.now() - started < 1_500);
    assert.deepEqual(await get(server.port, '/healthz'), { status: 200, body: { status: 'ok' } });
    redis = 'up';
  });

  it('answers 404 elsewhere and 405 to other methods', async () => {
    assert.deepEqual(await get(server.port, '/'), { status: 404, body: { status: 'not found' } });
    assert.deepEqual(await get(server.port, '/readyz/x'), { status: 404, body: { status: 'not found' } });
    assert.deepEqual(await get(server.port, '/healthz', 'POST'), { status: 405, body: { status: 'method not allowed' } });
    assert.equal((await get(server.port, '/healthz?probe=1')).status, 200);
  });

  it('is not ready once shutdown began, and still alive (jobs finish)', async () => {
    server.stopping();
    assert.deepEqual(await get(server.port, '/readyz'), { status: 503, body: { status: 'stopping' } });
    assert.deepEqual(await get(server.port, '/healthz'), { status: 200, body: { status: 'ok' } });
  });
});

interface Worker {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

function startWorker(env: Record<string, string>): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/worker/src/main.ts'], {
    cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return { child, output: () => out, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
}

describe('worker process (apps/worker) probes', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  const workers: Worker[] = [];

  before(async () => {
    db = await createTestDatabase();
    env = {
      DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `test:${db.name}:`,
      APP_SECRET: randomBytes(24).toString('hex'), HOST: '127.0.0.1', LOG_LEVEL: 'info',
    };
  });
  after(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    await db?.drop();
  });

  it('serves /healthz and /readyz on WORKER_HEALTH_PORT, and stops them on SIGTERM', async () => {
    const port = await freePort();
    const worker = startWorker({ ...env, WORKER_HEALTH_PORT: String(port) });
    workers.push(worker);
    const deadline = Date.now() + 60_000;
    while (!worker.output().includes('worker ready')) {
      if (worker.child.exitCode !== null) assert.fail(`worker exited ${worker.child.exitCode}:\n${worker.output()}`);
      assert.ok(Date.now() < deadline, worker.output());
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.match(worker.output(), new RegExp(`"health":"http://127\\.0\\.0\\.1:${port}/readyz"`));
    assert.deepEqual(await get(port, '/healthz'), { status: 200, body: { status: 'ok' } });
    assert.deepEqual(await get(port, '/readyz'), { status: 200, body: { status: 'ok', postgres: 'ok', redis: 'ok' } });
    worker.child.kill('SIGTERM');
    assert.equal(await worker.exited, 0, worker.output());
    await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`));
  });

  it('refuses to start when WORKER_HEALTH_PORT is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as { port: number }).port;
      const worker = startWorker({ ...env, WORKER_HEALTH_PORT: String(port) });
      workers.push(worker);
      assert.equal(await worker.exited, 1, worker.output());
      assert.match(worker.output(), /worker health port could not be opened \(WORKER_HEALTH_PORT\)/);
      assert.match(worker.output(), /EADDRINUSE/);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
