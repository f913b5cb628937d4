// Spare project schemas (packages/tenancy/src/spare-schemas.ts): each cluster keeps empty project
// schemas ready; creating a project renames one to `t_{id}` in its transaction, and a background
// refill builds the next. On the real Postgres.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '@cms/config';
import { compiledQuery, type Db } from '@cms/db';
import { baseMigrations } from '@cms/ddl';
import { SpareSchemas, singleCluster } from '@cms/tenancy';
import { silentLogger } from '@cms/telemetry';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject } from '../helpers/content.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { createProject, signup } from '../helpers/management.ts';
import { collectionType as ct } from '../fixtures/index.ts';

const VERSION = baseMigrations.length;
const MODEL = {
  contentTypes: {
    'api::article.article': ct('article', 'articles', {
      title: { type: 'string' },
      tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'articles' },
    }),
    'api::tag.tag': ct('tag', 'tags', {
      name: { type: 'string' },
      articles: { type: 'relation', relation: 'manyToMany', target: 'api::article.article', mappedBy: 'tags' },
    }),
  },
  components: {},
};

async function spares(db: Db, version = VERSION): Promise<string[]> {
  return (await db.anyFirst(compiledQuery({
    text: 'SELECT nspname::text FROM pg_namespace WHERE nspname LIKE $1 ORDER BY 1', values: [`spare\\_v${version}\\_%`],
  }))) as string[];
}

