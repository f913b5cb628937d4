import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Model } from '@cms/schema';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/db.ts';
import { planMigration } from '../src/index.ts';
import { component, componentType, contentType, dynamicZone, media, model, relation, scalar } from './helpers/model.ts';
import {
  columnsOf, createProjectSchema, expectRefusal, indexesOf, insert, insertFile, migrate, one, query, snapshotSchema, tablesOf,
} from './helpers/project-schema.ts';

let db: TestDatabase;
before(async () => { db = await createTestDatabase('cms_ddl_attrs'); });
after(async () => { await db.drop(); });

const PUBLISHED = '2024-01-01T00:00:00Z';

async function values(schema: string, table: string, column: string): Promise<unknown[]> {
  return (await query<{ v: unknown }>(db.pool, `SELECT "${column}" AS v FROM "${schema}"."${table}" ORDER BY id`)).map((r) => r.v);
}

/** Apply a migration that must be refused, and prove the schema and its data did not change. */
async function expectRefusedWithoutChange(schema: string, prev: Model, next: Model, pattern: RegExp, options = {}): Promise<void> {
  const snapshot = await snapshotSchema(db.pool, schema);
  await assert.rejects(migrate(db.pool, schema, prev, next, options), expectRefusal(pattern));
  assert.deepEqual(await snapshotSchema(db.pool, schema), snapshot);
}

describe('adding and dropping attributes', () => {
  it('adds and drops scalar, relation, media, component and dynamic-zone attributes, keeping other data', async () => {
    const schema = await createProjectSchema(db.pool);
    const components = [
      componentType('shared.inner', { note: scalar('string') }),
      componentType('shared.box', { label: scalar('string'), inner: component('shared.inner', true), photo: media(false) }),
    ];
    const v1 = model([contentType('item', { title: scalar('string') }), contentType('tag', { name: scalar('string') })], components);
    await migrate(db.pool, schema, null, v1);
    const id = await insert(db.pool, schema, 'ct_item', { document_id: 'i1', title: 'kept', published_at: PUBLISHED });

    const v2 = model([contentType('item', {
      title: scalar('string'), subtitle: scalar('string', { unique: true }), tags: relation('manyToMany', 'api::tag.tag'),
      cover: media(false), box: component('shared.box'), zone: dynamicZone(['shared.box', 'shared.inner']),
    }), contentType('tag', { name: scalar('string') })], components);
    const plan = await migrate(db.pool, schema, v1, v2);
    assert.deepEqual(plan.steps.map((s) => [s.op, 'attribute' in s ? s.attribute : undefined, s.description]), [
      ['addAttribute', 'subtitle', 'add attribute subtitle to api::item.item'],
      ['addAttribute', 'tags', 'add attribute tags to api::item.item'],
      ['addAttribute', 'cover', 'add attribute cover to api::item.item'],
      ['addAttribute', 'box', 'add attribute box to api::item.item'],
      ['addAttribute', 'zone', 'add attribute zone to api::item.item'],
    ]);
    assert.equal((await columnsOf(db.pool, schema, 'ct_item')).subtitle?.type, 'text');
    assert.ok((await indexesOf(db.pool, schema, 'ct_item'))['ct_item$unique$subtitle']);
    const tables = await tablesOf(db.pool, schema);
    assert.ok(tables.includes('lnk_ct_item__tags') && tables.includes('lnk_ct_item__cover'));

    // data in every kind of attribute, components nested two levels deep
    await insert(db.pool, schema, 'lnk_ct_item__tags', { source_id: id, target_document_id: 't1' });
    await insert(db.pool, schema, 'lnk_ct_item__cover', { source_id: id, file_id: await insertFile(db.pool, schema) });
    const box = await insert(db.pool, schema, 'cmp_shared__box', { owner_id: id, owner_type: 'api::item.item', owner_field: 'box', label: 'b' });
    await insert(db.pool, schema, 'cmp_shared__inner', { owner_id: box, owner_type: 'shared.box', owner_field: 'inner', note: 'n1' });
    await insert(db.pool, schema, 'cmp_shared__inner', { owner_id: box, owner_type: 'shared.box', owner_field: 'inner', note: 'n2' });
    const zoneBox = await insert(db.pool, schema, 'cmp_shared__box', { owner_id: id, owner_type: 'api::item.item', owner_field: 'zone', label: 'z' });
    await insert(db.pool, schema, 'cmp_shared__inner', { owner_id: zoneBox, owner_type: 'shared.box', owner_field: 'inner', note: 'zn' });
    await insert(db.pool, schema, 'cmp_shared__inner', { owner_id: id, owner_type: 'api::item.item', owner_field: 'zone', note: 'z2' });

    // drop the zone and the relation; keep the component
    const v3 = model([contentType('item', {
      title: scalar('string'), subtitle: scalar('string', { unique: true }), cover: media(false), box: component('shared.box'),
    }), contentType('tag', { name: scalar('string') })], components);
    await migrate(db.pool, schema, v2, v3);
    assert.ok(!(await tablesOf(db.pool, schema)).includes('lnk_ct_item__tags'));
    assert.deepEqual(await values(schema, 'cmp_shared__box', 'label'), ['b']);
    assert.deepEqual(await values(schema, 'cmp_shared__inner', 'note'), ['n1', 'n2']);
    assert.deepEqual(await values(schema, 'ct_item', 'title'), ['kept']);

    // drop the rest
    await migrate(db.pool, schema, v3, v1);
    assert.deepEqual(Object.keys(await columnsOf(db.pool, schema, 'ct_item')).slice(8), ['title']);
    assert.deepEqual(await values(schema, 'cmp_shared__box', 'label'), []);
    assert.deepEqual(await values(schema, 'cmp_shared__inner', 'note'), []);
    assert.ok(!(await tablesOf(db.pool, schema)).includes('lnk_ct_item__cover'));
    assert.deepEqual(await values(schema, 'ct_item', 'title'), ['kept']);
  });

  it('produces no DDL for metadata-only changes', () => {
    const v1 = model([contentType('item', { title: scalar('string', { required: false }) })]);
    const renamedDisplay = contentType('item', { title: scalar('string', { required: true, private: true, maxLength: 20, raw: { type: 'string', x: 1 } }) }, { displayName: 'Thing' });
    const v2 = model([{ ...renamedDisplay, collectionName: 'things', raw: { info: { description: 'x' } } }]);
    assert.deepEqual(planMigration(v1, v2).steps, []);
  });
});

