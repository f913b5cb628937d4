import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Model } from '@cms/schema';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/db.ts';
import { component, componentType, contentType, dynamicZone, media, model, relation, scalar } from './helpers/model.ts';
import {
  columnsOf, createProjectSchema, expectRefusal, indexesOf, insert, insertFile, migrate, one, query, snapshotSchema, tablesOf,
} from './helpers/project-schema.ts';

let db: TestDatabase;
before(async () => { db = await createTestDatabase('cms_ddl_relations'); });
after(async () => { await db.drop(); });

const PUBLISHED = '2024-01-01T00:00:00Z';

async function expectRefusedWithoutChange(schema: string, prev: Model, next: Model, pattern: RegExp): Promise<void> {
  const snapshot = await snapshotSchema(db.pool, schema);
  await assert.rejects(migrate(db.pool, schema, prev, next), expectRefusal(pattern));
  assert.deepEqual(await snapshotSchema(db.pool, schema), snapshot);
}

async function count(schema: string, table: string, where = 'true', values: unknown[] = []): Promise<number> {
  return (await one<{ n: number }>(db.pool, `SELECT count(*)::int AS n FROM "${schema}"."${table}" WHERE ${where}`, values)).n;
}

const articles = (kind: Parameters<typeof relation>[0], target = 'api::writer.writer', extra: Record<string, ReturnType<typeof scalar>> = {}) => model([
  contentType('article', { title: scalar('string'), writer: relation(kind, target), ...extra }),
  contentType('writer', { name: scalar('string') }),
  contentType('editor', { name: scalar('string') }),
]);

