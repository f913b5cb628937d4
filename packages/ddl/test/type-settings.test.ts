import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Model } from '@cms/schema';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/db.ts';
import { copyVersionRows, deleteVersionRows, physicalModel } from '@cms/tables';
import { component, componentType, contentType, dynamicZone, media, model, relation, scalar, type TypeOptions } from './helpers/model.ts';
import {
  createProjectSchema, expectRefusal, insert, insertFile, migrate, one, query, snapshotSchema,
} from './helpers/project-schema.ts';

let db: TestDatabase;
before(async () => { db = await createTestDatabase('cms_ddl_settings'); });
after(async () => { await db.drop(); });

const PUBLISHED = '2024-01-01T00:00:00.000Z';

async function expectRefusedWithoutChange(schema: string, prev: Model, next: Model, pattern: RegExp): Promise<void> {
  const snapshot = await snapshotSchema(db.pool, schema);
  await assert.rejects(migrate(db.pool, schema, prev, next), expectRefusal(pattern));
  assert.deepEqual(await snapshotSchema(db.pool, schema), snapshot);
}

const inner = componentType('shared.inner', { note: scalar('string') });
const box = componentType('shared.box', { label: scalar('string'), inner: component('shared.inner', true), pic: media(false), ref: relation('manyToOne', 'api::tag.tag') });
const blog = (opts: TypeOptions, tagOpts: TypeOptions = {}) => model([
  contentType('post', {
    title: scalar('string', { unique: true }),
    box: component('shared.box'),
    zone: dynamicZone(['shared.inner']),
    tags: relation('manyToMany', 'api::tag.tag'),
    cover: media(false),
  }, opts),
  contentType('tag', { name: scalar('string') }, tagOpts),
], [inner, box]);

interface Seeded { post: number; file: number }

async function seedPost(schema: string, documentId: string, extra: Record<string, unknown> = {}): Promise<Seeded> {
  const post = await insert(db.pool, schema, 'ct_post', { document_id: documentId, title: documentId, published_at: PUBLISHED, created_at: '2023-05-06T07:08:09.123Z', ...extra });
  const boxId = await insert(db.pool, schema, 'cmp_shared__box', { owner_id: post, owner_type: 'api::post.post', owner_field: 'box', label: `box-${documentId}` });
  await insert(db.pool, schema, 'cmp_shared__inner', { owner_id: boxId, owner_type: 'shared.box', owner_field: 'inner', ord: 0, note: `n0-${documentId}` });
  await insert(db.pool, schema, 'cmp_shared__inner', { owner_id: boxId, owner_type: 'shared.box', owner_field: 'inner', ord: 1, note: `n1-${documentId}` });
  await insert(db.pool, schema, 'cmp_shared__inner', { owner_id: post, owner_type: 'api::post.post', owner_field: 'zone', ord: 0, note: `z-${documentId}` });
  const file = await insertFile(db.pool, schema);
  await insert(db.pool, schema, 'lnk_cmp_shared__box__pic', { source_id: boxId, file_id: file });
  await insert(db.pool, schema, 'lnk_cmp_shared__box__ref', { source_id: boxId, target_document_id: 'tag1' });
  await insert(db.pool, schema, 'lnk_ct_post__tags', { source_id: post, target_document_id: 'tag1', ord: 0 });
  await insert(db.pool, schema, 'lnk_ct_post__tags', { source_id: post, target_document_id: 'tag2', ord: 1 });
  await insert(db.pool, schema, 'lnk_ct_post__cover', { source_id: post, file_id: file });
  return { post, file };
}