describe('scalar type changes', () => {
  const typed = (type: string, extra = {}) => model([contentType('item', { value: scalar(type as never, extra), other: scalar('string') })]);

  async function withValues(type: string, vals: unknown[]): Promise<string> {
    const schema = await createProjectSchema(db.pool);
    await migrate(db.pool, schema, null, typed(type));
    let n = 0;
    for (const v of vals) await insert(db.pool, schema, 'ct_item', { document_id: `d${++n}`, value: v, other: `o${n}`, published_at: PUBLISHED });
    return schema;
  }

  it('widens integer to biginteger, float and decimal, keeping data', async () => {
    for (const to of ['biginteger', 'float', 'decimal']) {
      const schema = await withValues('integer', [1, -2, null, 2147483647]);
      await migrate(db.pool, schema, typed('integer'), typed(to));
      const rows = await query<{ v: string | null }>(db.pool, `SELECT value::text AS v FROM "${schema}".ct_item ORDER BY id`);
      assert.deepEqual(rows.map((r) => r.v), ['1', '-2', null, '2147483647'], to);
      assert.equal((await columnsOf(db.pool, schema, 'ct_item')).value?.type, { biginteger: 'bigint', float: 'double precision', decimal: 'numeric' }[to]);
      assert.deepEqual(await values(schema, 'ct_item', 'other'), ['o1', 'o2', 'o3', 'o4']);
    }
  });

  it('converts numeric strings to integer; refuses other strings and changes nothing', async () => {
    const ok = await withValues('string', ['12', ' 7 ', null, '']);
    await migrate(db.pool, ok, typed('string'), typed('integer'));
    assert.deepEqual(await values(ok, 'ct_item', 'value'), [12, 7, null, null]);
    assert.equal((await columnsOf(db.pool, ok, 'ct_item')).value?.type, 'integer');

    const bad = await withValues('string', ['12', 'twelve']);
    await expectRefusedWithoutChange(bad, typed('string'), typed('integer'),
      /^Cannot convert attribute "value" of api::item\.item from string to integer: existing values do not convert$/);
    assert.deepEqual(await values(bad, 'ct_item', 'value'), ['12', 'twelve']);
  });

  it('refuses conversions that would silently alter values', async () => {
    const floats = await withValues('float', [1, 2.5]);
    await expectRefusedWithoutChange(floats, typed('float'), typed('integer'), /from float to integer/);
    const big = await withValues('biginteger', ['9007199254740993']);
    await expectRefusedWithoutChange(big, typed('biginteger'), typed('integer'), /from biginteger to integer/);
    await expectRefusedWithoutChange(big, typed('biginteger'), typed('float'), /from biginteger to float/);
    const stamps = await withValues('datetime', ['2024-02-03T04:05:06.789Z']);
    await expectRefusedWithoutChange(stamps, typed('datetime'), typed('date'), /from datetime to date/);
    const bools = await withValues('integer', [0, 1, 2]);
    await expectRefusedWithoutChange(bools, typed('integer'), typed('boolean'), /from integer to boolean/);
    const dates = await withValues('date', ['2024-01-01']);
    await expectRefusedWithoutChange(dates, typed('date'), typed('integer'), /from date to integer/);
  });

  it('converts text to dates, datetimes to text and JSON, JSON to text', async () => {
    const dates = await withValues('text', ['2024-02-03', null]);
    await migrate(db.pool, dates, typed('text'), typed('date'));
    assert.deepEqual(await values(dates, 'ct_item', 'value'), ['2024-02-03', null]);

    const stamps = await withValues('datetime', ['2024-02-03T04:05:06.789Z']);
    await migrate(db.pool, stamps, typed('datetime'), typed('string'));
    assert.deepEqual(await values(stamps, 'ct_item', 'value'), ['2024-02-03T04:05:06.789Z']);

    const json = await withValues('json', [JSON.stringify('plain'), JSON.stringify({ a: 1 }), JSON.stringify(3)]);
    await migrate(db.pool, json, typed('json'), typed('string'));
    assert.deepEqual(await values(json, 'ct_item', 'value'), ['plain', '{"a": 1}', '3']);

    const toJson = await withValues('integer', [5]);
    await migrate(db.pool, toJson, typed('integer'), typed('json'));
    assert.deepEqual(await values(toJson, 'ct_item', 'value'), [5]);

    const empty = await withValues('date', [null]);
    await migrate(db.pool, empty, typed('date'), typed('integer'));
    assert.equal((await columnsOf(db.pool, empty, 'ct_item')).value?.type, 'integer');
  });

  it('keeps text storage across string/text/richtext/email/uid and checks enumeration values', async () => {
    const schema = await withValues('string', ['article', 'note']);
    let prev = typed('string');
    for (const t of ['text', 'richtext', 'email', 'uid', 'password', 'string']) {
      const next = typed(t);
      const plan = await migrate(db.pool, schema, prev, next);
      assert.equal(plan.steps[0]?.op, 'changeScalarType');
      prev = next;
    }
    assert.deepEqual(await values(schema, 'ct_item', 'value'), ['article', 'note']);
    await expectRefusedWithoutChange(schema, prev, typed('enumeration', { enum: ['article'] }),
      /^Cannot change attribute "value" of api::item\.item: existing values are not in the enumeration \("note"\)$/);
    const asEnum = typed('enumeration', { enum: ['article', 'note', 'video'] });
    await migrate(db.pool, schema, prev, asEnum);
    await expectRefusedWithoutChange(schema, asEnum, typed('enumeration', { enum: ['article', 'video'] }), /not in the enumeration \("note"\)/);
    await migrate(db.pool, schema, asEnum, typed('enumeration', { enum: ['article', 'note'] }));
  });

  it('toggles unique, refusing when published entries share a value', async () => {
    const schema = await withValues('string', ['a', 'b', null, null]);
    // drafts may share a value
    await insert(db.pool, schema, 'ct_item', { document_id: 'd1', value: 'b' });
    await migrate(db.pool, schema, typed('string'), typed('string', { unique: true }));
    assert.ok((await indexesOf(db.pool, schema, 'ct_item'))['ct_item$unique$value']);
    await migrate(db.pool, schema, typed('string', { unique: true }), typed('string'));
    assert.equal((await indexesOf(db.pool, schema, 'ct_item'))['ct_item$unique$value'], undefined);
    await insert(db.pool, schema, 'ct_item', { document_id: 'd9', value: 'a', published_at: PUBLISHED });
    await expectRefusedWithoutChange(schema, typed('string'), typed('string', { unique: true }),
      /^Cannot make attribute "value" of api::item\.item unique: published entries share the same value$/);
  });
});

