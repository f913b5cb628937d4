import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/db.ts';
import { componentTableName, contentTypeTableName, linkTableName, physicalModel, shortenIdentifier } from '@cms/tables';
import { component, componentType, contentType, media, model, relation, scalar } from './helpers/model.ts';
import { columnsOf, createProjectSchema, migrate, tablesOf } from './helpers/project-schema.ts';

describe('physical names', () => {
  it('maps kebab names and keeps short names as they are', () => {
    assert.equal(contentTypeTableName('blog-post'), 'ct_blog_post');
    assert.equal(componentTableName('page-parts.hero-banner'), 'cmp_page_parts__hero_banner');
    assert.equal(linkTableName('ct_blog_post', 'relatedPosts'), 'lnk_ct_blog_post__relatedPosts');
    assert.equal(shortenIdentifier('x'.repeat(63)), 'x'.repeat(63));
  });

  it('cuts names over 63 characters to 54 + _ + 8 hex of sha1(full name), deterministically', () => {
    const full = `lnk_ct_${'a'.repeat(40)}__${'b'.repeat(30)}`;
    const short = shortenIdentifier(full);
    assert.equal(short.length, 63);
    assert.equal(short, `${full.slice(0, 54)}_${createHash('sha1').update(full).digest('hex').slice(0, 8)}`);
    assert.equal(shortenIdentifier(full), short);
    assert.notEqual(shortenIdentifier(`${full}x`), short);
  });
});

describe('long names in a real schema', () => {
  let db: TestDatabase;
  before(async () => { db = await createTestDatabase('cms_ddl_names'); });
  after(async () => { await db.drop(); });

  it('creates and migrates tables whose natural names exceed the identifier limit', async () => {
    const longType = `very-long-${'x'.repeat(60)}`;
    const longAttr = `attribute${'Y'.repeat(60)}`;
    const v1 = model([
      contentType(longType, { [longAttr]: scalar('string', { unique: true }), [`${longAttr}Rel`]: relation('manyToMany', `api::${longType}.${longType}`), pic: media(false), part: component(`cat.${'z'.repeat(70)}`) }),
    ], [componentType(`cat.${'z'.repeat(70)}`, { [`${longAttr}Media`]: media(true) })]);
    const schema = await createProjectSchema(db.pool);
    await migrate(db.pool, schema, null, v1);
    const p = physicalModel(v1);
    const ct = Object.values(p.contentTypes)[0]!;
    assert.equal(ct.table.length, 63);
    const tables = await tablesOf(db.pool, schema);
    for (const t of [ct.table, ...Object.keys(p.linkTables), ...Object.values(p.components).map((c) => c.table)]) {
      assert.ok(t.length <= 63);
      assert.ok(tables.includes(t), t);
    }
    const column = (ct.attributes[longAttr] as { column: string }).column;
    assert.equal(column.length, 63);
    assert.ok(column in (await columnsOf(db.pool, schema, ct.table)));
    // a rename and a drop on those names work too
    const v2 = model([contentType(longType, { [`${longAttr}2`]: scalar('string', { unique: true }), pic: media(false) })], []);
    await migrate(db.pool, schema, v1, v2, { renames: { [ct.uid]: { [longAttr]: `${longAttr}2` } } });
    assert.deepEqual((await tablesOf(db.pool, schema)).filter((t) => !['files', 'upload_folders', 'up_users', 'schema_migrations', 'doc_counts', 'history_versions', 'history_schemas', 'releases', 'release_actions', 'scheduled_actions', 'live_events', 'live_head'].includes(t)).length, 2);
  });
});
