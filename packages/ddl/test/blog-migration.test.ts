// The blog example end to end through parseModel: create, fill, push a changed schema.json set,
// and check that the data of unchanged attributes survived.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RawModel } from '@cms/schema';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/db.ts';
import { planMigration } from '../src/index.ts';
import { parseRawModel } from './helpers/model.ts';
import { blogRawModel } from '../../../test/fixtures/index.ts';
import { createProjectSchema, expectRefusal, insert, insertFile, migrate, one, query, tablesOf } from './helpers/project-schema.ts';

let db: TestDatabase;
before(async () => { db = await createTestDatabase('cms_ddl_blog'); });
after(async () => { await db.drop(); });

const PUBLISHED = '2024-01-01T00:00:00.000Z';
const rawBlog = (): RawModel => blogRawModel();

// Schema JSON edited in place, as a client would before a push.
type Json = Record<string, any>;

describe('the blog example across a schema push', () => {
  it('keeps unchanged data while types, attributes and settings change', async () => {
    const schema = await createProjectSchema(db.pool);
    const v1 = parseRawModel(rawBlog());
    await migrate(db.pool, schema, null, v1);
    const s = `"${schema}"`;

    const author = await insert(db.pool, schema, 'ct_author', { document_id: 'author1', name: 'Ada', bio: 'Pioneer', published_at: PUBLISHED });
    await insert(db.pool, schema, 'ct_tag', { document_id: 'tag1', label: 'News', slug: 'news', published_at: PUBLISHED });
    const file = await insertFile(db.pool, schema);
    await insert(db.pool, schema, 'lnk_ct_author__avatar', { source_id: author, file_id: file });
    const posts: number[] = [];
    for (const published of [PUBLISHED, null]) {
      const post = await insert(db.pool, schema, 'ct_post', {
        document_id: 'post1', locale: 'en', title: 'Hello', body: JSON.stringify([{ type: 'paragraph', children: [{ type: 'text', text: 'Hi' }] }]),
        readingMinutes: 4, views: '9007199254740993', published_at: published,
      });
      posts.push(post);
      await insert(db.pool, schema, 'cmp_blog__meta', { owner_id: post, owner_type: 'api::post.post', owner_field: 'meta', title: 'SEO' });
      for (const ord of [0, 1]) await insert(db.pool, schema, 'cmp_blog__cta', { owner_id: post, owner_type: 'api::post.post', owner_field: 'ctas', ord, label: `cta${ord}` });
      await insert(db.pool, schema, 'cmp_blog__cta', { owner_id: post, owner_type: 'api::post.post', owner_field: 'sections', ord: 0, label: 'zone cta' });
      const figure = await insert(db.pool, schema, 'cmp_blog__figure', { owner_id: post, owner_type: 'api::post.post', owner_field: 'sections', ord: 1, caption: 'fig' });
      await insert(db.pool, schema, 'lnk_cmp_blog__figure__image', { source_id: figure, file_id: file });
      await insert(db.pool, schema, 'lnk_ct_post__author', { source_id: post, target_document_id: 'author1' });
      await insert(db.pool, schema, 'lnk_ct_post__tags', { source_id: post, target_document_id: 'tag1' });
      await insert(db.pool, schema, 'lnk_ct_post__cover', { source_id: post, file_id: file });
    }
    const site = await insert(db.pool, schema, 'ct_site', { document_id: 'site1', locale: 'en', title: 'My blog', published_at: PUBLISHED });
    await insert(db.pool, schema, 'cmp_blog__meta', { owner_id: site, owner_type: 'api::site.site', owner_field: 'meta', title: 'Site SEO' });

    const raw = rawBlog() as { contentTypes: Record<string, Json>; components: Record<string, Json> };
    delete raw.contentTypes['api::site.site'];
    raw.contentTypes['api::tag.tag']!.options = { draftAndPublish: true };
    const authorAttrs = raw.contentTypes['api::author.author']!.attributes;
    raw.contentTypes['api::author.author']!.attributes = Object.fromEntries(
      Object.entries(authorAttrs).map(([k, v]) => [k === 'bio' ? 'biography' : k, v]));
    const post = raw.contentTypes['api::post.post']!;
    post.info.displayName = 'Blog post';
    post.attributes.subtitle = { type: 'string' };
    post.attributes.readingMinutes = { ...post.attributes.readingMinutes, type: 'biginteger' };
    raw.components['blog.cta']!.attributes.href = { type: 'text' };
    const v2 = parseRawModel(raw);

    const plan = await migrate(db.pool, schema, v1, v2, { renames: { 'api::author.author': { bio: 'biography' } } });
    assert.deepEqual(plan.steps.map((step) => step.description), [
      'rename attribute bio of api::author.author to biography',
      'drop content type api::site.site',
      'change type of href on blog.cta from string to text',
      'change type of readingMinutes on api::post.post from integer to biginteger',
      'add attribute subtitle to api::post.post',
      'enable draft & publish on api::tag.tag',
    ]);
    assert.ok(JSON.parse(JSON.stringify(plan.steps)).length === 6, 'steps are plain JSON');

    assert.ok(!(await tablesOf(db.pool, schema)).includes('ct_site'));
    assert.deepEqual(await query(db.pool, `SELECT owner_type, title FROM ${s}.cmp_blog__meta ORDER BY id`), [
      { owner_type: 'api::post.post', title: 'SEO' }, { owner_type: 'api::post.post', title: 'SEO' },
    ]);
    assert.deepEqual(await query(db.pool, `SELECT biography FROM ${s}.ct_author`), [{ biography: 'Pioneer' }]);
    assert.deepEqual(await query(db.pool, `SELECT document_id, published_at IS NULL AS draft FROM ${s}.ct_tag ORDER BY id`), [
      { document_id: 'tag1', draft: false }, { document_id: 'tag1', draft: true },
    ]);
    const rows = await query<{ id: string; readingMinutes: string; views: string; body: unknown; subtitle: null }>(db.pool,
      `SELECT id::text, "readingMinutes"::text AS "readingMinutes", views::text, body, subtitle FROM ${s}.ct_post ORDER BY id`);
    assert.deepEqual(rows.map((r) => [Number(r.id), r.readingMinutes, r.views, r.subtitle]), [
      [posts[0], '4', '9007199254740993', null], [posts[1], '4', '9007199254740993', null],
    ]);
    for (const table of ['cmp_blog__cta', 'cmp_blog__figure', 'lnk_cmp_blog__figure__image', 'lnk_ct_post__author', 'lnk_ct_post__tags', 'lnk_ct_post__cover']) {
      const n = (await one<{ n: number }>(db.pool, `SELECT count(*)::int AS n FROM ${s}."${table}"`)).n;
      assert.equal(n, table === 'cmp_blog__cta' ? 6 : 2, table);
    }
  });

  it('refuses a pluralName change of an existing type (400)', () => {
    const v1 = parseRawModel(rawBlog());
    const raw = rawBlog() as { contentTypes: Record<string, Json>; components: Record<string, Json> };
    raw.contentTypes['api::tag.tag']!.info.pluralName = 'labels';
    assert.throws(() => planMigration(v1, parseRawModel(raw)), expectRefusal(/^pluralName of api::tag\.tag cannot change$/));
  });
});
