import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/db.ts';
import { physicalModel } from '@cms/tables';
import { createModelStatements } from '../src/index.ts';
import { compiledQuery } from '@cms/db';
import {
  component, componentType, contentType, dynamicZone, media, model, parseRawModel, relation, scalar,
} from './helpers/model.ts';
import { blogRawModel } from '../../../test/fixtures/index.ts';
import {
  columnsOf, createProjectSchema, indexesOf, insert, insertFile, migrate, one, query, tablesOf,
} from './helpers/project-schema.ts';

let db: TestDatabase;
before(async () => { db = await createTestDatabase('cms_ddl_compile'); });
after(async () => { await db.drop(); });

const EXPECTED_TYPES: Record<string, string> = {
  string: 'text', text: 'text', richtext: 'text', email: 'text', uid: 'text', enumeration: 'text', password: 'text',
  blocks: 'jsonb', json: 'jsonb', integer: 'integer', biginteger: 'bigint', float: 'double precision', decimal: 'numeric',
  boolean: 'boolean', date: 'date', time: 'time(3) without time zone', datetime: 'timestamp(3) with time zone',
};

async function expectViolation(p: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(p, (e: { cause?: { code?: string }; code?: string }) => {
    assert.equal(e.cause?.code ?? e.code, code);
    return true;
  });
}

describe('content type tables', () => {
  it('maps every scalar attribute type to its column type, without NOT NULL', async () => {
    const schema = await createProjectSchema(db.pool);
    const attrs = Object.fromEntries(Object.keys(EXPECTED_TYPES).map((t) => [`a_${t}`, scalar(t as never, t === 'enumeration' ? { enum: ['x'] } : {})]));
    const m = model([contentType('everything', { ...attrs, withRequired: scalar('string', { required: true }) }, { draftAndPublish: true, localized: true })]);
    await migrate(db.pool, schema, null, m);
    const cols = await columnsOf(db.pool, schema, 'ct_everything');
    for (const [type, sqlType] of Object.entries(EXPECTED_TYPES)) {
      assert.equal(cols[`a_${type}`]?.type, sqlType, type);
      assert.equal(cols[`a_${type}`]?.nullable, true, type);
    }
    assert.equal(cols.withRequired?.nullable, true);
    assert.deepEqual(Object.keys(cols).slice(0, 8), ['id', 'document_id', 'locale', 'published_at', 'created_at', 'updated_at', 'created_by', 'updated_by']);
    assert.equal(cols.id?.type, 'bigint');
    assert.equal(cols.document_id?.nullable, false);
    assert.equal(cols.published_at?.type, 'timestamp(3) with time zone');
    assert.equal(cols.created_at?.default, 'now()');
    // information_schema agrees (the contract the brief names)
    const info = await one<{ data_type: string; datetime_precision: number }>(db.pool,
      `SELECT data_type, datetime_precision FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'ct_everything' AND column_name = 'a_time'`, [schema]);
    assert.deepEqual(info, { data_type: 'time without time zone', datetime_precision: 3 });
  });

  it('keeps one draft and at most one published row per document and locale; unique among published rows', async () => {
    const schema = await createProjectSchema(db.pool);
    await migrate(db.pool, schema, null, model([
      contentType('article', { slug: scalar('uid', { unique: true }), title: scalar('string') }, { draftAndPublish: true, localized: true }),
      contentType('plain', { code: scalar('string', { unique: true }) }),
    ]));
    const idx = await indexesOf(db.pool, schema, 'ct_article');
    assert.match(idx['ct_article$version_key']!, /UNIQUE INDEX .* \(document_id, locale, \(\(published_at IS NULL\)\)\) NULLS NOT DISTINCT/);
    assert.match(idx['ct_article$published_idx']!, /\(locale, id\) WHERE \(published_at IS NOT NULL\)/);
    assert.match(idx['ct_article$unique$slug']!, /UNIQUE INDEX .* \(slug, locale\) NULLS NOT DISTINCT WHERE/);

    const t = `"${schema}"."ct_article"`;
    await insert(db.pool, schema, 'ct_article', { document_id: 'd1', locale: 'en', slug: 's' });
    await insert(db.pool, schema, 'ct_article', { document_id: 'd1', locale: 'en', slug: 's', published_at: '2024-01-01T00:00:00Z' });
    await insert(db.pool, schema, 'ct_article', { document_id: 'd1', locale: 'fr', slug: 's', published_at: '2024-01-01T00:00:00Z' });
    // second draft of d1/en
    await expectViolation(insert(db.pool, schema, 'ct_article', { document_id: 'd1', locale: 'en' }), '23505');
    // second published row of d1/en
    await expectViolation(insert(db.pool, schema, 'ct_article', { document_id: 'd1', locale: 'en', published_at: '2024-01-02T00:00:00Z' }), '23505');
    // same slug published twice in one locale
    await expectViolation(insert(db.pool, schema, 'ct_article', { document_id: 'd2', locale: 'en', slug: 's', published_at: '2024-01-01T00:00:00Z' }), '23505');
    // … but drafts may share it, and NULLs are not values
    await insert(db.pool, schema, 'ct_article', { document_id: 'd2', locale: 'en', slug: 's' });
    await insert(db.pool, schema, 'ct_article', { document_id: 'd3', locale: 'en', published_at: '2024-01-01T00:00:00Z' });
    await insert(db.pool, schema, 'ct_article', { document_id: 'd4', locale: 'en', published_at: '2024-01-01T00:00:00Z' });
    assert.equal((await one<{ n: number }>(db.pool, `SELECT count(*)::int AS n FROM ${t}`)).n, 6);

    // Non-localized type: locale NULL, NULLs not distinct → one row per document.
    await insert(db.pool, schema, 'ct_plain', { document_id: 'p1', code: 'a', published_at: '2024-01-01T00:00:00Z' });
    await expectViolation(insert(db.pool, schema, 'ct_plain', { document_id: 'p1', published_at: '2024-01-01T00:00:00Z' }), '23505');
    await expectViolation(insert(db.pool, schema, 'ct_plain', { document_id: 'p2', code: 'a', published_at: '2024-01-01T00:00:00Z' }), '23505');
  });
});