/** Everything reachable from one post row, ids stripped, for comparing a copy with its original. */
async function deepRow(schema: string, id: number): Promise<unknown> {
  const s = `"${schema}"`;
  const row = await one(db.pool, `SELECT document_id, locale, title, created_at::text AS created_at FROM ${s}.ct_post WHERE id = $1`, [id]);
  const boxes = await query<{ id: string; label: string }>(db.pool, `SELECT id::text, label FROM ${s}.cmp_shared__box WHERE owner_type = 'api::post.post' AND owner_id = $1`, [id]);
  const boxInfo = [];
  for (const b of boxes) {
    boxInfo.push({
      label: b.label,
      inner: (await query<{ note: string; ord: number }>(db.pool, `SELECT note, ord FROM ${s}.cmp_shared__inner WHERE owner_type = 'shared.box' AND owner_id = $1 ORDER BY ord`, [b.id])),
      pic: (await query(db.pool, `SELECT file_id::text FROM ${s}.lnk_cmp_shared__box__pic WHERE source_id = $1`, [b.id])),
      ref: (await query(db.pool, `SELECT target_document_id, target_locale FROM ${s}.lnk_cmp_shared__box__ref WHERE source_id = $1`, [b.id])),
    });
  }
  return {
    row,
    boxes: boxInfo,
    zone: await query(db.pool, `SELECT note FROM ${s}.cmp_shared__inner WHERE owner_type = 'api::post.post' AND owner_id = $1 AND owner_field = 'zone'`, [id]),
    tags: await query(db.pool, `SELECT target_document_id, ord FROM ${s}.lnk_ct_post__tags WHERE source_id = $1 ORDER BY ord`, [id]),
    cover: await query(db.pool, `SELECT file_id::text FROM ${s}.lnk_ct_post__cover WHERE source_id = $1`, [id]),
  };
}

async function rowsOf(schema: string): Promise<Array<{ id: number; document_id: string; locale: string | null; draft: boolean }>> {
  return (await query<{ id: string; document_id: string; locale: string | null; draft: boolean }>(db.pool,
    `SELECT id::text, document_id, locale, published_at IS NULL AS draft FROM "${schema}".ct_post ORDER BY id`)).map((r) => ({ ...r, id: Number(r.id) }));
}