describe('relation changes', () => {
  it('relaxes manyToOne → manyToMany (drops unique(source_id)) keeping links', async () => {
    const schema = await createProjectSchema(db.pool);
    await migrate(db.pool, schema, null, articles('manyToOne'));
    const a = await insert(db.pool, schema, 'ct_article', { document_id: 'a1', published_at: PUBLISHED });
    await insert(db.pool, schema, 'lnk_ct_article__writer', { source_id: a, target_document_id: 'w1' });
    const plan = await migrate(db.pool, schema, articles('manyToOne'), articles('manyToMany'));
    assert.deepEqual(plan.steps.map((s) => s.description), ['change relation writer on api::article.article from manyToOne to manyToMany']);
    assert.equal((await indexesOf(db.pool, schema, 'lnk_ct_article__writer'))['lnk_ct_article__writer$source_key'], undefined);
    await insert(db.pool, schema, 'lnk_ct_article__writer', { source_id: a, target_document_id: 'w2' });
    assert.equal(await count(schema, 'lnk_ct_article__writer'), 2);
  });

  it('tightens manyToMany → manyToOne only when every source has at most one link', async () => {
    const schema = await createProjectSchema(db.pool);
    await migrate(db.pool, schema, null, articles('manyToMany'));
    const a = await insert(db.pool, schema, 'ct_article', { document_id: 'a1', published_at: PUBLISHED });
    await insert(db.pool, schema, 'lnk_ct_article__writer', { source_id: a, target_document_id: 'w1' });
    const second = await insert(db.pool, schema, 'lnk_ct_article__writer', { source_id: a, target_document_id: 'w2' });
    await expectRefusedWithoutChange(schema, articles('manyToMany'), articles('manyToOne'),
      /^Cannot change relation "writer" of api::article\.article from manyToMany to manyToOne: some entries link to more than one target$/);
    await query(db.pool, `DELETE FROM "${schema}".lnk_ct_article__writer WHERE id = $1`, [second]);
    await migrate(db.pool, schema, articles('manyToMany'), articles('manyToOne'));
    assert.match((await indexesOf(db.pool, schema, 'lnk_ct_article__writer'))['lnk_ct_article__writer$source_key']!, /UNIQUE/);
    assert.equal(await count(schema, 'lnk_ct_article__writer'), 1);
    // oneToMany ↔ manyToMany needs nothing
    await migrate(db.pool, schema, articles('manyToOne'), articles('oneToOne'));
    assert.ok((await indexesOf(db.pool, schema, 'lnk_ct_article__writer'))['lnk_ct_article__writer$source_key']);
  });

  it('changes the target only while no links exist', async () => {
    const schema = await createProjectSchema(db.pool);
    await migrate(db.pool, schema, null, articles('manyToOne'));
    const a = await insert(db.pool, schema, 'ct_article', { document_id: 'a1', title: 'keep', published_at: PUBLISHED });
    const l = await insert(db.pool, schema, 'lnk_ct_article__writer', { source_id: a, target_document_id: 'w1' });
    const retargeted = articles('manyToMany', 'api::editor.editor');
    await expectRefusedWithoutChange(schema, articles('manyToOne'), retargeted,
      /^Cannot change the target of relation "writer" of api::article\.article from api::writer\.writer to api::editor\.editor: links exist$/);
    await query(db.pool, `DELETE FROM "${schema}".lnk_ct_article__writer WHERE id = $1`, [l]);
    await migrate(db.pool, schema, articles('manyToOne'), retargeted);
    assert.equal((await indexesOf(db.pool, schema, 'lnk_ct_article__writer'))['lnk_ct_article__writer$source_key'], undefined);
    assert.equal((await one<{ title: string }>(db.pool, `SELECT title FROM "${schema}".ct_article`)).title, 'keep');
  });

  it('moves the owning side of a bidirectional relation only while no links exist', async () => {
    const ownedByArticle = model([
      contentType('article', { writers: relation('manyToMany', 'api::writer.writer', { inversedBy: 'articles' }) }),
      contentType('writer', { articles: relation('manyToMany', 'api::article.article', { mappedBy: 'writers' }) }),
    ]);
    const ownedByWriter = model([
      contentType('article', { writers: relation('manyToMany', 'api::writer.writer', { mappedBy: 'articles' }) }),
      contentType('writer', { articles: relation('manyToMany', 'api::article.article', { inversedBy: 'writers' }) }),
    ]);
    const schema = await createProjectSchema(db.pool);
    await migrate(db.pool, schema, null, ownedByArticle);
    const a = await insert(db.pool, schema, 'ct_article', { document_id: 'a1', published_at: PUBLISHED });
    const l = await insert(db.pool, schema, 'lnk_ct_article__writers', { source_id: a, target_document_id: 'w1' });
    await expectRefusedWithoutChange(schema, ownedByArticle, ownedByWriter,
      /^Cannot move the owning side of relation "writers" of api::article\.article to api::writer\.writer\.articles: links exist$/);
    await query(db.pool, `DELETE FROM "${schema}".lnk_ct_article__writers WHERE id = $1`, [l]);
    await migrate(db.pool, schema, ownedByArticle, ownedByWriter);
    const tables = await tablesOf(db.pool, schema);
    assert.ok(tables.includes('lnk_ct_writer__articles') && !tables.includes('lnk_ct_article__writers'));
  });

  it('makes media single only when no entry has several files', async () => {
    const v = (multiple: boolean) => model([contentType('album', { photos: media(multiple) })]);
    const schema = await createProjectSchema(db.pool);
    await migrate(db.pool, schema, null, v(true));
    const a = await insert(db.pool, schema, 'ct_album', { document_id: 'a1', published_at: PUBLISHED });
    await insert(db.pool, schema, 'lnk_ct_album__photos', { source_id: a, file_id: await insertFile(db.pool, schema) });
    const extra = await insert(db.pool, schema, 'lnk_ct_album__photos', { source_id: a, file_id: await insertFile(db.pool, schema) });
    await expectRefusedWithoutChange(schema, v(true), v(false), /^Cannot make media "photos" of api::album\.album single: some entries have several files$/);
    await query(db.pool, `DELETE FROM "${schema}".lnk_ct_album__photos WHERE id = $1`, [extra]);
    await migrate(db.pool, schema, v(true), v(false));
    assert.ok((await indexesOf(db.pool, schema, 'lnk_ct_album__photos'))['lnk_ct_album__photos$source_key']);
    await migrate(db.pool, schema, v(false), v(true));
    assert.equal((await indexesOf(db.pool, schema, 'lnk_ct_album__photos'))['lnk_ct_album__photos$source_key'], undefined);
    assert.equal(await count(schema, 'lnk_ct_album__photos'), 1);
  });
});