async function waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('SPARE_SCHEMAS', () => {
  it('is 10 on Postgres, 0 on the embedded database, and refuses what is not a count', () => {
    const postgres = { DATABASE_URL: 'postgres://db/cms', APP_SECRET: 'x'.repeat(32) };
    assert.equal(loadConfig(postgres).spareSchemas, 10);
    assert.equal(loadConfig({ ...postgres, SPARE_SCHEMAS: '0' }).spareSchemas, 0);
    assert.equal(loadConfig({ ...postgres, SPARE_SCHEMAS: '25' }).spareSchemas, 25);
    // Embedded: the data dir gets its generated secret.
    const dataDir = mkdtempSync(join(tmpdir(), 'cms-spare-config-'));
    try {
      assert.equal(loadConfig({ DATA_DIR: dataDir }).spareSchemas, 0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    for (const value of ['-1', 'ten', '1.5', '1001']) {
      assert.throws(() => loadConfig({ ...postgres, SPARE_SCHEMAS: value }), (err: Error) => err instanceof ConfigError && /SPARE_SCHEMAS must be an integer between 0 and 1000/.test(err.message), value);
    }
  });
});

describe('spare project schemas', () => {
  let t: TestApp;
  let db: Db;

  before(async () => {
    t = await startTestApp({ env: { SPARE_SCHEMAS: '3' } });
    db = t.platform.db.pool;
  });
  after(async () => {
    await t?.close();
  });

  it('keeps the configured number ready, built at start', async () => {
    const ready = await waitFor('spares', () => spares(db), (s) => s.length >= 3);
    assert.equal(ready.length, 3);
    for (const name of ready) assert.match(name, new RegExp(`^spare_v${VERSION}_[0-9a-f]{12}$`));
    // A spare holds every base migration (it is one transaction's work: whole or absent).
    const applied = await db.anyFirst(compiledQuery({ text: `SELECT id FROM "${ready[0]}".schema_migrations ORDER BY id`, values: [] }));
    assert.deepEqual(applied, baseMigrations.map((m) => m.id));
  });

  it('a new project takes a spare as its schema; its functions name the new schema; a spare is built again', async () => {
    const before = await waitFor('spares', () => spares(db), (s) => s.length === 3);
    const session = await signup(t);
    const project = await createProject(t, session, { name: 'Takes a spare' });
    const schema = `t_${project.id}`;
    const after = await spares(db);
    const taken = before.filter((name) => !after.includes(name));
    assert.equal(taken.length, 1, 'exactly one spare renamed');
    // The schema is the spare: its base tables under the new name.
    const tables = await db.anyFirst(compiledQuery({
      text: "SELECT relname::text FROM pg_class WHERE relnamespace = $1::regnamespace AND relkind = 'r' ORDER BY 1", values: [schema],
    }));
    assert.deepEqual(tables, ['doc_counts', 'files', 'history_schemas', 'history_versions', 'live_events', 'live_head', 'release_actions', 'releases', 'scheduled_actions', 'schema_migrations', 'up_users', 'upload_folders']);
    const bodies = (await db.anyFirst(compiledQuery({
      text: 'SELECT prosrc FROM pg_proc WHERE pronamespace = $1::regnamespace ORDER BY proname', values: [schema],
    }))) as string[];
    assert.equal(bodies.length, 4);
    for (const body of bodies) {
      assert.ok(body.includes(`"${schema}"."doc_counts"`), body);
      assert.ok(!body.includes('spare_v'), body);
    }
    await waitFor('refill', () => spares(db), (s) => s.length === 3);
  });

  it('a project on a spare schema works end to end: model, writes, exact totals, end users', async () => {
    const p = await setupContentProject(t, MODEL);
    const tag = await p.api.post('/api/tags', { data: { name: 'news' } });
    assert.equal(tag.statusCode, 201, tag.body);
    for (const title of ['one', 'two', 'three']) {
      const res = await p.api.post('/api/articles?status=published', { data: { title, tags: [tag.json().data.documentId] } });
      assert.equal(res.statusCode, 201, res.body);
    }
    const draft = await p.api.post('/api/articles?status=draft', { data: { title: 'draft only' } });
    assert.equal(draft.statusCode, 201, draft.body);
    const list = await p.api.get('/api/articles?populate=tags');
    assert.equal(list.statusCode, 200, list.body);
    assert.equal(list.json().meta.pagination.total, 3);
    assert.deepEqual(list.json().data.map((a: { title: string }) => a.title).sort(), ['one', 'three', 'two']);
    const drafts = await p.api.get('/api/articles?status=draft');
    assert.equal(drafts.json().meta.pagination.total, 4);
    const filtered = await p.api.get('/api/articles?filters[tags][name][$eq]=news');
    assert.equal(filtered.json().meta.pagination.total, 3);
    // The ledger is written by the schema's own triggers and functions.
    const ledger = await db.any(compiledQuery({
      text: `SELECT status, sum(n)::int AS n FROM "${p.schema}".doc_counts WHERE tbl = 'ct_article' AND status IS NOT NULL GROUP BY 1 ORDER BY 1`, values: [],
    }));
    assert.deepEqual(ledger, [{ status: 'draft', n: 4 }, { status: 'published', n: 3 }]);
    const registered = await p.client(null).post('/api/auth/local/register', { username: 'ann', email: 'ann@example.com', password: 'a long password' });
    assert.equal(registered.statusCode, 200, registered.body);
    const users = await db.oneFirst(compiledQuery({ text: `SELECT count(*)::int FROM "${p.schema}".up_users`, values: [] }));
    assert.equal(users, 1);
  });

  it('projects created together take distinct spares, then build their schemas when none is left', async () => {
    await waitFor('spares', () => spares(db), (s) => s.length === 3);
    const session = await signup(t);
    const made = await Promise.all(Array.from({ length: 7 }, (_, i) => createProject(t, session, { name: `Together ${i}` })));
    assert.equal(new Set(made.map((p) => p.id)).size, 7);
    for (const project of made) {
      const applied = await db.anyFirst(compiledQuery({ text: `SELECT id FROM "t_${project.id}".schema_migrations ORDER BY id`, values: [] }));
      assert.deepEqual(applied, baseMigrations.map((m) => m.id));
      const listed = await t.inject({ method: 'GET', url: `/v1/projects/${project.slug}`, headers: { authorization: `Bearer ${session.token}` } });
      assert.equal(listed.statusCode, 200, listed.body);
    }
    await waitFor('refill', () => spares(db), (s) => s.length === 3);
  });

  it('a creation that rolls back leaves its spare ready under its own name', async () => {
    const ready = await waitFor('spares', () => spares(db), (s) => s.length === 3);
    const service = new SpareSchemas(singleCluster(t.platform.db.pool), { target: 3, logger: silentLogger() });
    const failed = t.platform.db.pool.transaction(async (tx) => {
      assert.equal(await service.claim(tx, 't_rollback_probe'), true);
      assert.equal((await spares(tx)).length, 2);
      throw new Error('creation failed');
    });
    await assert.rejects(failed, /creation failed/);
    assert.deepEqual(await spares(db), ready);
    const probe = await db.maybeOneFirst(compiledQuery({ text: "SELECT 1 FROM pg_namespace WHERE nspname = 't_rollback_probe'", values: [] }));
    assert.equal(probe, null);
    await service.close();
  });

  it('a claim whose list of spares is out of date (another claim took one and committed since) takes the next', async () => {
    const ready = await waitFor('spares', () => spares(db), (s) => s.length === 3);
    const service = new SpareSchemas(singleCluster(t.platform.db.pool), { target: 3, logger: silentLogger() });
    const outdated = t.platform.db.pool.transaction(async (stale) => {
      // Its snapshot is taken now, before the other claim commits: it still lists that spare
      // (as a creating transaction's claim does when the other commits between its list and its locks).
      await stale.query(compiledQuery({ text: 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ', values: [] }));
      assert.deepEqual(await spares(stale), ready);
      await t.platform.db.pool.transaction(async (other) => assert.equal(await service.claim(other, 't_probe_first'), true));
      assert.equal(await service.claim(stale, 't_probe_second'), true);
      // Its own snapshot still lists the first spare (renamed by the other) and no longer the second.
      assert.deepEqual(await spares(stale), [ready[0], ready[2]]);
      throw new Error('roll back');
    });
    await assert.rejects(outdated, /roll back/);
    // The first claim took the first spare; the outdated one, rolled back, left the second.
    assert.deepEqual(await spares(db), ready.slice(1));
    await db.query(compiledQuery({ text: 'DROP SCHEMA t_probe_first CASCADE', values: [] }));
    service.refill();
    await service.close();
  });

  it('drops spares of an older base version and leaves a newer release\'s alone', async () => {
    const old = `spare_v${VERSION - 1}_0123456789ab`;
    const newer = `spare_v${VERSION + 1}_0123456789ab`;
    await db.query(compiledQuery({ text: `CREATE SCHEMA "${old}"`, values: [] }));
    await db.query(compiledQuery({ text: `CREATE SCHEMA "${newer}"`, values: [] }));
    // A refill drops it (another instance's refill may hold the turn: try again).
    await waitFor('old spare dropped', async () => {
      const service = new SpareSchemas(singleCluster(t.platform.db.pool), { target: 3, logger: silentLogger() });
      service.refill();
      await service.close();
      return spares(db, VERSION - 1);
    }, (left) => left.length === 0);
    assert.deepEqual(await spares(db, VERSION + 1), [newer]);
    assert.equal((await spares(db)).length, 3);
    await db.query(compiledQuery({ text: `DROP SCHEMA "${newer}"`, values: [] }));
  });
});

describe('spare project schemas turned off', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { SPARE_SCHEMAS: '0' } });
  });
  after(async () => {
    await t?.close();
  });

  it('keeps none and builds each project\'s schema when it is created', async () => {
    const session = await signup(t);
    const project = await createProject(t, session, { name: 'Built here' });
    const applied = await t.platform.db.pool.anyFirst(compiledQuery({ text: `SELECT id FROM "t_${project.id}".schema_migrations ORDER BY id`, values: [] }));
    assert.deepEqual(applied, baseMigrations.map((m) => m.id));
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(await spares(t.platform.db.pool), []);
  });
});