describe('draft & publish toggles', () => {
  it('enabling D&P gives every row a draft copy with deep-copied components and links', async () => {
    const schema = await createProjectSchema(db.pool);
    await migrate(db.pool, schema, null, blog({ draftAndPublish: false }));
    const a = await seedPost(schema, 'docA');
    const b = await seedPost(schema, 'docB');
    const before = { a: await deepRow(schema, a.post), b: await deepRow(schema, b.post) };

    const plan = await migrate(db.pool, schema, blog({ draftAndPublish: false }), blog({ draftAndPublish: true }));
    assert.deepEqual(plan.steps.map((s) => s.description), ['enable draft & publish on api::post.post']);
    const rows = await rowsOf(schema);
    assert.equal(rows.length, 4);
    for (const [doc, seeded] of [['docA', a], ['docB', b]] as const) {
      const versions = rows.filter((r) => r.document_id === doc);
      assert.deepEqual(versions.map((r) => r.draft), [false, true]);
      assert.equal(versions[0]!.id, seeded.post);
      const draftId = versions[1]!.id;
      assert.deepEqual(await deepRow(schema, draftId), before[doc === 'docA' ? 'a' : 'b']);
      assert.deepEqual(await deepRow(schema, seeded.post), before[doc === 'docA' ? 'a' : 'b']);
    }
    // the copies are new rows: 2 boxes → 4, 6 inner rows → 12
    assert.equal((await one<{ n: number }>(db.pool, `SELECT count(*)::int AS n FROM "${schema}".cmp_shared__box`)).n, 4);
    assert.equal((await one<{ n: number }>(db.pool, `SELECT count(*)::int AS n FROM "${schema}".cmp_shared__inner`)).n, 12);
  });

  it('disabling D&P keeps published versions, drops their drafts, and publishes draft-only documents', async () => {
    const schema = await createProjectSchema(db.pool);
    await migrate(db.pool, schema, null, blog({ draftAndPublish: true }));
    const published = await seedPost(schema, 'pub');
    const draftOfPublished = await seedPost(schema, 'pub', { published_at: null, title: 'pub draft' });
    const draftOnly = await seedPost(schema, 'draft', { published_at: null });
    const keep = await deepRow(schema, published.post);
    const keepDraftOnly = await deepRow(schema, draftOnly.post);

    await migrate(db.pool, schema, blog({ draftAndPublish: true }), blog({ draftAndPublish: false }));
    const rows = await rowsOf(schema);
    assert.deepEqual(rows.map((r) => [r.id, r.document_id, r.draft]), [[published.post, 'pub', false], [draftOnly.post, 'draft', false]]);
    assert.deepEqual(await deepRow(schema, published.post), keep);
    assert.deepEqual(await deepRow(schema, draftOnly.post), keepDraftOnly);
    // the dropped draft's component rows and links are gone
    const s = `"${schema}"`;
    assert.equal((await one<{ n: number }>(db.pool, `SELECT count(*)::int AS n FROM ${s}.cmp_shared__box WHERE owner_id = $1`, [draftOfPublished.post])).n, 0);
    assert.equal((await one<{ n: number }>(db.pool, `SELECT count(*)::int AS n FROM ${s}.cmp_shared__box`)).n, 2);
    assert.equal((await one<{ n: number }>(db.pool, `SELECT count(*)::int AS n FROM ${s}.cmp_shared__inner`)).n, 6);
    assert.equal((await one<{ n: number }>(db.pool, `SELECT count(*)::int AS n FROM ${s}.lnk_ct_post__tags`)).n, 4);
  });

  it('refuses to disable D&P when publishing draft-only documents would duplicate a unique value', async () => {
    const schema = await createProjectSchema(db.pool);
    await migrate(db.pool, schema, null, blog({ draftAndPublish: true }));
    await insert(db.pool, schema, 'ct_post', { document_id: 'a', title: 'same', published_at: PUBLISHED });
    await insert(db.pool, schema, 'ct_post', { document_id: 'b', title: 'same' });
    await expectRefusedWithoutChange(schema, blog({ draftAndPublish: true }), blog({ draftAndPublish: false }),
      /^Cannot disable draft & publish on api::post\.post: publishing its draft-only entries would duplicate/);
  });

  it('copyVersionRows publishes a draft into a new row; deleteVersionRows removes a version deeply', async () => {
    const schema = await createProjectSchema(db.pool);
    const m = blog({ draftAndPublish: true });
    await migrate(db.pool, schema, null, m);
    const draft = await seedPost(schema, 'doc', { published_at: null });
    const physical = physicalModel(m);
    const pairs = await db.pool.transaction((tx) => copyVersionRows(tx, schema, physical, 'api::post.post', { ids: [draft.post], publishedAt: 'now' }));
    assert.equal(pairs.length, 1);
    assert.equal(pairs[0]!.oldId, draft.post);
    const newId = pairs[0]!.newId;
    assert.notEqual(newId, draft.post);
    assert.deepEqual(await deepRow(schema, newId), await deepRow(schema, draft.post));
    assert.deepEqual((await rowsOf(schema)).map((r) => r.draft), [true, false]);
    // nothing to copy → no pairs
    assert.deepEqual(await db.pool.transaction((tx) => copyVersionRows(tx, schema, physical, 'api::post.post', { ids: [], publishedAt: null })), []);

    const deleted = await db.pool.transaction((tx) => deleteVersionRows(tx, schema, physical, 'api::post.post', [newId]));
    assert.equal(deleted, 1);
    const s = `"${schema}"`;
    assert.equal((await one<{ n: number }>(db.pool, `SELECT count(*)::int AS n FROM ${s}.cmp_shared__box`)).n, 1);
    assert.equal((await one<{ n: number }>(db.pool, `SELECT count(*)::int AS n FROM ${s}.cmp_shared__inner`)).n, 3);
    assert.equal((await one<{ n: number }>(db.pool, `SELECT count(*)::int AS n FROM ${s}.lnk_cmp_shared__box__ref`)).n, 1);
    assert.equal((await one<{ n: number }>(db.pool, `SELECT count(*)::int AS n FROM ${s}.lnk_ct_post__tags`)).n, 2);
  });
});