describe('component changes', () => {
  const quote = componentType('shared.quote', { text: scalar('string'), score: scalar('string') });
  const seo = componentType('shared.seo', { title: scalar('string') });
  const page = (attrs: Parameters<typeof contentType>[1], comps = [quote, seo]) => model([contentType('page', attrs)], comps);

  it('creates, changes and drops component tables; converts attributes inside components', async () => {
    const schema = await createProjectSchema(db.pool);
    await migrate(db.pool, schema, null, page({ quotes: component('shared.quote', true) }));
    const p = await insert(db.pool, schema, 'ct_page', { document_id: 'p1', published_at: PUBLISHED });
    await insert(db.pool, schema, 'cmp_shared__quote', { owner_id: p, owner_type: 'api::page.page', owner_field: 'quotes', text: 'q', score: '4' });

    const converted = componentType('shared.quote', { text: scalar('string'), score: scalar('integer'), extra: scalar('boolean') });
    const gallery = componentType('shared.gallery', { pics: media(true), caption: scalar('string') });
    const next = page({ quotes: component('shared.quote', true), gallery: component('shared.gallery') }, [converted, seo, gallery]);
    const plan = await migrate(db.pool, schema, page({ quotes: component('shared.quote', true) }), next);
    assert.deepEqual(plan.steps.map((s) => s.op), ['createComponent', 'changeScalarType', 'addAttribute', 'addAttribute']);
    const cols = await columnsOf(db.pool, schema, 'cmp_shared__quote');
    assert.equal(cols.score?.type, 'integer');
    assert.equal(cols.extra?.type, 'boolean');
    assert.equal((await one<{ score: number }>(db.pool, `SELECT score FROM "${schema}".cmp_shared__quote`)).score, 4);
    assert.ok((await tablesOf(db.pool, schema)).includes('lnk_cmp_shared__gallery__pics'));

    // a refused conversion inside a component
    await query(db.pool, `UPDATE "${schema}".cmp_shared__quote SET text = 'not a number'`);
    const textToInt = componentType('shared.quote', { text: scalar('integer'), score: scalar('integer'), extra: scalar('boolean') });
    await expectRefusedWithoutChange(schema, next, page({ quotes: component('shared.quote', true), gallery: component('shared.gallery') }, [textToInt, seo, gallery]),
      /^Cannot convert attribute "text" of shared\.quote from string to integer/);

    // dropping the component and its only usage
    await migrate(db.pool, schema, next, page({ quotes: component('shared.quote', true) }, [converted, seo]));
    assert.ok(!(await tablesOf(db.pool, schema)).some((t) => t.includes('gallery')));
  });

  it('points a component attribute at another component only while it has no rows', async () => {
    const schema = await createProjectSchema(db.pool);
    const v1 = page({ meta: component('shared.quote') });
    const v2 = page({ meta: component('shared.seo') });
    await migrate(db.pool, schema, null, v1);
    const p = await insert(db.pool, schema, 'ct_page', { document_id: 'p1', published_at: PUBLISHED });
    const row = await insert(db.pool, schema, 'cmp_shared__quote', { owner_id: p, owner_type: 'api::page.page', owner_field: 'meta', text: 'q' });
    await expectRefusedWithoutChange(schema, v1, v2,
      /^Cannot change the component of attribute "meta" of api::page\.page from shared\.quote to shared\.seo: entries exist$/);
    await query(db.pool, `DELETE FROM "${schema}".cmp_shared__quote WHERE id = $1`, [row]);
    await migrate(db.pool, schema, v1, v2);
  });

  it('makes a repeatable component single only when no owner has several items; converts to and from dynamic zones', async () => {
    const schema = await createProjectSchema(db.pool);
    const repeatable = page({ quotes: component('shared.quote', true) });
    const single = page({ quotes: component('shared.quote', false) });
    const zone = page({ quotes: dynamicZone(['shared.quote', 'shared.seo']) });
    await migrate(db.pool, schema, null, repeatable);
    const p = await insert(db.pool, schema, 'ct_page', { document_id: 'p1', published_at: PUBLISHED });
    await insert(db.pool, schema, 'cmp_shared__quote', { owner_id: p, owner_type: 'api::page.page', owner_field: 'quotes', ord: 0, text: 'a' });
    const second = await insert(db.pool, schema, 'cmp_shared__quote', { owner_id: p, owner_type: 'api::page.page', owner_field: 'quotes', ord: 1, text: 'b' });
    await expectRefusedWithoutChange(schema, repeatable, single,
      /^Cannot make component "quotes" of api::page\.page non-repeatable: some entries have several items$/);

    // repeatable component → dynamic zone keeps the rows where they are
    await migrate(db.pool, schema, repeatable, zone);
    assert.equal(await count(schema, 'cmp_shared__quote'), 2);
    await insert(db.pool, schema, 'cmp_shared__seo', { owner_id: p, owner_type: 'api::page.page', owner_field: 'quotes', ord: 2, title: 's' });
    await expectRefusedWithoutChange(schema, zone, repeatable, /^Cannot remove component shared\.seo from attribute "quotes" of api::page\.page: entries use it$/);
    await query(db.pool, `DELETE FROM "${schema}".cmp_shared__seo`);
    await migrate(db.pool, schema, zone, repeatable);
    await query(db.pool, `DELETE FROM "${schema}".cmp_shared__quote WHERE id = $1`, [second]);
    await migrate(db.pool, schema, repeatable, single);
    assert.equal(await count(schema, 'cmp_shared__quote'), 1);
  });
});