describe('renames', () => {
  it('keeps the data of renamed attributes of every kind', async () => {
    const schema = await createProjectSchema(db.pool);
    const cmp = componentType('shared.note', { text: scalar('string') });
    const v1 = model([
      contentType('item', { title: scalar('string', { unique: true }), tags: relation('manyToMany', 'api::tag.tag', { inversedBy: 'items' }), note: component('shared.note'), pic: media(true) }),
      contentType('tag', { items: relation('manyToMany', 'api::item.item', { mappedBy: 'tags' }) }),
    ], [cmp]);
    await migrate(db.pool, schema, null, v1);
    const id = await insert(db.pool, schema, 'ct_item', { document_id: 'i1', title: 'T', published_at: PUBLISHED });
    await insert(db.pool, schema, 'lnk_ct_item__tags', { source_id: id, target_document_id: 'tag1' });
    await insert(db.pool, schema, 'cmp_shared__note', { owner_id: id, owner_type: 'api::item.item', owner_field: 'note', text: 'hello' });
    await insert(db.pool, schema, 'lnk_ct_item__pic', { source_id: id, file_id: await insertFile(db.pool, schema) });

    const v2 = model([
      contentType('item', { headline: scalar('string', { unique: true }), labels: relation('manyToMany', 'api::tag.tag', { inversedBy: 'things' }), memo: component('shared.note'), pictures: media(true) }),
      contentType('tag', { things: relation('manyToMany', 'api::item.item', { mappedBy: 'labels' }) }),
    ], [cmp]);
    const renames = {
      'api::item.item': { title: 'headline', tags: 'labels', note: 'memo', pic: 'pictures' },
      'api::tag.tag': { items: 'things' },
    };
    // without the hint, a rename is a drop and an add
    assert.ok(planMigration(v1, v2).steps.some((s) => s.op === 'dropAttribute' && s.attribute === 'title'));
    const plan = await migrate(db.pool, schema, v1, v2, { renames });
    assert.deepEqual(plan.steps.map((s) => s.op), Array(5).fill('renameAttribute'));
    assert.deepEqual(await values(schema, 'ct_item', 'headline'), ['T']);
    assert.ok((await indexesOf(db.pool, schema, 'ct_item'))['ct_item$unique$headline']);
    assert.deepEqual(await values(schema, 'lnk_ct_item__labels', 'target_document_id'), ['tag1']);
    assert.ok((await indexesOf(db.pool, schema, 'lnk_ct_item__labels'))['lnk_ct_item__labels$link_key']);
    assert.equal((await one<{ n: number }>(db.pool, `SELECT count(*)::int AS n FROM "${schema}".lnk_ct_item__pictures`)).n, 1);
    assert.deepEqual(await values(schema, 'cmp_shared__note', 'owner_field'), ['memo']);
    // and the next migration starts from the renamed layout
    await migrate(db.pool, schema, v2, model([contentType('item', { headline: scalar('string') }), contentType('tag', {})], [cmp]));
    assert.equal((await indexesOf(db.pool, schema, 'ct_item'))['ct_item$unique$headline'], undefined);
  });

  it('refuses rename hints that do not match the models', () => {
    const v1 = model([contentType('item', { a: scalar('string'), b: scalar('string') })]);
    const v2 = model([contentType('item', { b: scalar('string'), c: scalar('string') })]);
    assert.throws(() => planMigration(v1, v2, { renames: { 'api::item.item': { a: 'b' } } }), (e: Error & { details: { errors: Array<{ path: string[] }> } }) => {
      assert.equal(e.name, 'ValidationError');
      assert.deepEqual(e.details.errors[0]!.path, ['renames', 'api::item.item', 'a']);
      return true;
    });
    assert.throws(() => planMigration(v1, v2, { renames: { 'api::item.item': { x: 'c' } } }), /does not exist/);
  });
});