describe('relation link tables', () => {
  const m = model([
    contentType('person', {
      // bidirectional oneToOne (owner: inversedBy)
      passport: relation('oneToOne', 'api::passport.passport', { inversedBy: 'holder' }),
      // bidirectional oneToMany (owner) / manyToOne (inverse)
      pets: relation('oneToMany', 'api::pet.pet', { inversedBy: 'owner' }),
      // bidirectional manyToMany
      clubs: relation('manyToMany', 'api::club.club', { inversedBy: 'members' }),
      // one-way and many-way
      favouriteClub: relation('oneToOne', 'api::club.club'),
      visitedClubs: relation('manyToMany', 'api::club.club'),
      // self relations: manyToOne with its inverse, and a one-way self link
      manager: relation('manyToOne', 'api::person.person', { inversedBy: 'reports' }),
      reports: relation('oneToMany', 'api::person.person', { mappedBy: 'manager' }),
      buddy: relation('oneToOne', 'api::person.person'),
    }, { localized: true }),
    contentType('passport', { holder: relation('oneToOne', 'api::person.person', { mappedBy: 'passport' }) }),
    contentType('pet', { owner: relation('manyToOne', 'api::person.person', { mappedBy: 'pets' }) }),
    contentType('club', {
      members: relation('manyToMany', 'api::person.person', { mappedBy: 'clubs' }),
      // bidirectional manyToOne with the owner on the "many" side
      city: relation('manyToOne', 'api::city.city', { inversedBy: 'clubs' }),
    }),
    contentType('city', { clubs: relation('oneToMany', 'api::club.club', { mappedBy: 'city' }) }),
  ]);
  let schema: string;
  before(async () => {
    schema = await createProjectSchema(db.pool);
    await migrate(db.pool, schema, null, m);
  });

  it('creates link tables only for owner sides', async () => {
    const tables = (await tablesOf(db.pool, schema)).filter((t) => t.startsWith('lnk_'));
    assert.deepEqual(tables, [
      'lnk_ct_club__city', 'lnk_ct_person__buddy', 'lnk_ct_person__clubs', 'lnk_ct_person__favouriteClub', 'lnk_ct_person__manager',
      'lnk_ct_person__passport', 'lnk_ct_person__pets', 'lnk_ct_person__visitedClubs',
    ].sort());
    const cols = await columnsOf(db.pool, schema, 'lnk_ct_person__clubs');
    assert.deepEqual(Object.fromEntries(Object.entries(cols).map(([k, v]) => [k, `${v.type}${v.nullable ? '' : ' not null'}`])), {
      id: 'bigint not null', source_id: 'bigint not null', target_document_id: 'text not null', target_locale: 'text',
      ord: 'integer not null', inv_ord: 'integer not null',
    });
  });

  it('describes both sides in the physical model', () => {
    const p = physicalModel(m);
    const reports = p.contentTypes['api::person.person']!.attributes.reports!;
    assert.equal(reports.kind, 'relation');
    if (reports.kind !== 'relation') return;
    assert.deepEqual(
      { side: reports.side, linkTable: reports.linkTable, ownerUid: reports.ownerUid, ownerAttribute: reports.ownerAttribute, order: reports.orderColumn },
      { side: 'inverse', linkTable: 'lnk_ct_person__manager', ownerUid: 'api::person.person', ownerAttribute: 'manager', order: 'inv_ord' },
    );
    const holder = p.contentTypes['api::passport.passport']!.attributes.holder!;
    assert.ok(holder.kind === 'relation' && holder.side === 'inverse' && holder.linkTable === 'lnk_ct_person__passport' && holder.targetLocalized);
    const link = p.linkTables.lnk_ct_person__pets!;
    assert.ok(link.kind === 'relation' && !link.toOne && link.target === 'api::pet.pet' && !link.targetLocalized);
    assert.equal(p.linkTables.lnk_ct_club__city!.toOne, true);
  });

  it('enforces to-one owner sides with unique(source_id) and cascades deletes of the source row', async () => {
    const p1 = await insert(db.pool, schema, 'ct_person', { document_id: 'p1', locale: 'en', published_at: '2024-01-01T00:00:00Z' });
    const p2 = await insert(db.pool, schema, 'ct_person', { document_id: 'p2', locale: 'en', published_at: '2024-01-01T00:00:00Z' });
    const c1 = await insert(db.pool, schema, 'ct_club', { document_id: 'c1', published_at: '2024-01-01T00:00:00Z' });
    const link = (table: string, source: number, target: string, locale: string | null = null) =>
      insert(db.pool, schema, table, { source_id: source, target_document_id: target, target_locale: locale });

    for (const toOne of ['lnk_ct_person__passport', 'lnk_ct_person__favouriteClub', 'lnk_ct_person__manager', 'lnk_ct_person__buddy']) {
      await link(toOne, p1, 'x1');
      await expectViolation(link(toOne, p1, 'x2'), '23505');
    }
    await link('lnk_ct_club__city', c1, 'city1');
    await expectViolation(link('lnk_ct_club__city', c1, 'city2'), '23505');
    for (const toMany of ['lnk_ct_person__pets', 'lnk_ct_person__clubs', 'lnk_ct_person__visitedClubs']) {
      await link(toMany, p1, 'x1');
      await link(toMany, p1, 'x2');
      await link(toMany, p2, 'x1');
      // the same target twice from one source is refused (target_locale NULL included)
      await expectViolation(link(toMany, p1, 'x1'), '23505');
    }
    await link('lnk_ct_person__clubs', p1, 'x3', 'en');
    await link('lnk_ct_person__clubs', p1, 'x3', 'fr');
    // a link to an unknown source row is refused
    await expectViolation(link('lnk_ct_person__clubs', 999999, 'x1'), '23503');

    const count = async (table: string, source: number) =>
      (await one<{ n: number }>(db.pool, `SELECT count(*)::int AS n FROM "${schema}"."${table}" WHERE source_id = $1`, [source])).n;
    assert.equal(await count('lnk_ct_person__clubs', p1), 4);
    await query(db.pool, `DELETE FROM "${schema}"."ct_person" WHERE id = $1`, [p1]);
    for (const table of ['lnk_ct_person__clubs', 'lnk_ct_person__pets', 'lnk_ct_person__passport', 'lnk_ct_person__manager']) {
      assert.equal(await count(table, p1), 0, table);
    }
    assert.equal(await count('lnk_ct_person__clubs', p2), 1);
    const idx = await indexesOf(db.pool, schema, 'lnk_ct_person__clubs');
    assert.match(idx['lnk_ct_person__clubs$link_key']!, /UNIQUE .*\(source_id, target_document_id, target_locale\) NULLS NOT DISTINCT/);
    assert.match(idx['lnk_ct_person__clubs$inv_order_idx']!, /\(target_document_id, inv_ord\)/);
    assert.match(idx['lnk_ct_person__clubs$order_idx']!, /\(source_id, ord\)/);
    assert.equal(idx['lnk_ct_person__clubs$source_key'], undefined);
  });
});