describe('dropping a content type', () => {
  it('drops its tables, its component rows (recursively) and links pointing at its documents', async () => {
    const inner = componentType('shared.inner', { note: scalar('string'), ref: relation('manyToOne', 'api::tag.tag') });
    const box = componentType('shared.box', { inner: component('shared.inner', true), pic: media(false) });
    const v1 = model([
      contentType('post', { box: component('shared.box'), tags: relation('manyToMany', 'api::tag.tag', { inversedBy: 'posts' }), blocks: dynamicZone(['shared.inner']) }),
      contentType('tag', { posts: relation('manyToMany', 'api::post.post', { mappedBy: 'tags' }), name: scalar('string') }),
      contentType('page', { box: component('shared.box'), featured: relation('oneToOne', 'api::tag.tag'), favourite: relation('manyToOne', 'api::post.post') }),
    ], [inner, box]);
    const schema = await createProjectSchema(db.pool);
    await migrate(db.pool, schema, null, v1);
    const post = await insert(db.pool, schema, 'ct_post', { document_id: 'post1', published_at: PUBLISHED });
    const page = await insert(db.pool, schema, 'ct_page', { document_id: 'page1', published_at: PUBLISHED });
    await insert(db.pool, schema, 'ct_tag', { document_id: 'tag1', name: 't', published_at: PUBLISHED });
    const postBox = await insert(db.pool, schema, 'cmp_shared__box', { owner_id: post, owner_type: 'api::post.post', owner_field: 'box' });
    const postInner = await insert(db.pool, schema, 'cmp_shared__inner', { owner_id: postBox, owner_type: 'shared.box', owner_field: 'inner', note: 'post' });
    await insert(db.pool, schema, 'lnk_cmp_shared__inner__ref', { source_id: postInner, target_document_id: 'tag1' });
    await insert(db.pool, schema, 'cmp_shared__inner', { owner_id: post, owner_type: 'api::post.post', owner_field: 'blocks', note: 'zone' });
    const pageBox = await insert(db.pool, schema, 'cmp_shared__box', { owner_id: page, owner_type: 'api::page.page', owner_field: 'box' });
    const pageInner = await insert(db.pool, schema, 'cmp_shared__inner', { owner_id: pageBox, owner_type: 'shared.box', owner_field: 'inner', note: 'page' });
    await insert(db.pool, schema, 'lnk_cmp_shared__inner__ref', { source_id: pageInner, target_document_id: 'tag1' });
    await insert(db.pool, schema, 'lnk_ct_page__featured', { source_id: page, target_document_id: 'tag1' });
    await insert(db.pool, schema, 'lnk_ct_page__favourite', { source_id: page, target_document_id: 'post1' });
    await insert(db.pool, schema, 'lnk_ct_post__tags', { source_id: post, target_document_id: 'tag1' });

    // drop post; page's relation to it is retargeted to tag (its links to posts are gone, so allowed)
    const v2 = model([
      contentType('tag', { name: scalar('string') }),
      contentType('page', { box: component('shared.box'), featured: relation('oneToOne', 'api::tag.tag'), favourite: relation('manyToOne', 'api::tag.tag') }),
    ], [inner, box]);
    const plan = await migrate(db.pool, schema, v1, v2);
    assert.ok(plan.steps.some((s) => s.op === 'dropContentType' && s.type === 'api::post.post'));
    const tables = await tablesOf(db.pool, schema);
    assert.ok(!tables.some((t) => t.includes('post')), tables.join());
    assert.deepEqual((await query<{ note: string }>(db.pool, `SELECT note FROM "${schema}".cmp_shared__inner ORDER BY id`)).map((r) => r.note), ['page']);
    assert.equal(await count(schema, 'cmp_shared__box'), 1);
    assert.equal(await count(schema, 'lnk_cmp_shared__inner__ref'), 1);
    assert.equal(await count(schema, 'lnk_ct_page__favourite'), 0);
    assert.equal(await count(schema, 'lnk_ct_page__featured'), 1);

    // dropping tag removes the links to its documents from the surviving component's link table
    const v3 = model([contentType('page', { box: component('shared.box') })], [
      componentType('shared.inner', { note: scalar('string') }), box,
    ]);
    await migrate(db.pool, schema, v2, v3);
    assert.ok(!(await tablesOf(db.pool, schema)).some((t) => t.includes('tag') || t.includes('inner__ref')));
    assert.equal(await count(schema, 'cmp_shared__inner'), 1);
  });
});
