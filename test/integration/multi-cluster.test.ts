// Projects on two Postgres clusters (two databases of the local server): placement by the
// policy (fewest projects, draining clusters skipped), content served from each, tenants kept
// apart, webhooks delivered from the second cluster's outbox, and a project moved between the
// clusters while two gateways serve reads and writes without a 5xx or a lost document.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '@cms/config';
import { column, compiledQuery } from '@cms/db';
import { listClusters, moveProject, setClusterState } from '@cms/tenancy';
import type { DatabasePool } from 'slonik';
import type { LightMyRequestResponse } from 'fastify';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { multipart } from '../helpers/multipart.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';

const MODEL = {
  contentTypes: {
    'api::article.article': {
      kind: 'collectionType', collectionName: 'articles',
      info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: false }, attributes: { title: { type: 'string' } },
    },
  },
  components: {},
};

const FAST_WEBHOOKS = { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_RELAY_INTERVAL_MS: '100', WEBHOOKS_TIMEOUT_MS: '3000' };

async function clusterOf(t: TestApp, slug: string): Promise<string> {
  const [cluster] = await column(t.platform.db.pool, 'SELECT cluster FROM platform.projects WHERE slug = $1', [slug]);
  return cluster!;
}

async function hasSchema(pool: DatabasePool, schema: string): Promise<boolean> {
  return (await column(pool, 'SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).length === 1;
}

async function titlesIn(pool: DatabasePool, schema: string): Promise<string[]> {
  return column(pool, `SELECT title FROM "${schema}".ct_article ORDER BY title`);
}

async function create(p: ContentProject, title: string): Promise<string> {
  const res = await p.api.post('/api/articles', { data: { title } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data.documentId as string;
}

async function listTitles(p: ContentProject): Promise<string[]> {
  const res = await p.api.get('/api/articles?pagination[pageSize]=100&sort=title');
  assert.equal(res.statusCode, 200, res.body);
  return (res.json().data as Array<{ title: string }>).map((d) => d.title);
}

describe('DATABASE_URLS', () => {
  const base = { DATABASE_URL: 'postgres://db/cms', APP_SECRET: 'x'.repeat(32) };
  it('names the further clusters; DATABASE_URL is main', () => {
    assert.deepEqual(loadConfig(base).databaseClusters, {});
    assert.deepEqual(loadConfig({ ...base, DATABASE_URLS: ' eu2=postgres://a/cms , big=postgresql://b:5433/cms?sslmode=require ' }).databaseClusters,
      { eu2: 'postgres://a/cms', big: 'postgresql://b:5433/cms?sslmode=require' });
  });
  it('refuses what it cannot place a project on', () => {
    for (const [value, message] of [
      ['main=postgres://a/cms', /"main" is not a cluster name/],
      ['EU=postgres://a/cms', /"EU" is not a cluster name/],
      ['postgres://a/cms', /"" is not a cluster name/],
      ['eu2=mysql://a/cms', /cluster "eu2" must start with postgres:\/\//],
      ['a=postgres://a/x,a=postgres://b/x', /cluster "a" is given twice/],
    ] as const) {
      assert.throws(() => loadConfig({ ...base, DATABASE_URLS: value }), (err: Error) => err instanceof ConfigError && message.test(err.message), value);
    }
    assert.throws(() => loadConfig({ DATABASE_URLS: 'eu2=postgres://a/cms' }), /DATABASE_URLS needs DATABASE_URL/);
  });
});

describe('projects on more than one Postgres cluster', () => {
  let second: TestDatabase;
  let t: TestApp;
  let t2: TestApp;
  let rx: Receiver;
  const projects: ContentProject[] = [];
  const secondPool = () => t.platform.db.poolOf('second');

  before(async () => {
    second = await createTestDatabase('cms_test_second');
    t = await startTestApp({ env: { ...FAST_WEBHOOKS, DATABASE_URLS: `second=${second.url}` } });
    // A second gateway of the same deployment (the bus carries invalidations between them).
    t2 = await startTestApp({ share: t });
    rx = await startReceiver();
  });
  after(async () => {
    for (const p of projects) await p.admin.del(`/v1/projects/${p.slug}`).catch(() => {});
    await rx?.close();
    await t2?.close();
    await t?.close();
    await second?.drop();
  });

  it('places new projects on the cluster with the fewest, skipping draining ones', async () => {
    assert.deepEqual(t.platform.db.clusters, ['main', 'second']);
    for (let i = 0; i < 4; i++) projects.push(await setupContentProject(t, MODEL));
    assert.deepEqual(await Promise.all(projects.map((p) => clusterOf(t, p.slug))), ['main', 'second', 'main', 'second']);
    for (const p of projects) {
      const onSecond = (await clusterOf(t, p.slug)) === 'second';
      assert.equal(await hasSchema(t.platform.db.pool, p.schema), !onSecond, `${p.slug} on main`);
      assert.equal(await hasSchema(secondPool(), p.schema), onSecond, `${p.slug} on second`);
    }
    // The second cluster keeps copies of its projects' rows that its transactions read.
    const roles = await column(secondPool(), 'SELECT type FROM platform.roles WHERE project_id = $1 ORDER BY type', [projects[1]!.id]);
    assert.deepEqual(roles, ['authenticated', 'public']);
    assert.deepEqual(await column(secondPool(), 'SELECT id::text FROM platform.projects ORDER BY id'), [String(projects[1]!.id), String(projects[3]!.id)]);

    // A draining cluster takes no new project, even with the fewest.
    assert.equal(await setClusterState(t.platform.db.pool, 'second', 'draining', false), true);
    try {
      const extra = await setupContentProject(t, MODEL);
      projects.push(extra);
      assert.equal(await clusterOf(t, extra.slug), 'main');
    } finally {
      await setClusterState(t.platform.db.pool, 'second', 'open', false);
    }
    const clusters = await listClusters(t.platform.db.pool);
    assert.deepEqual(clusters, [
      { name: 'main', state: 'open', pinnedOnly: false, projects: 3 },
      { name: 'second', state: 'open', pinnedOnly: false, projects: 2 },
    ]);
  });

  it('serves each project from its own cluster, and keeps tenants apart', async () => {
    const [a, b] = projects as [ContentProject, ContentProject];
    await create(a, 'on main');
    const bId = await create(b, 'on second');
    // Written where each project lives, and only there.
    assert.deepEqual(await titlesIn(t.platform.db.pool, a.schema), ['on main']);
    assert.deepEqual(await titlesIn(secondPool(), b.schema), ['on second']);
    const bToken = `Bearer ${await b.token('read-only')}`;
    for (const gateway of [t, t2]) {
      const res = await gateway.inject({ method: 'GET', url: `/p/${b.slug}/api/articles/${bId}`, headers: { authorization: bToken } });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().data.title, 'on second');
    }
    assert.deepEqual(await listTitles(a), ['on main']);
    assert.deepEqual(await listTitles(b), ['on second']);
    // A's token means nothing to B, and B's documents are not found through A.
    const aToken = await a.token('read-only');
    assert.equal((await b.client(aToken).get('/api/articles')).statusCode, 401);
    assert.equal((await a.api.get(`/api/articles/${bId}`)).statusCode, 404);
    // Updates and deletes go to the project's cluster too.
    assert.equal((await b.api.put(`/api/articles/${bId}`, { data: { title: 'on second, edited' } })).statusCode, 200);
    assert.deepEqual(await titlesIn(secondPool(), b.schema), ['on second, edited']);
    // GraphQL reads the second cluster too.
    const gql = await b.api.post('/graphql', { query: '{ articles { title } }' });
    assert.equal(gql.statusCode, 200, gql.body);
    assert.deepEqual(gql.json(), { data: { articles: [{ title: 'on second, edited' }] } });
    // A locale's delete spans both clusters (its row on main, its content on second).
    assert.equal((await b.admin.post(`/v1/projects/${b.slug}/locales`, { code: 'fr' })).statusCode, 201);
    const removed = await b.admin.del(`/v1/projects/${b.slug}/locales/fr`);
    assert.equal(removed.statusCode, 204, removed.body);
    // The usage report reads the second cluster.
    const usage = await b.admin.get(`/v1/projects/${b.slug}/usage`);
    assert.equal(usage.statusCode, 200, usage.body);
    assert.equal(usage.json().documents, 1);
  });

  it('delivers webhooks of a project on the second cluster from that cluster\'s outbox', async () => {
    const b = projects[1]!;
    const res = await b.admin.post(`/v1/projects/${b.slug}/webhooks`, { name: 'hook', url: rx.url, events: ['entry.create'] });
    assert.equal(res.statusCode, 201, res.body);
    const hookId = res.json().webhook.id as number;
    assert.deepEqual(await column(secondPool(), 'SELECT url FROM platform.webhooks WHERE id = $1', [hookId]), [rx.url]);
    const docId = await create(b, 'hooked');
    const [got] = await rx.waitFor(1, (r) => r.json?.entry?.documentId === docId);
    assert.equal(got!.json.event, 'entry.create');
    assert.equal(got!.json.entry.title, 'hooked');
    // The outbox row was written on the second cluster, in the change's transaction; none on main.
    assert.deepEqual(await column(secondPool(), 'SELECT event FROM platform.webhook_deliveries WHERE project_id = $1', [b.id]), ['entry.create']);
    assert.deepEqual(await column(t.platform.db.pool, 'SELECT event FROM platform.webhook_deliveries WHERE project_id = $1', [b.id]), []);
    const log = async () => (await b.admin.get(`/v1/projects/${b.slug}/webhooks/${hookId}/deliveries`)).json().deliveries as Array<{ status: string; event: string }>;
    for (let i = 0; i < 100 && (await log())[0]?.status !== 'delivered'; i++) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual((await log()).map((d) => [d.event, d.status]), [['entry.create', 'delivered']]);
  });

  // projects[1] (with a webhook) goes from second to main, projects[2] from main to second.
  for (const [index, from, to] of [[1, 'second', 'main'], [2, 'main', 'second']] as const) {
    it(`moves a project from ${from} to ${to} while two gateways read and write it`, async () => {
      const project = projects[index]!;
      assert.equal(await clusterOf(t, project.slug), from);
      const seeded: string[] = [];
      for (let i = 0; i < 30; i++) seeded.push(`seed ${String(i).padStart(3, '0')} ${from}`);
      for (const title of seeded) await create(project, title);
      const before = await listTitles(project);
      const token = `Bearer ${await project.token('read-only')}`;

      let stop = false;
      const statuses = new Map<number, number>();
      const problems: string[] = [];
      let reads = 0;
      const reader = async (gateway: TestApp) => {
        while (!stop) {
          const res = await gateway.inject({ method: 'GET', url: `/p/${project.slug}/api/articles?pagination[pageSize]=100&sort=createdAt:asc`, headers: { authorization: token } });
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          reads++;
          if (res.statusCode !== 200) { problems.push(`read ${res.statusCode} ${res.body}`); continue; }
          const titles = (res.json().data as Array<{ title: string }>).map((d) => d.title);
          for (const title of before) if (!titles.includes(title)) problems.push(`read lost "${title}"`);
        }
      };
      const written: string[] = [];
      const writer = async () => {
        for (let i = 0; !stop; i++) {
          const title = `during ${String(i).padStart(4, '0')} ${from}`;
          const res = await project.api.post('/api/articles', { data: { title } });
          if (res.statusCode === 201) written.push(title);
          else if (res.statusCode === 503 && res.headers['retry-after'] !== undefined) await new Promise((r) => setTimeout(r, 50));
          else problems.push(`write ${res.statusCode} ${res.body}`);
        }
      };
      const loops = [reader(t), reader(t2), reader(t2), writer()];
      await new Promise((r) => setTimeout(r, 300));
      // One write and one read made while writes are paused: the read is answered during the
      // pause, the write waits and lands on the new cluster.
      let pausedWrite: Promise<LightMyRequestResponse> | undefined;
      let pausedUpload: Promise<{ status: number; retryAfter: unknown }> | undefined;
      let pausedRead: Promise<number> | undefined;
      let readDuringPause = false;
      let switched = false;
      const report = await moveProject(t.platform.db, (inv) => t.platform.registry.invalidate(inv), project.slug, to, {
        onPhase: async (phase) => {
          if (phase === 'switched') return void (switched = true);
          pausedWrite = project.api.post('/api/articles', { data: { title: `paused ${from}` } });
          // An upload cannot rerun (its body is consumed): asked to send it again.
          const upload = await multipart({ files: { name: 'paused.txt', content: 'x', type: 'text/plain' } });
          pausedUpload = project.api.raw('POST', '/api/upload', upload).then((r) => ({ status: r.statusCode, retryAfter: r.headers['retry-after'] }));
          pausedRead = t2.inject({ method: 'GET', url: `/p/${project.slug}/api/articles?pagination[pageSize]=100`, headers: { authorization: token } }).then((r) => {
            readDuringPause = !switched;
            return r.statusCode;
          });
          await pausedRead;
          await new Promise((r) => setTimeout(r, 300));
        },
      });
      assert.equal(await pausedRead, 200);
      assert.equal(readDuringPause, true, 'a read was answered while writes were paused');
      const paused = await pausedWrite!;
      assert.equal(paused.statusCode, 201, `the write made during the pause: ${paused.body} (move: ${JSON.stringify(report)})`);
      assert.deepEqual(await pausedUpload, { status: 503, retryAfter: '1' });
      written.push(`paused ${from}`);
      await new Promise((r) => setTimeout(r, 500));
      stop = true;
      await Promise.all(loops);

      console.log(`# move ${from} → ${to}: ${JSON.stringify(report)}; reads ${reads} ${JSON.stringify([...statuses])}, writes ${written.length}`);
      assert.deepEqual(problems.slice(0, 5), []);
      assert.deepEqual([...statuses.keys()], [200]);
      assert.ok(reads > 20, `only ${reads} reads ran`);
      assert.ok(written.length > 0, 'writes went on');
      assert.equal(report.from, from);
      assert.equal(report.to, to);
      assert.ok(report.pausedMs < 5000, `writes paused ${report.pausedMs} ms`);
      assert.equal(await clusterOf(t, project.slug), to);
      const fromPool = t.platform.db.poolOf(from);
      const toPool = t.platform.db.poolOf(to);
      assert.equal(await hasSchema(fromPool, project.schema), false, 'the old schema is dropped');
      // Every document, seeded and written during the move, is on the new cluster and served from there.
      const expected = [...before, ...written].sort();
      assert.deepEqual(await titlesIn(toPool, project.schema), expected);
      for (const gateway of [t, t2]) {
        // Pages of 100 (the REST maximum): how many writes ran during the move varies with speed.
        const served: string[] = [];
        for (let page = 1; served.length < expected.length + 100; page++) {
          const res = await gateway.inject({ method: 'GET', url: `/p/${project.slug}/api/articles?pagination[pageSize]=100&pagination[page]=${page}&sort=title`, headers: { authorization: token } });
          assert.equal(res.statusCode, 200, res.body);
          assert.equal(res.json().meta.pagination.total, expected.length);
          const titles = (res.json().data as Array<{ title: string }>).map((d) => d.title);
          if (titles.length === 0) break;
          served.push(...titles);
        }
        assert.deepEqual(served, expected);
      }
      // The project's audit log moved with it: an entry.create per document, on the new cluster only.
      const audited = async (pool: typeof toPool) => Number(await pool.oneFirst(compiledQuery({
        text: `SELECT count(*) FROM platform.audit_logs WHERE project_id = $1 AND action = 'entry.create'`, values: [project.id] })));
      assert.equal(await audited(toPool), expected.length);
      assert.equal(await audited(fromPool), 0);
      const listed = await project.admin.get(`/v1/projects/${project.slug}/audit-logs?action=entry.create&pageSize=1`);
      assert.equal(listed.json().meta.pagination.total, expected.length, listed.body);
      // A write after the move lands on the new cluster.
      await create(project, 'after the move');
      assert.ok((await titlesIn(toPool, project.schema)).includes('after the move'));
      // Moving again to where it is refuses.
      await assert.rejects(moveProject(t.platform.db, (inv) => t.platform.registry.invalidate(inv), project.slug, to), /already/);
    });
  }

  it('delivers webhooks of moved projects from their new cluster', async () => {
    // The webhook made on the second cluster, now on main.
    const back = projects[1]!;
    const backDoc = await create(back, 'hooked on main');
    assert.equal((await rx.waitFor(1, (r) => r.json?.entry?.documentId === backDoc))[0]!.json.entry.title, 'hooked on main');
    assert.deepEqual(await column(t.platform.db.pool, 'SELECT event FROM platform.webhook_deliveries WHERE project_id = $1 AND position($2 in body) > 0', [back.id, backDoc]), ['entry.create']);
    // Its copies on the second cluster went with it, deliveries too — unless one was still pending
    // at the switch (the writer ran up to it), which keeps them for the relay to finish it.
    const copies = await column(secondPool(), 'SELECT id::text FROM platform.projects WHERE id = $1', [back.id]);
    const left = await column(secondPool(), 'SELECT status FROM platform.webhook_deliveries WHERE project_id = $1', [back.id]);
    if (copies.length === 0) assert.deepEqual(left, []);
    else assert.ok(left.length > 0, 'copies kept for deliveries made there');
    // A webhook made after the move onto the second cluster.
    const project = projects[2]!;
    assert.equal(await clusterOf(t, project.slug), 'second');
    const res = await project.admin.post(`/v1/projects/${project.slug}/webhooks`, { name: 'after move', url: rx.url, events: ['entry.create'] });
    assert.equal(res.statusCode, 201, res.body);
    const docId = await create(project, 'hooked after move');
    const [got] = await rx.waitFor(1, (r) => r.json?.entry?.documentId === docId);
    assert.equal(got!.json.entry.title, 'hooked after move');
    assert.deepEqual(await column(secondPool(), 'SELECT count(*)::text FROM platform.webhook_deliveries WHERE project_id = $1', [project.id]), ['1']);
  });

  it('lists and moves through the operator command', async () => {
    const run = (...args: string[]) => promisify(execFile)(process.execPath, ['--import', 'tsx', 'apps/gateway/src/move-project.ts', ...args], { env: { ...process.env, ...t.env } });
    const listed = await run('--clusters');
    assert.equal(listed.stdout, 'main\topen\t3 projects\nsecond\topen\t2 projects\n');
    const project = projects[0]!;
    await create(project, 'moved by the command');
    const moved = await run(project.slug, 'second');
    assert.deepEqual({ ...JSON.parse(moved.stdout), pausedMs: 0, copyMs: 0, bytes: 0 }, { projectId: project.id, slug: project.slug, from: 'main', to: 'second', tables: 13, pausedMs: 0, copyMs: 0, bytes: 0 });
    // The gateways heard of it over Redis: served from the second cluster at once.
    for (const gateway of [t, t2]) {
      const res = await gateway.inject({ method: 'GET', url: `/p/${project.slug}/api/articles?sort=title`, headers: { authorization: `Bearer ${await project.token('read-only')}` } });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual((res.json().data as Array<{ title: string }>).map((d) => d.title), ['moved by the command', 'on main']);
    }
    assert.deepEqual(await titlesIn(secondPool(), project.schema), ['moved by the command', 'on main']);
    assert.equal(await hasSchema(t.platform.db.pool, project.schema), false);
    const refused = await run(project.slug, 'nowhere').catch((err: { code: number; stderr: string }) => err);
    assert.equal((refused as { code: number }).code, 1);
    assert.match((refused as { stderr: string }).stderr, /Unknown cluster "nowhere": configured are main, second/);
  });

  it('deletes a project on the second cluster with its schema and its copies there', async () => {
    const b = projects[3]!;
    assert.equal(await clusterOf(t, b.slug), 'second');
    assert.equal((await b.admin.del(`/v1/projects/${b.slug}`)).statusCode, 204);
    await t.platform.maintenance.round(new Date(Date.now() + 8 * 86_400_000), ['purge']);
    assert.equal(await hasSchema(secondPool(), b.schema), false);
    assert.deepEqual(await column(secondPool(), 'SELECT id::text FROM platform.projects WHERE id = $1', [b.id]), []);
    assert.equal((await t.platform.db.pool.maybeOne(compiledQuery({ text: 'SELECT 1 FROM platform.projects WHERE id = $1', values: [b.id] }))), null);
  });
});
