// The indexes a model implies (link tables both ways with their order, versions, unique
// attributes, component owners) and the ones it asks for (`index: true`), built and dropped
// CONCURRENTLY after the migration commits, without blocking writes; an INVALID index left by a
// failed build is rebuilt; schemas created before get the link indexes from base_0005.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { upgradeProjectSchemas } from '@cms/tenancy';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';

const model = (codeOptions: Record<string, unknown> = {}) => ({
  contentTypes: {
    'api::article.article': {
      kind: 'collectionType', info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true },
      attributes: {
        title: { type: 'string', index: true },
        code: { type: 'string', ...codeOptions },
        slug: { type: 'uid', unique: true },
        views: { type: 'integer' },
        author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'articles' },
        tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'articles' },
        seo: { type: 'component', component: 'shared.seo', repeatable: false },
      },
    },
    'api::author.author': {
      kind: 'collectionType', info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' },
      attributes: { name: { type: 'string' }, articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'author' } },
    },
    'api::tag.tag': {
      kind: 'collectionType', info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
      attributes: { label: { type: 'string' }, articles: { type: 'relation', relation: 'manyToMany', target: 'api::article.article', mappedBy: 'tags' } },
    },
  },
  components: {
    'shared.seo': { collectionName: 'components_shared_seos', info: { displayName: 'Seo' }, attributes: { metaTitle: { type: 'string', index: true } } },
  },
});

let t: TestApp;
let p: ContentProject;
let admin: pg.Client;

async function indexes(schema: string): Promise<Map<string, { def: string; valid: boolean }>> {
  const r = await admin.query(
    `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def, i.indisvalid AS valid
     FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1`, [schema]);
  return new Map(r.rows.map((row) => [row.name as string, { def: (row.def as string).replace(`${schema}.`, ''), valid: row.valid as boolean }]));
}

const push = (body: unknown) => p.admin.put(`/v1/projects/${p.slug}/schema`, body);

before(async () => {
  t = await startTestApp();
  p = await setupContentProject(t, model());
  admin = new pg.Client({ connectionString: t.db.url });
  await admin.connect();
});

after(async () => {
  await admin.end();
  await t.close();
});

