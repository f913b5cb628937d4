// apps/worker and BullMQ crash recovery: a worker killed (SIGKILL) while it holds an image job
// loses the job's lock; a worker started afterwards takes the job over and completes it.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Queue } from 'bullmq';
import sharp from 'sharp';
import { MEDIA_QUEUE } from '@cms/media';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { multipart } from '../helpers/multipart.ts';
import { blogRawModel } from '../fixtures/index.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Child {
  child: ChildProcess;
  output(): string;
  waitFor(text: string, ms?: number): Promise<void>;
  exited: Promise<number | null>;
}

function run(script: string, env: Record<string, string>): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    // WORKER_HEALTH_PORT 0: the worker's probes on a free port (other test files run workers too).
    cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', WORKER_HEALTH_PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited,
    async waitFor(text, ms = 30_000) {
      const deadline = Date.now() + ms;
      while (!out.includes(text)) {
        if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}:\n${out}`);
        if (Date.now() > deadline) throw new Error(`${script} did not print "${text}" within ${ms} ms:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

async function poll<T>(fn: () => Promise<T | null>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`not done within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('media worker (apps/worker)', () => {
  let t: TestApp;
  let p: ContentProject;
  const children: Child[] = [];

  before(async () => {
    // This gateway only queues jobs, and answers uploads without waiting long for them.
    t = await startTestApp({ env: { MEDIA_WORKER: 'false', MEDIA_PROCESSING_WAIT_MS: '100', MEDIA_JOB_LOCK_MS: '1000' } });
    p = await setupContentProject(t, blogRawModel());
  });
  after(async () => {
    for (const c of children) if (c.child.exitCode === null) c.child.kill('SIGKILL');
    await t?.close();
  });

  it('refuses to start without Redis and Postgres', async () => {
    const worker = run('apps/worker/src/main.ts', { APP_SECRET: t.env.APP_SECRET!, LOG_LEVEL: 'info', DATABASE_URL: t.env.DATABASE_URL! });
    children.push(worker);
    assert.equal(await worker.exited, 1);
    assert.match(worker.output(), /needs REDIS_URL and DATABASE_URL/);
  });

  it('a job held by a killed worker is completed by the next one', async () => {
    const stuck = run('test/helpers/stuck-media-worker.ts', t.env);
    children.push(stuck);
    await stuck.waitFor('ready');

    const png = await sharp({ create: { width: 1200, height: 800, channels: 3, background: 'blue' } }).png().toBuffer();
    const res = await p.api.raw('POST', '/api/upload', await multipart({ files: { name: 'crash test.png', content: png, type: 'image/png' } }));
    assert.equal(res.statusCode, 201, res.body);
    const [file] = res.json();
    // Nobody finished the job within the wait: the answer has no formats yet.
    assert.equal(file.formats, null);
    assert.equal(file.width, null);

    await stuck.waitFor(`holding ${file.id}`);
    stuck.child.kill('SIGKILL');
    await stuck.exited;

    const worker = run('apps/worker/src/main.ts', { ...t.env, LOG_LEVEL: 'info' });
    children.push(worker);
    await worker.waitFor('worker ready');
    const done = await poll(async () => {
      const got = (await p.api.get(`/api/upload/files/${file.id}`)).json();
      return got.formats ? got : null;
    }, 30_000);
    assert.equal(done.width, 1200);
    assert.equal(done.height, 800);
    assert.deepEqual(
      Object.fromEntries(Object.entries(done.formats as Record<string, { width: number; height: number }>).map(([k, f]) => [k, [f.width, f.height]])),
      { large: [1000, 667], small: [500, 333], medium: [750, 500], thumbnail: [234, 156] },
    );
    const stored = (await readdir(join(t.env.MEDIA_DIR!, String(p.id)))).sort();
    assert.deepEqual(stored, [`${file.hash}.png`, ...['large', 'medium', 'small', 'thumbnail'].map((f) => `${f}_${file.hash}.png`)].sort());

    // The queue recorded one stall (the killed worker) and a completion.
    const queue = new Queue(MEDIA_QUEUE, { connection: { url: t.env.REDIS_URL }, prefix: `${t.env.REDIS_PREFIX}bull` });
    try {
      const completed = await queue.getCompleted();
      assert.equal(completed.length, 1);
      assert.equal(completed[0]!.data.fileId, String(file.id));
      assert.equal(completed[0]!.stalledCounter, 1);
      assert.equal((await queue.getJobCounts('failed', 'active', 'wait')).failed, 0);
    } finally {
      await queue.close();
    }

    worker.child.kill('SIGTERM');
    assert.equal(await worker.exited, 0);
  });
});
