// Content history retention and storage (management-api.md § Content history, § Usage;
// docs/history.md § Retention and storage): the maintenance round (its clock injected) deletes
// each project's versions past its plan's retention — free 7 days, pro 90, a lapsed pro's grace
// over: free — and the attribute sets no version uses any more, once a day per project, in
// batches; `/usage` reports the history's size.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { pruneHistory } from '@cms/documents';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { collectionType as ct } from '../fixtures/index.ts';

const DAY = 86_400_000;

const model = (extra: Record<string, unknown> = {}) => ({
  contentTypes: { 'api::article.article': ct('article', 'articles', { title: { type: 'string' }, body: { type: 'text' }, ...extra }) },
  components: {},
});

describe('content history retention', () => {
  let t: TestApp;
  let free: ContentProject;
  let pro: ContentProject;
  // Every round runs a day after the projects were created: each one's minute of the day has come.
  let clock = new Date(Date.now() + DAY + 60_000);

  const sql = async <T = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> =>
    (await t.platform.db.pool.query(compiledQuery({ text, values }))).rows as T[];
  const ago = (days: number) => new Date(clock.getTime() - days * DAY).toISOString();
  /** The project's versions as `title@days-before-the-clock`, oldest first. */
  const versions = async (p: ContentProject) => (await sql<{ title: string; days: number }>(
    `SELECT data->>'title' AS title, round(extract(epoch FROM ($1::timestamptz - created_at)) / 86400)::int AS days
     FROM "${p.schema}".history_versions ORDER BY created_at, id`, [clock.toISOString()])).map((v) => `${v.title}@${v.days}`);
  const schemas = async (p: ContentProject) => (await sql<{ hash: string }>(`SELECT hash FROM "${p.schema}".history_schemas ORDER BY hash`)).map((r) => r.hash);
  /** Write a document (one version) and date its versions `days` before the clock. */
  async function written(p: ContentProject, title: string, days: number): Promise<void> {
    const res = await p.api.post('/api/articles?status=draft', { data: { title } });
    assert.equal(res.statusCode, 201, res.body);
    await sql(`UPDATE "${p.schema}".history_versions SET created_at = $1 WHERE related_document_id = $2`, [ago(days), res.json().data.documentId]);
  }

  before(async () => {
    t = await startTestApp();
    free = await setupContentProject(t, model());
    pro = await setupContentProject(t, model());
    await sql(`UPDATE platform.projects SET plan = 'pro' WHERE id = $1`, [pro.id]);
  });
  after(() => t?.close());

  it('free: the round deletes versions older than 7 days, keeps the newer ones and drops attribute sets no version uses', async () => {
    await written(free, 'old', 30);
    await written(free, 'week+1', 8);
    const before = await schemas(free);
    assert.equal(before.length, 1);
    // A model change: the next versions keep the new attribute set; the old one is used only by old versions.
    assert.equal((await free.admin.put(`/v1/projects/${free.slug}/schema`, model({ summary: { type: 'string' } }))).statusCode, 200);
    await written(free, 'week-1', 5);
    await written(free, 'today', 0);
    assert.equal((await schemas(free)).length, 2);

    const round = await t.platform.maintenance.round(clock, ['history']);
    assert.equal(round.ran, true);
    assert.ok(round.historyPruned.includes(free.slug), JSON.stringify(round));
    assert.ok(!round.historyPruned.includes(pro.slug));
    assert.deepEqual(await versions(free), ['week-1@5', 'today@0']);
    const after = await schemas(free);
    assert.equal(after.length, 1);
    assert.ok(!after.includes(before[0]!), 'the first model\'s attribute set is gone');
  });

  it('once a day per project: not again at the same clock, due again a day later', async () => {
    await written(free, 'week+2', 9);
    assert.deepEqual((await t.platform.maintenance.round(clock, ['history'])).historyPruned, []);
    assert.ok((await versions(free)).includes('week+2@9'));
    clock = new Date(clock.getTime() + DAY);
    const round = await t.platform.maintenance.round(clock, ['history']);
    assert.ok(round.historyPruned.includes(free.slug));
    assert.deepEqual(await versions(free), ['week-1@6', 'today@1']);
    const [row] = await sql<{ at: Date }>('SELECT history_pruned_at AS at FROM platform.projects WHERE id = $1', [free.id]);
    assert.equal(new Date(row!.at).getTime(), clock.getTime());
  });

  it('pro keeps 90 days; past its grace period the project is on free and keeps 7', async () => {
    clock = new Date(clock.getTime() + DAY); // the last round pruned it already (nothing to delete then)
    await written(pro, 'season+1', 91);
    await written(pro, 'season-1', 89);
    await written(pro, 'month', 30);
    await written(pro, 'today', 0);
    const round = await t.platform.maintenance.round(clock, ['history']);
    assert.ok(round.historyPruned.includes(pro.slug));
    assert.deepEqual(await versions(pro), ['season-1@89', 'month@30', 'today@0']);
    // A payment failed and the grace period is over: free's retention applies at the next prune.
    await sql(`UPDATE platform.projects SET plan_grace_until = $2 WHERE id = $1`, [pro.id, ago(1)]);
    clock = new Date(clock.getTime() + DAY);
    await t.platform.maintenance.round(clock, ['history']);
    assert.deepEqual(await versions(pro), ['today@1']);
  });

  it('deletes in bounded batches, oldest first; stopped at its deadline it says it is not done', async () => {
    // 25 old copies of the latest version (an import's worth of history, made by SQL).
    await sql(`INSERT INTO "${free.schema}".history_versions (content_type, related_document_id, locale, status, data, schema_hash, origin, created_by, created_at)
      SELECT content_type, related_document_id, locale, status, data, schema_hash, origin, created_by, $1::timestamptz - make_interval(secs => i)
      FROM (SELECT * FROM "${free.schema}".history_versions ORDER BY id DESC LIMIT 1) v, generate_series(1, 25) i`, [ago(20)]);
    const cutoff = new Date(ago(7));
    const stopped = await pruneHistory(t.platform.db.pool, free.schema, cutoff, { batchSize: 10, deadline: 0 });
    assert.deepEqual(stopped, { versions: 10, schemas: 0, done: false });
    const rest = await pruneHistory(t.platform.db.pool, free.schema, cutoff, { batchSize: 10 });
    assert.deepEqual(rest, { versions: 15, schemas: 0, done: true });
    assert.equal((await sql(`SELECT 1 FROM "${free.schema}".history_versions WHERE created_at < $1`, [cutoff.toISOString()])).length, 0);
  });

  it('/usage reports the history\'s size on disk (historyBytes), growing with its versions', async () => {
    const usage = async () => {
      const res = await free.admin.get(`/v1/projects/${free.slug}/usage`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().historyBytes as number;
    };
    const size = async () => Number((await sql<{ n: string }>(
      `SELECT pg_total_relation_size('"${free.schema}".history_versions') + pg_total_relation_size('"${free.schema}".history_schemas') AS n`))[0]!.n);
    const first = await usage();
    assert.equal(first, await size());
    for (let i = 0; i < 40; i++) {
      const res = await free.api.post('/api/articles?status=draft', { data: { title: `big ${i}`, body: `${i} `.repeat(2_000) } });
      assert.equal(res.statusCode, 201, res.body);
    }
    const grown = await usage();
    assert.ok(grown > first, `${grown} > ${first}`);
    assert.equal(grown, await size());
  });
});