describe('changes never allowed, and atomicity', () => {
  it('refuses a pluralName change with a 400 ValidationError naming the path', () => {
    const v1 = model([contentType('item', {})]);
    const v2 = model([contentType('item', {}, { pluralName: 'itemz' })]);
    assert.throws(() => planMigration(v1, v2), (e: Error & { status: number; details: { errors: Array<{ path: string[] }> } }) => {
      assert.equal(e.name, 'ValidationError');
      assert.equal(e.status, 400);
      assert.equal(e.message, 'pluralName of api::item.item cannot change');
      assert.deepEqual(e.details.errors[0]!.path, ['contentTypes', 'api::item.item', 'info', 'pluralName']);
      return true;
    });
  });

  it('refuses attribute names that clash with system columns', () => {
    assert.throws(() => planMigration(null, model([contentType('item', { document_id: scalar('string') })])), /reserved/);
    assert.throws(() => planMigration(null, model([], [componentType('a.b', { ord: scalar('integer') })])), /reserved/);
  });

  it('changes a kind of attribute only while it holds no data', async () => {
    const schema = await createProjectSchema(db.pool);
    const v1 = model([contentType('item', { ref: scalar('string'), title: scalar('string') }), contentType('tag', {})]);
    const v2 = model([contentType('item', { ref: relation('manyToOne', 'api::tag.tag'), title: scalar('string') }), contentType('tag', {})]);
    await migrate(db.pool, schema, null, v1);
    await insert(db.pool, schema, 'ct_item', { document_id: 'i1', ref: 'x', published_at: PUBLISHED });
    await expectRefusedWithoutChange(schema, v1, v2, /^Cannot change attribute "ref" of api::item\.item from string to relation: existing data cannot be converted$/);
    await query(db.pool, `UPDATE "${schema}".ct_item SET ref = NULL`);
    const plan = await migrate(db.pool, schema, v1, v2);
    assert.equal(plan.steps[0]?.op, 'replaceAttribute');
    assert.ok((await tablesOf(db.pool, schema)).includes('lnk_ct_item__ref'));
    assert.equal((await columnsOf(db.pool, schema, 'ct_item')).ref, undefined);
  });

  it('rolls back every step of a migration when a later step is refused', async () => {
    const schema = await createProjectSchema(db.pool);
    const v1 = model([contentType('item', { n: scalar('string'), keep: scalar('integer') }), contentType('old', { x: scalar('string') })]);
    await migrate(db.pool, schema, null, v1);
    await insert(db.pool, schema, 'ct_item', { document_id: 'i1', n: 'abc', keep: 5, published_at: PUBLISHED });
    await insert(db.pool, schema, 'ct_old', { document_id: 'o1', x: 'gone?', published_at: PUBLISHED });
    // creates a type, drops one, adds and drops columns — then the conversion of `n` is refused
    const v2 = model([
      contentType('item', { n: scalar('integer'), added: scalar('string', { unique: true }), keep: scalar('biginteger') }),
      contentType('fresh', { y: relation('oneToMany', 'api::item.item') }),
    ]);
    await expectRefusedWithoutChange(schema, v1, v2, /Cannot convert attribute "n"/);
    assert.deepEqual(await values(schema, 'ct_old', 'x'), ['gone?']);
  });
});