describe('indexes a model implies', () => {
  it('are all in pg_indexes after a push: versions, published list, unique, index: true, component owner, links both ways in order', async () => {
    const ix = await indexes(p.schema);
    const def = (name: string) => ix.get(name)?.def;
    assert.equal(def('ct_article$version_key'), 'CREATE UNIQUE INDEX "ct_article$version_key" ON ct_article USING btree (document_id, locale, ((published_at IS NULL))) NULLS NOT DISTINCT');
    assert.equal(def('ct_article$published_idx'), 'CREATE INDEX "ct_article$published_idx" ON ct_article USING btree (locale, id) WHERE (published_at IS NOT NULL)');
    assert.equal(def('ct_article$unique$slug'), 'CREATE UNIQUE INDEX "ct_article$unique$slug" ON ct_article USING btree (slug, locale) NULLS NOT DISTINCT WHERE ((published_at IS NOT NULL) AND (slug IS NOT NULL))');
    assert.equal(def('ct_article$index$title'), 'CREATE INDEX "ct_article$index$title" ON ct_article USING btree (title)');
    assert.equal(def('ct_article$index$code'), undefined);
    assert.equal(def('cmp_shared__seo$owner_idx'), 'CREATE INDEX "cmp_shared__seo$owner_idx" ON cmp_shared__seo USING btree (owner_type, owner_id, owner_field, ord)');
    assert.equal(def('cmp_shared__seo$index$metaTitle'), 'CREATE INDEX "cmp_shared__seo$index$metaTitle" ON cmp_shared__seo USING btree ("metaTitle")');
    // manyToMany: the row's links in order, and the target's (inverse side) in order.
    assert.equal(def('lnk_ct_article__tags$order_idx'), 'CREATE INDEX "lnk_ct_article__tags$order_idx" ON lnk_ct_article__tags USING btree (source_id, ord)');
    assert.equal(def('lnk_ct_article__tags$inv_order_idx'), 'CREATE INDEX "lnk_ct_article__tags$inv_order_idx" ON lnk_ct_article__tags USING btree (target_document_id, inv_ord)');
    // manyToOne: one link per row (unique source), the author's articles in order.
    assert.equal(def('lnk_ct_article__author$source_key'), 'CREATE UNIQUE INDEX "lnk_ct_article__author$source_key" ON lnk_ct_article__author USING btree (source_id)');
    assert.equal(def('lnk_ct_article__author$order_idx'), undefined);
    assert.equal(def('lnk_ct_article__author$inv_order_idx'), 'CREATE INDEX "lnk_ct_article__author$inv_order_idx" ON lnk_ct_article__author USING btree (target_document_id, inv_ord)');
    assert.ok(![...ix.keys()].some((n) => n.endsWith('$target_idx')), 'the index on target_document_id alone is replaced');
    assert.ok([...ix.values()].every((i) => i.valid));
  });

  it('keeps index: true in the model the management API shows, and refuses it where it cannot apply', async () => {
    const res = await p.admin.get(`/v1/projects/${p.slug}/schema`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().contentTypes['api::article.article'].attributes.title.index, true);
    assert.equal(res.json().components['shared.seo'].attributes.metaTitle.index, true);
    const wrongType = await push(model({ index: 'yes' }));
    assert.equal(wrongType.statusCode, 400);
    assert.deepEqual(wrongType.json().error.details.errors.map((e: any) => [e.path, e.message]),
      [[['contentTypes', 'api::article.article', 'attributes', 'code', 'index'], 'index must be a boolean, got a string']]);
    const onText = await push(model({ type: 'text', index: true }));
    assert.equal(onText.statusCode, 400);
    assert.deepEqual(onText.json().error.details.errors.map((e: any) => e.message), ['index is not available on text attributes (values can be too long for an index)']);
    assert.equal((await indexes(p.schema)).has('ct_article$index$code'), false);
  });

  it('index: true added builds the index concurrently, removed drops it; the plan lists both', async () => {
    const plan = await p.admin.post(`/v1/projects/${p.slug}/schema/plan`, model({ index: true }));
    assert.equal(plan.statusCode, 200);
    assert.deepEqual(plan.json().changes, [{
      op: 'addIndex', type: 'api::article.article', attribute: 'code', description: 'index code of api::article.article (built concurrently, writes go on)', destructive: false,
    }]);
    assert.equal((await push(model({ index: true }))).statusCode, 200);
    assert.deepEqual((await indexes(p.schema)).get('ct_article$index$code'), { def: 'CREATE INDEX "ct_article$index$code" ON ct_article USING btree (code)', valid: true });
    const removed = await push(model());
    assert.equal(removed.statusCode, 200);
    assert.equal((await indexes(p.schema)).has('ct_article$index$code'), false);
  });

  it('a renamed indexed attribute keeps its index under the new name', async () => {
    const renamed = model({ index: true });
    const attrs = renamed.contentTypes['api::article.article'].attributes as Record<string, unknown>;
    assert.equal((await push(renamed)).statusCode, 200);
    const { code, ...rest } = attrs;
    renamed.contentTypes['api::article.article'].attributes = { ...rest, ref: code } as typeof attrs as any;
    const res = await p.admin.put(`/v1/projects/${p.slug}/schema`, { ...renamed, renames: { 'api::article.article': { code: 'ref' } } });
    assert.equal(res.statusCode, 200, res.body);
    const ix = await indexes(p.schema);
    assert.equal(ix.has('ct_article$index$code'), false);
    assert.deepEqual(ix.get('ct_article$index$ref'), { def: 'CREATE INDEX "ct_article$index$ref" ON ct_article USING btree (ref)', valid: true });
    assert.equal((await push(model())).statusCode, 200);
    assert.equal((await indexes(p.schema)).has('ct_article$index$ref'), false);
  });
});