describe('components, dynamic zones and media', () => {
  const m = model([
    contentType('page', {
      seo: component('shared.seo'),
      blocks: component('shared.quote', true),
      body: dynamicZone(['shared.quote', 'shared.gallery']),
      cover: media(false),
      gallery: media(true),
    }, { draftAndPublish: true }),
  ], [
    componentType('shared.seo', { metaTitle: scalar('string'), shareImage: media(false) }),
    componentType('shared.quote', { text: scalar('text'), author: relation('manyToOne', 'api::page.page') }),
    componentType('shared.gallery', { images: media(true), caption: component('shared.seo') }),
  ]);
  let schema: string;
  before(async () => {
    schema = await createProjectSchema(db.pool);
    await migrate(db.pool, schema, null, m);
  });

  it('stores single and repeatable components and dynamic-zone items in the component tables', async () => {
    const cols = await columnsOf(db.pool, schema, 'cmp_shared__quote');
    assert.deepEqual(Object.fromEntries(Object.entries(cols).map(([k, v]) => [k, `${v.type}${v.nullable ? '' : ' not null'}`])), {
      id: 'bigint not null', owner_id: 'bigint not null', owner_type: 'text not null', owner_field: 'text not null', ord: 'integer not null', text: 'text',
    });
    const idx = await indexesOf(db.pool, schema, 'cmp_shared__quote');
    assert.match(idx['cmp_shared__quote$owner_idx']!, /\(owner_type, owner_id, owner_field, ord\)/);
    const tables = await tablesOf(db.pool, schema);
    for (const t of ['cmp_shared__seo', 'cmp_shared__gallery', 'lnk_cmp_shared__seo__shareImage', 'lnk_cmp_shared__quote__author', 'lnk_cmp_shared__gallery__images']) {
      assert.ok(tables.includes(t), t);
    }
    const page = physicalModel(m).contentTypes['api::page.page']!;
    assert.deepEqual(page.attributes.body, {
      kind: 'dynamiczone', name: 'body',
      components: [{ uid: 'shared.quote', table: 'cmp_shared__quote' }, { uid: 'shared.gallery', table: 'cmp_shared__gallery' }],
    });
    assert.deepEqual(page.childComponents.map((c) => c.uid).sort(), ['shared.gallery', 'shared.quote', 'shared.seo']);

    // A page with a repeatable component and a two-item zone, read back the way the API will.
    const pageId = await insert(db.pool, schema, 'ct_page', { document_id: 'pg1' });
    await insert(db.pool, schema, 'cmp_shared__quote', { owner_id: pageId, owner_type: 'api::page.page', owner_field: 'blocks', ord: 0, text: 'b0' });
    await insert(db.pool, schema, 'cmp_shared__quote', { owner_id: pageId, owner_type: 'api::page.page', owner_field: 'body', ord: 1, text: 'q1' });
    await insert(db.pool, schema, 'cmp_shared__gallery', { owner_id: pageId, owner_type: 'api::page.page', owner_field: 'body', ord: 0 });
    const zone = await query<{ c: string }>(db.pool,
      `SELECT c FROM (SELECT 'shared.quote' AS c, ord FROM "${schema}".cmp_shared__quote WHERE owner_type = $1 AND owner_id = $2 AND owner_field = 'body'
       UNION ALL SELECT 'shared.gallery', ord FROM "${schema}".cmp_shared__gallery WHERE owner_type = $1 AND owner_id = $2 AND owner_field = 'body') z ORDER BY ord`,
      ['api::page.page', pageId]);
    assert.deepEqual(zone.map((r) => r.c), ['shared.gallery', 'shared.quote']);
  });

  it('links media to files: single media unique per source, cascades from both sides', async () => {
    const cols = await columnsOf(db.pool, schema, 'lnk_ct_page__cover');
    assert.deepEqual(Object.keys(cols), ['id', 'source_id', 'file_id', 'ord']);
    const f1 = await insertFile(db.pool, schema, 'one.png');
    const f2 = await insertFile(db.pool, schema, 'two.png');
    const p = await insert(db.pool, schema, 'ct_page', { document_id: 'pg2' });
    await insert(db.pool, schema, 'lnk_ct_page__cover', { source_id: p, file_id: f1 });
    await expectViolation(insert(db.pool, schema, 'lnk_ct_page__cover', { source_id: p, file_id: f2 }), '23505');
    await insert(db.pool, schema, 'lnk_ct_page__gallery', { source_id: p, file_id: f1, ord: 0 });
    await insert(db.pool, schema, 'lnk_ct_page__gallery', { source_id: p, file_id: f2, ord: 1 });
    await expectViolation(insert(db.pool, schema, 'lnk_ct_page__gallery', { source_id: p, file_id: f2 }), '23505');
    await expectViolation(insert(db.pool, schema, 'lnk_ct_page__gallery', { source_id: p, file_id: 424242 }), '23503');
    // deleting a file removes its links; deleting the page removes the rest
    await query(db.pool, `DELETE FROM "${schema}".files WHERE id = $1`, [f1]);
    assert.deepEqual((await query<{ f: string }>(db.pool, `SELECT file_id::text AS f FROM "${schema}".lnk_ct_page__gallery WHERE source_id = $1`, [p])).map((r) => Number(r.f)), [f2]);
    assert.equal((await query(db.pool, `SELECT 1 FROM "${schema}".lnk_ct_page__cover WHERE source_id = $1`, [p])).length, 0);
    await query(db.pool, `DELETE FROM "${schema}".ct_page WHERE id = $1`, [p]);
    assert.equal((await query(db.pool, `SELECT 1 FROM "${schema}".lnk_ct_page__gallery WHERE source_id = $1`, [p])).length, 0);
  });
});

