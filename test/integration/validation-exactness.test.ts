// Validation statements of the reference made exact: numeric strings cast before min/max (the
// error's value is the number), impossible dates, uid uniqueness on every write (drafts too),
// private/password paths, and GraphQL inputs (private fields writable, never filterable, date and
// time literals checked at validation).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';

const model = {
  contentTypes: {
    'api::item.item': {
      kind: 'collectionType', info: { singularName: 'item', pluralName: 'items', displayName: 'Item' }, options: { draftAndPublish: true },
      attributes: {
        name: { type: 'string' }, secret: { type: 'string', private: true }, pin: { type: 'password' },
        seats: { type: 'integer', min: 1, max: 10 }, price: { type: 'decimal', max: 100 }, ratio: { type: 'float', max: 1 },
        day: { type: 'date' }, at: { type: 'time' }, when: { type: 'datetime' }, slug: { type: 'uid', targetField: 'name' },
      },
    },
  },
  components: {},
};

const fieldError = (path: string, message: string, value: unknown) => ({
  status: 400, name: 'ValidationError', message, details: { errors: [{ path: [path], message, name: 'ValidationError', value }] },
});

describe('validation exactness', () => {
  let t: TestApp;
  let p: ContentProject;

  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, model);
  });
  after(async () => t?.close());

  it('numeric strings are cast before min/max; the error value is the cast number', async () => {
    for (const [data, path, message, value] of [
      [{ seats: '11' }, 'seats', 'seats must be less than or equal to 10', 11],
      [{ seats: ' 0 ' }, 'seats', 'seats must be greater than or equal to 1', 0],
      [{ price: '100.5' }, 'price', 'price must be less than or equal to 100', 100.5],
      [{ ratio: '1.25' }, 'ratio', 'ratio must be less than or equal to 1', 1.25],
    ] as const) {
      const res = await p.api.post('/api/items', { data });
      assert.deepEqual(res.json().error, fieldError(path, message, value), JSON.stringify(data));
    }
  });

  it("dates, times and datetimes carry the reference's messages", async () => {
    for (const [data, path, message] of [
      [{ day: '2023-02-29' }, 'day', 'Invalid date'],
      [{ day: '2024-13-01' }, 'day', 'Invalid date'],
      [{ day: '03/02/2024' }, 'day', 'Invalid format, expected yyyy-MM-dd'],
      [{ at: '10:30' }, 'at', 'Invalid time format, expected HH:mm:ss.SSS'],
      [{ at: '24:00:00' }, 'at', 'Invalid time format, expected HH:mm:ss.SSS'],
      [{ when: 'yesterday' }, 'when', 'Invalid format, expected a timestamp or an ISO date'],
    ] as const) {
      const res = await p.api.post('/api/items', { data });
      assert.deepEqual(res.json().error, fieldError(path, message, Object.values(data)[0]), JSON.stringify(data));
    }
    const ok = await p.api.post('/api/items', { data: { day: '2024-02-29T10:00:00Z', at: '10:30:00.250', when: 1700000000000 } });
    assert.equal(ok.statusCode, 201, ok.body);
    assert.equal(ok.json().data.day, '2024-02-29');
  });

  it('a uid is unique within its type and locale on every write, drafts included', async () => {
    const first = await p.api.post('/api/items?status=draft', { data: { slug: 'taken' } });
    assert.equal(first.statusCode, 201);
    const unique = fieldError('slug', 'This attribute must be unique', 'taken');
    assert.deepEqual((await p.api.post('/api/items?status=draft', { data: { slug: 'taken' } })).json().error, unique, 'draft create');
    assert.deepEqual((await p.api.post('/api/items', { data: { slug: 'taken' } })).json().error, unique, 'published create');
    const other = (await p.api.post('/api/items?status=draft', { data: { slug: 'free' } })).json().data.documentId;
    assert.deepEqual((await p.api.put(`/api/items/${other}?status=draft`, { data: { slug: 'taken' } })).json().error, unique, 'draft update');
    // its own value is not a clash, in draft or when publishing
    const own = await p.api.put(`/api/items/${first.json().data.documentId}`, { data: { slug: 'taken', name: 'x' } });
    assert.equal(own.statusCode, 200, own.body);
    const rows = await t.db.pool.oneFirst(compiledQuery({ text: `SELECT count(*) FROM "${p.schema}".ct_item WHERE slug = 'taken'`, values: [] }));
    assert.equal(Number(rows), 2, 'the draft and the published row of the first document only');
  });

  describe('GraphQL inputs', () => {
    const gql = (query: string, variables?: unknown) => p.api.post('/graphql', { query, variables });

    it('<Type>Input has every attribute, private and password ones included; <Type>FiltersInput none of those', async () => {
      const res = await gql('{ input: __type(name: "ItemInput") { inputFields { name } } filters: __type(name: "ItemFiltersInput") { inputFields { name } } }');
      const names = (key: string) => (res.json().data[key].inputFields as { name: string }[]).map((f) => f.name);
      assert.deepEqual(names('input'), ['name', 'secret', 'pin', 'seats', 'price', 'ratio', 'day', 'at', 'when', 'slug', 'publishedAt']);
      assert.ok(!names('filters').includes('secret') && !names('filters').includes('pin'));
      assert.ok(names('filters').includes('name'));
    });

    it('private and password attributes are written through GraphQL, never read back', async () => {
      const res = await gql('mutation { createItem(data: { name: "g", secret: "s3", pin: "p4ssword" }) { documentId name } }');
      assert.equal(res.statusCode, 200, res.body);
      const documentId = res.json().data.createItem.documentId;
      const row = await t.db.pool.one(compiledQuery({ text: `SELECT secret, pin FROM "${p.schema}".ct_item WHERE document_id = $1 LIMIT 1`, values: [documentId] }));
      assert.equal(row.secret, 's3');
      assert.match(String(row.pin), /^\$argon2id\$/, 'stored hashed');
      const fromRest = (await p.api.get(`/api/items/${documentId}`)).json().data;
      assert.equal('secret' in fromRest || 'pin' in fromRest, false);
      const filtered = await gql('{ items(filters: { secret: { eq: "s3" } }) { name } }');
      assert.equal(filtered.statusCode, 400);
      assert.equal(filtered.json().errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
    });

    it('a bad Time, Date or DateTime literal fails validation (400) with the format message; a bad variable is BAD_USER_INPUT', async () => {
      for (const [literal, message] of [
        ['at: "10:30"', 'Invalid time format, expected HH:mm:ss.SSS'],
        ['day: "2024-02-30"', 'Invalid date'],
        ['day: "soon"', 'Invalid format, expected yyyy-MM-dd'],
        ['when: "yesterday"', 'Invalid format, expected a timestamp or an ISO date'],
      ]) {
        const res = await gql(`mutation { createItem(data: { ${literal} }) { name } }`);
        assert.equal(res.statusCode, 400, literal);
        assert.deepEqual(res.json().errors.map((e: { message: string; extensions: { code: string } }) => [e.message, e.extensions.code]), [[message, 'GRAPHQL_VALIDATION_FAILED']], literal);
      }
      const inFilter = await gql('{ items(filters: { at: { eq: "10:30" } }) { name } }');
      assert.equal(inFilter.statusCode, 400);
      assert.equal(inFilter.json().errors[0].message, 'Invalid time format, expected HH:mm:ss.SSS');
      const variable = await gql('mutation ($d: ItemInput!) { createItem(data: $d) { name } }', { d: { at: '10:30' } });
      assert.equal(variable.statusCode, 400);
      assert.equal(variable.json().errors[0].extensions.code, 'BAD_USER_INPUT');
      assert.match(variable.json().errors[0].message, /Invalid time format, expected HH:mm:ss.SSS/);
      const good = await gql('mutation { createItem(data: { at: "10:30:00", day: "2024-02-29", when: "2024-02-29T10:00:00Z" }) { at day when } }');
      assert.deepEqual(good.json(), { data: { createItem: { at: '10:30:00.000', day: '2024-02-29', when: '2024-02-29T10:00:00.000Z' } } });
    });
  });
});