describe('building on a table with rows', () => {
  before(async () => {
    await admin.query(`INSERT INTO ${p.schema}.ct_article (document_id, published_at, title, code, views)
      SELECT 'seed' || lpad(i::text, 20, '0'), now(), 'Title ' || i, 'code-' || i, i FROM generate_series(1, 200000) i`);
    await admin.query(`ANALYZE ${p.schema}.ct_article`);
    await p.setPublic({ 'api::article.article': ['find', 'findOne', 'create'] });
  });

  it('does not block writes: a create completes while the concurrent build waits', async () => {
    // A transaction holding an older snapshot keeps CREATE INDEX CONCURRENTLY in its last phase
    // (waiting for old snapshots) for as long as it stays open.
    const holder = new pg.Client({ connectionString: t.db.url });
    await holder.connect();
    await holder.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    await holder.query('SELECT 1');
    const pushing = push(model({ index: true }));
    let phase = '';
    for (let i = 0; i < 200 && !phase.startsWith('waiting for old snapshots'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      const r = await admin.query(`SELECT phase FROM pg_stat_progress_create_index WHERE relid = $1::regclass`, [`${p.schema}.ct_article`]);
      phase = (r.rows[0]?.phase as string | undefined) ?? '';
    }
    assert.equal(phase, 'waiting for old snapshots', 'the build is under way');
    const started = Date.now();
    const created = await p.api.post('/api/articles', { data: { title: 'Written during the build', code: 'during-build' } });
    assert.equal(created.statusCode, 201, created.body);
    const inserted = await admin.query(`INSERT INTO ${p.schema}.ct_article (document_id, title, code) VALUES ('during00000000000000000x', 'x', 'during-sql') RETURNING id`);
    assert.equal(inserted.rowCount, 1);
    assert.ok(Date.now() - started < 5000, `writes took ${Date.now() - started} ms`);
    assert.equal((await indexes(p.schema)).get('ct_article$index$code')?.valid, false, 'still building');
    await holder.query('COMMIT');
    await holder.end();
    assert.equal((await pushing).statusCode, 200);
    assert.equal((await indexes(p.schema)).get('ct_article$index$code')?.valid, true);
  });

  it('a filtered list on the indexed attribute uses the index', async () => {
    await admin.query(`ANALYZE ${p.schema}.ct_article`);
    const plan = await admin.query(`EXPLAIN SELECT id FROM ${p.schema}.ct_article WHERE code = 'code-777' AND published_at IS NOT NULL ORDER BY id LIMIT 25`);
    assert.match(plan.rows.map((r) => r['QUERY PLAN']).join('\n'), /Index Scan using "ct_article\$index\$code"|Bitmap Index Scan on "ct_article\$index\$code"/);
    // The gateway's own statement: the index's scan count grows with one request.
    const scans = async () => Number((await admin.query(
      `SELECT idx_scan FROM pg_stat_user_indexes WHERE schemaname = $1 AND indexrelname = 'ct_article$index$code'`, [p.schema])).rows[0].idx_scan);
    const before = await scans();
    const res = await p.client(null).get('/api/articles?filters[code][$eq]=code-777&fields[0]=code');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().data.map((d: any) => d.code), ['code-777']);
    // A backend reports its counts when idle, at most once a second; one that reported less than a
    // second ago, or found the shared counters busy, waits for its 10 s idle timeout (PG 15 pgstat).
    let now = before;
    for (let i = 0; i < 150 && now === before; i++) {
      await new Promise((r) => setTimeout(r, 100));
      now = await scans();
    }
    assert.ok(now > before, 'the list read used the index');
  });

  it('an INVALID index left by a failed concurrent build is rebuilt by the next push', async () => {
    await admin.query(`DROP INDEX ${p.schema}."ct_article$index$code"`);
    await admin.query(`UPDATE ${p.schema}.ct_article SET code = 'dup' WHERE id IN (SELECT id FROM ${p.schema}.ct_article ORDER BY id LIMIT 2)`);
    // A unique build over duplicates fails and leaves its index behind, INVALID, under our name.
    await assert.rejects(admin.query(`CREATE UNIQUE INDEX CONCURRENTLY "ct_article$index$code" ON ${p.schema}.ct_article (code)`), /could not create unique index/);
    assert.equal((await indexes(p.schema)).get('ct_article$index$code')?.valid, false);
    const res = await push(model({ index: true })); // the same model: nothing to migrate, indexes repaired
    assert.equal(res.statusCode, 200);
    assert.deepEqual((await indexes(p.schema)).get('ct_article$index$code'), { def: 'CREATE INDEX "ct_article$index$code" ON ct_article USING btree (code)', valid: true });
  });
});

describe('schemas created before the link order indexes', () => {
  it('get them from base_0005 on upgrade, and lose the index on target_document_id alone', async () => {
    const s = p.schema;
    await admin.query(`DROP INDEX ${s}."lnk_ct_article__tags$order_idx", ${s}."lnk_ct_article__tags$inv_order_idx", ${s}."lnk_ct_article__author$inv_order_idx"`);
    await admin.query(`CREATE INDEX "lnk_ct_article__tags$target_idx" ON ${s}.lnk_ct_article__tags (target_document_id)`);
    await admin.query(`CREATE INDEX "lnk_ct_article__author$target_idx" ON ${s}.lnk_ct_article__author (target_document_id)`);
    await admin.query(`DELETE FROM ${s}.schema_migrations WHERE id = 'base_0005_link_order_indexes'`);
    await admin.query(`UPDATE platform.projects SET base_version = 4 WHERE id = $1`, [p.id]);
    assert.ok(await upgradeProjectSchemas(t.platform.db.pool) >= 1);
    const ix = await indexes(s);
    assert.equal(ix.get('lnk_ct_article__tags$order_idx')?.def, 'CREATE INDEX "lnk_ct_article__tags$order_idx" ON lnk_ct_article__tags USING btree (source_id, ord)');
    assert.equal(ix.get('lnk_ct_article__tags$inv_order_idx')?.def, 'CREATE INDEX "lnk_ct_article__tags$inv_order_idx" ON lnk_ct_article__tags USING btree (target_document_id, inv_ord)');
    assert.equal(ix.get('lnk_ct_article__author$inv_order_idx')?.def, 'CREATE INDEX "lnk_ct_article__author$inv_order_idx" ON lnk_ct_article__author USING btree (target_document_id, inv_ord)');
    assert.equal(ix.has('lnk_ct_article__author$order_idx'), false, 'a to-one side has its unique source index');
    assert.ok(![...ix.keys()].some((n) => n.endsWith('$target_idx')));
  });
});