describe('the blog example', () => {
  it('compiles and applies on a fresh schema', async () => {
    const blog = parseRawModel(blogRawModel());
    const statements = createModelStatements('t_blog', blog);
    assert.ok(statements.some((s) => s.startsWith('CREATE TABLE "t_blog"."ct_post"')));
    assert.ok(statements.every((s) => !s.includes('undefined')));
    const schema = await createProjectSchema(db.pool);
    const plan = await migrate(db.pool, schema, null, blog);
    assert.deepEqual(plan.steps.map((s) => s.op).sort(), [
      'createComponent', 'createComponent', 'createComponent',
      'createContentType', 'createContentType', 'createContentType', 'createContentType',
    ]);
    const tables = await tablesOf(db.pool, schema);
    for (const t of ['ct_post', 'ct_author', 'ct_tag', 'ct_site', 'cmp_blog__cta', 'cmp_blog__figure', 'cmp_blog__meta',
      'lnk_ct_post__author', 'lnk_ct_post__tags', 'lnk_ct_post__cover', 'lnk_ct_post__attachments', 'lnk_ct_author__avatar',
      'lnk_cmp_blog__figure__image', 'files']) {
      assert.ok(tables.includes(t), t);
    }
    assert.ok(!tables.includes('lnk_ct_author__posts') && !tables.includes('lnk_ct_tag__posts'));
    const post = await columnsOf(db.pool, schema, 'ct_post');
    assert.equal(post.views?.type, 'bigint');
    assert.equal(post.publishedOn?.type, 'date');
    assert.equal(post.readingMinutes?.type, 'integer');
    assert.equal(post.body?.type, 'jsonb');
    assert.ok(!('author' in post) && !('meta' in post) && !('sections' in post));
    assert.match((await indexesOf(db.pool, schema, 'lnk_ct_post__author'))['lnk_ct_post__author$source_key']!, /UNIQUE/);
    assert.match((await indexesOf(db.pool, schema, 'ct_author'))['ct_author$unique$name']!, /UNIQUE/);
    // applying the same model again is a no-op plan
    const again = await migrate(db.pool, schema, blog, blog);
    assert.deepEqual(again.steps, []);
    // statements are plain DDL text: the same run through compiledQuery on another schema works
    const other = await createProjectSchema(db.pool);
    await db.pool.transaction(async (tx) => {
      for (const s of createModelStatements(other, blog)) await tx.query(compiledQuery({ text: s, values: [] }));
    });
    assert.deepEqual((await tablesOf(db.pool, other)).length, tables.length);
  });
});
