// The local cluster of `make start-cluster`, on a private database, Redis prefix, ports and run
// directory: two compiled gateways (`node dist/gateway.js`), one worker, s3rver. A change made
// through one gateway is served by the other on its next request; media jobs enqueued by a
// gateway are done by the worker; a gateway killed with SIGKILL under writes loses no write it
// acknowledged; SIGTERM lets an in-flight request finish and exits 0.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import sharp from 'sharp';
import { ensureBuilt } from '../../scripts/build.ts';
import { serverArgs, startCluster, stopCluster, ROOT, type ClusterInfo } from '../../scripts/cluster/cluster.ts';
import { freePort, isAlive, startBackground, waitForExit, waitForStatus, type Background } from '../../scripts/cluster/processes.ts';
import { TEST_PG_ADMIN_URL, TEST_REDIS_URL } from '../helpers/db.ts';
import { multipart } from '../helpers/multipart.ts';
import { call } from '../helpers/process.ts';

const noteType = (extra: Record<string, unknown> = {}) => ({
  contentTypes: {
    'api::note.note': {
      kind: 'collectionType', info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      options: { draftAndPublish: false }, attributes: { title: { type: 'string' }, ...extra },
    },
  },
  components: {},
});

async function poll<T>(what: string, fn: () => Promise<T | null>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('local cluster (compiled gateways, worker, S3)', () => {
  const database = `cms_test_cluster_${randomBytes(4).toString('hex')}`;
  let runDir = '';
  let cluster: ClusterInfo;
  let a = '';
  let b = '';
  let token = '';
  let slug = '';
  let apiKey = '';
  /** gateway 1 after its restart (a child of this process, so its exit code is known) */
  let restarted: Background | undefined;

  before(async () => {
    await ensureBuilt();
    runDir = await mkdtemp(join(tmpdir(), 'cms-cluster-'));
    cluster = await startCluster({
      runDir,
      pgAdminUrl: TEST_PG_ADMIN_URL,
      database,
      redisUrl: TEST_REDIS_URL,
      redisPrefix: `test:${database}:`,
      gatewayPorts: [await freePort(), await freePort()],
      workerHealthPort: await freePort(),
      s3Port: await freePort(),
      bucket: 'cluster-media',
      // Upload answers do not wait for formats: the test watches the worker make them.
      env: { LOG_LEVEL: 'info', MEDIA_PROCESSING_WAIT_MS: '100', DB_POOL_SIZE: '5' },
    });
    [a, b] = cluster.gateways.map((g) => g.url) as [string, string];
    const signup = await call(a, 'POST', '/v1/auth/signup', { email: `cluster-${database}@example.com`, password: 'a long password' });
    assert.equal(signup.status, 201);
    token = signup.body.token;
    const created = await call(a, 'POST', '/v1/projects', { name: 'Cluster' }, token);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    slug = created.body.project.slug;
  });

  after(async () => {
    if (runDir) {
      const stopped = await stopCluster(runDir);
      // Every process of the cluster ended on SIGTERM, none had to be killed.
      assert.deepEqual(stopped.filter((s) => s.outcome === 'killed'), []);
      await rm(runDir, { recursive: true, force: true });
    }
    const admin = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  });

  it('runs the compiled server: one node process per instance on dist/', async () => {
    for (const g of cluster.gateways) {
      const cmdline = (await readFile(`/proc/${g.pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);
      assert.deepEqual(cmdline, [process.execPath, ...serverArgs('gateway')]);
    }
    const workerCmd = (await readFile(`/proc/${cluster.worker.pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);
    assert.deepEqual(workerCmd, [process.execPath, ...serverArgs('worker')]);
    assert.deepEqual(await call(cluster.worker.healthUrl, 'GET', '/healthz'), { status: 200, body: { status: 'ok' } });
    assert.deepEqual(await call(cluster.worker.healthUrl, 'GET', '/readyz'), { status: 200, body: { status: 'ok', postgres: 'ok', redis: 'ok' } });
    for (const url of [a, b]) {
      assert.deepEqual(await call(url, 'GET', '/healthz'), { status: 200, body: { status: 'ok' } });
      assert.deepEqual(await call(url, 'GET', '/readyz'), { status: 200, body: { status: 'ok', postgres: 'ok', redis: 'ok' } });
    }
    // The dashboard's static build is served by the compiled gateway.
    const page = await fetch(`${a}/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<div id="root">/);
  });

  it('serves on gateway B a model change and a permission change made through gateway A', async () => {
    const base = `/v1/projects/${slug}`;
    assert.equal((await call(a, 'PUT', `${base}/schema`, noteType(), token)).status, 200);
    // B caches the project's runtime and permissions: no public access yet.
    const refused = await call(b, 'GET', `/p/${slug}/api/notes`);
    assert.equal(refused.status, 403);
    assert.equal((await call(a, 'PUT', `${base}/roles/public/permissions`, { permissions: { 'api::note.note': ['find', 'create'] } }, token)).status, 200);
    assert.deepEqual(await call(b, 'GET', `/p/${slug}/api/notes`), {
      status: 200, body: { data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } },
    });
    // A new attribute pushed through A is readable and writable through B at once.
    assert.equal((await call(b, 'GET', `/p/${slug}/api/notes?fields=body`)).status, 400);
    assert.equal((await call(a, 'PUT', `${base}/schema`, noteType({ body: { type: 'text' } }), token)).status, 200);
    const written = await call(b, 'POST', `/p/${slug}/api/notes`, { data: { title: 'via B', body: 'new attribute' } });
    assert.equal(written.status, 201, JSON.stringify(written.body));
    const read = await call(b, 'GET', `/p/${slug}/api/notes?fields=body`);
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.deepEqual(read.body.data.map((d: { body: string }) => d.body), ['new attribute']);
    // Taking the permission back through A closes B at once.
    assert.equal((await call(a, 'PUT', `${base}/roles/public/permissions`, { permissions: { 'api::note.note': ['create'] } }, token)).status, 200);
    const closed = await call(b, 'GET', `/p/${slug}/api/notes`);
    assert.equal(closed.status, 403);
    assert.equal(closed.body.error.name, 'ForbiddenError');
    const key = await call(a, 'POST', `${base}/api-tokens`, { name: 'cluster', type: 'full-access' }, token);
    assert.equal(key.status, 201);
    apiKey = key.body.accessKey;
  });

  it('has the worker make the image formats of an upload received by a gateway', async () => {
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: 'teal' } }).png().toBuffer();
    // With the worker paused, the gateways (MEDIA_WORKER=false) leave the job alone.
    process.kill(cluster.worker.pid, 'SIGSTOP');
    let id: number;
    try {
      const body = await multipart({ files: { name: 'cluster.png', content: png, type: 'image/png' } });
      const res = await fetch(`${a}/p/${slug}/api/upload`, { method: 'POST', headers: { ...body.headers, authorization: `Bearer ${apiKey}` }, body: new Uint8Array(body.payload) });
      assert.equal(res.status, 201);
      const [file] = (await res.json()) as Array<{ id: number; formats: unknown; url: string }>;
      id = file!.id;
      assert.equal(file!.formats, null);
      assert.ok(file!.url.startsWith(`${cluster.s3.url}/${cluster.s3.bucket}/`), file!.url);
      await new Promise((r) => setTimeout(r, 500));
      const still = await call(b, 'GET', `/p/${slug}/api/upload/files/${id}`, undefined, apiKey);
      assert.equal(still.body.formats, null);
    } finally {
      process.kill(cluster.worker.pid, 'SIGCONT');
    }
    const formats = await poll('formats made by the worker', async () => {
      const res = await call(b, 'GET', `/p/${slug}/api/upload/files/${id}`, undefined, apiKey);
      return res.body.formats ? (res.body.formats as Record<string, { url: string; width: number; mime: string }>) : null;
    });
    assert.deepEqual(Object.keys(formats).sort(), ['medium', 'small', 'thumbnail']);
    assert.deepEqual([formats.small!.width, formats.medium!.width, formats.thumbnail!.width], [500, 750, 208]);
    // The formats are objects in the S3 store.
    const object = await fetch(formats.small!.url);
    assert.equal(object.status, 200);
    const meta = await sharp(Buffer.from(await object.arrayBuffer())).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', 500, 375]);
  });

  it('loses no acknowledged write when a gateway is killed (SIGKILL) while writes run against it', async () => {
    const acknowledged: string[] = [];
    let failures = 0;
    const writer = async (n: number) => {
      for (let k = 0; ; k++) {
        try {
          const res = await fetch(`${a}/p/${slug}/api/notes`, {
            method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
            body: JSON.stringify({ data: { title: `w${n}-${k}` } }),
          });
          const body = (await res.json()) as { data?: { documentId: string } };
          if (res.status !== 201) throw new Error(`unexpected ${res.status} before the kill: ${JSON.stringify(body)}`);
          acknowledged.push(body.data!.documentId);
        } catch (err) {
          if (err instanceof Error && err.message.startsWith('unexpected')) throw err;
          failures++;
          return; // the gateway is gone
        }
      }
    };
    const writers = Promise.all([0, 1, 2, 3].map(writer));
    await poll('writes acknowledged', async () => (acknowledged.length >= 40 ? true : null));
    const killed = cluster.gateways[0]!;
    process.kill(killed.pid, 'SIGKILL');
    await writers;
    assert.ok(!isAlive(killed.pid) || (await waitForExit(killed.pid, 2_000)));
    assert.equal(failures, 4, 'each writer saw the gateway go away');
    // Every acknowledged document is there, through the other gateway.
    const missing: string[] = [];
    for (const documentId of acknowledged) {
      const res = await call(b, 'GET', `/p/${slug}/api/notes/${documentId}`, undefined, apiKey);
      if (res.status !== 200 || res.body.data.documentId !== documentId) missing.push(documentId);
    }
    assert.deepEqual(missing, []);
    const total = await call(b, 'GET', `/p/${slug}/api/notes?pagination[pageSize]=1`, undefined, apiKey);
    // At most one write per writer was in flight when the gateway died (committed or not).
    assert.ok(total.body.meta.pagination.total >= acknowledged.length + 1, JSON.stringify(total.body.meta));
    assert.ok(total.body.meta.pagination.total <= acknowledged.length + 1 + 4, JSON.stringify(total.body.meta));

    // Restarted as a supervisor would, the gateway serves again.
    const port = new URL(a).port;
    const started = performance.now();
    const again = await startBackground(runDir, killed.name, process.execPath, serverArgs('gateway'), { ...cluster.env, PORT: port }, ROOT);
    restarted = again;
    await waitForStatus(`${a}/readyz`, 200, { child: again.child, log: again.log, intervalMs: 10 });
    const restartMs = Math.round(performance.now() - started);
    process.stdout.write(`# restarted gateway ready in ${restartMs} ms\n`);
    cluster.gateways[0] = { ...killed, pid: again.pid };
    assert.equal((await call(a, 'GET', `/p/${slug}/api/notes/${acknowledged[0]}`, undefined, apiKey)).status, 200);
  });

  it('on SIGTERM stops accepting, finishes the request in flight and exits 0', async () => {
    assert.ok(restarted, 'gateway 1 was restarted');
    const gateway = restarted;
    const url = new URL(a);
    // (started detached and unreferenced, like every cluster process: waiting for it keeps this test alive)
    gateway.child.ref();
    const exited = new Promise<number | null>((resolve) => gateway.child.once('exit', (code) => resolve(code)));
    const payload = Buffer.from(JSON.stringify({ data: { title: 'finished during shutdown' } }));
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({
        host: url.hostname, port: url.port, method: 'POST', path: `/p/${slug}/api/notes`,
        headers: { 'content-type': 'application/json', 'content-length': payload.length, authorization: `Bearer ${apiKey}` },
      }, (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      // Half the body now; the rest after the signal: the request is in flight meanwhile.
      req.write(payload.subarray(0, 10));
      setTimeout(() => {
        process.kill(gateway.pid, 'SIGTERM');
        setTimeout(async () => {
          // The listener is closed: a new connection is refused while this request runs.
          await assert.rejects(fetch(`${a}/healthz`));
          req.end(payload.subarray(10));
        }, 700);
      }, 300);
    });
    const done = await answer;
    assert.equal(done.status, 201, done.body);
    const documentId = JSON.parse(done.body).data.documentId as string;
    assert.equal((await call(b, 'GET', `/p/${slug}/api/notes/${documentId}`, undefined, apiKey)).body.data.title, 'finished during shutdown');
    assert.equal(await exited, 0);
    const log = await readFile(gateway.log, 'utf8');
    assert.match(log, /"signal":"SIGTERM","msg":"shutting down"/);
    assert.doesNotMatch(log.slice(log.lastIndexOf('shutting down')), /shutdown failed/);
  });
});