describe('i18n toggles', () => {
  it('enabling sets the default locale on rows and on links pointing at them', async () => {
    const schema = await createProjectSchema(db.pool);
    await migrate(db.pool, schema, null, blog({}, { localized: false }));
    await insert(db.pool, schema, 'ct_tag', { document_id: 'tag1', published_at: PUBLISHED });
    await seedPost(schema, 'p');
    const plan = await migrate(db.pool, schema, blog({}, { localized: false }), blog({}, { localized: true }));
    assert.deepEqual(plan.steps.map((s) => s.op), ['enableI18n']);
    assert.deepEqual(await query(db.pool, `SELECT locale FROM "${schema}".ct_tag`), [{ locale: 'en' }]);
    assert.deepEqual(await query(db.pool, `SELECT DISTINCT target_locale FROM "${schema}".lnk_ct_post__tags`), [{ target_locale: 'en' }]);
    assert.deepEqual(await query(db.pool, `SELECT DISTINCT target_locale FROM "${schema}".lnk_cmp_shared__box__ref`), [{ target_locale: 'en' }]);
    // the post itself is not localized
    assert.deepEqual(await query(db.pool, `SELECT DISTINCT locale FROM "${schema}".ct_post`), [{ locale: null }]);

    // disabling while only default-locale rows exist: locale back to NULL
    await migrate(db.pool, schema, blog({}, { localized: true }), blog({}, { localized: false }));
    assert.deepEqual(await query(db.pool, `SELECT locale FROM "${schema}".ct_tag`), [{ locale: null }]);
    assert.deepEqual(await query(db.pool, `SELECT DISTINCT target_locale FROM "${schema}".lnk_ct_post__tags`), [{ target_locale: null }]);
  });

  it('refuses to disable i18n while entries exist in another locale', async () => {
    const schema = await createProjectSchema(db.pool);
    await migrate(db.pool, schema, null, blog({ localized: true }));
    await insert(db.pool, schema, 'ct_post', { document_id: 'p', locale: 'en', published_at: PUBLISHED });
    await insert(db.pool, schema, 'ct_post', { document_id: 'p', locale: 'fr', published_at: PUBLISHED });
    await assert.rejects(migrate(db.pool, schema, blog({ localized: true }), blog({ localized: false })), (e: Error & { details: { errors: Array<{ path: string[] }> } }) => {
      assert.equal(e.name, 'ValidationError');
      assert.equal(e.message, 'Cannot disable localization of api::post.post: entries exist in locales other than the default locale "en" (fr)');
      assert.deepEqual(e.details.errors[0]!.path, ['contentTypes', 'api::post.post', 'pluginOptions', 'i18n', 'localized']);
      return true;
    });
    await expectRefusedWithoutChange(schema, blog({ localized: true }), blog({ localized: false }), /other than the default locale/);
  });

  it('enables i18n and D&P together: drafts are copied in the default locale', async () => {
    const schema = await createProjectSchema(db.pool);
    await migrate(db.pool, schema, null, blog({}));
    await seedPost(schema, 'p');
    await migrate(db.pool, schema, blog({}), blog({ localized: true, draftAndPublish: true }));
    assert.deepEqual((await rowsOf(schema)).map((r) => [r.locale, r.draft]), [['en', false], ['en', true]]);
  });
});

describe('collection ↔ single', () => {
  it('makes a collection a single type only while it holds at most one document', async () => {
    const schema = await createProjectSchema(db.pool);
    const v = (kind: 'collectionType' | 'singleType') => model([contentType('home', { title: scalar('string') }, { kind, draftAndPublish: true, localized: true })]);
    await migrate(db.pool, schema, null, v('collectionType'));
    await insert(db.pool, schema, 'ct_home', { document_id: 'h1', locale: 'en', published_at: PUBLISHED });
    await insert(db.pool, schema, 'ct_home', { document_id: 'h1', locale: 'en' });
    await insert(db.pool, schema, 'ct_home', { document_id: 'h1', locale: 'fr' });
    await migrate(db.pool, schema, v('collectionType'), v('singleType'));
    await migrate(db.pool, schema, v('singleType'), v('collectionType'));
    await insert(db.pool, schema, 'ct_home', { document_id: 'h2', locale: 'en' });
    await expectRefusedWithoutChange(schema, v('collectionType'), v('singleType'), /^Cannot make api::home\.home a single type: it has 2 entries$/);
  });
});