describe('spare project schemas on more than one cluster', () => {
  let second: TestDatabase;
  let t: TestApp;
  before(async () => {
    second = await createTestDatabase('cms_test_second');
    t = await startTestApp({ env: { DATABASE_URLS: `second=${second.url}`, SPARE_SCHEMAS: '2' } });
  });
  after(async () => {
    await t?.close();
    await second?.drop();
  });

  it('each cluster keeps its own; a project placed on a cluster takes one of that cluster\'s', async () => {
    const main = t.platform.db.pool;
    const other = t.platform.db.poolOf('second');
    const mainBefore = await waitFor('main spares', () => spares(main), (s) => s.length === 2);
    const otherBefore = await waitFor('second spares', () => spares(other), (s) => s.length === 2);
    const session = await signup(t);
    const first = await createProject(t, session, { name: 'On main' });
    const next = await createProject(t, session, { name: 'On second' });
    const placed = await t.platform.db.pool.anyFirst(compiledQuery({
      text: 'SELECT cluster FROM platform.projects WHERE id = ANY($1::int[]) ORDER BY id', values: [[first.id, next.id]],
    }));
    assert.deepEqual(placed, ['main', 'second']);
    const exists = async (db: Db, schema: string) => Boolean(await db.maybeOneFirst(compiledQuery({ text: 'SELECT 1 FROM pg_namespace WHERE nspname = $1', values: [schema] })));
    assert.equal(await exists(main, `t_${first.id}`), true);
    assert.equal(await exists(other, `t_${next.id}`), true);
    assert.equal(await exists(other, `t_${first.id}`), false);
    // One spare of each cluster was renamed (the refill builds new ones under new names).
    const mainAfter = await waitFor('main refill', () => spares(main), (s) => s.length === 2);
    const otherAfter = await waitFor('second refill', () => spares(other), (s) => s.length === 2);
    assert.equal(mainBefore.filter((name) => !mainAfter.includes(name)).length, 1);
    assert.equal(otherBefore.filter((name) => !otherAfter.includes(name)).length, 1);
  });
});
