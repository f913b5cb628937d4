// find / findOne: row shape and formats, fields (§3.4), sort (§3.3), pagination
// (§3.2), draft & publish (§4) and locales (§5), exact JSON and key order.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPool } from 'slonik';
import { compiledQuery } from '@cms/db';
import { pageOf, paginationMeta, renderFind, runFind, runFindOne } from '../src/index.ts';
import { CATEGORY, CHEF, HOMEPAGE } from './helpers/model.ts';
import {
  assertJson, createFixture, DESCRIPTION, findOne, ids, list, plan, T_CREATED, T_PUBLISHED, T_UPDATED, type Fixture, type QueryOptions,
} from './helpers/fixture.ts';

let f: Fixture;
before(async () => {
  f = await createFixture('query_find');
});
after(async () => {
  await f.db.drop();
});

const TIMES = { createdAt: T_CREATED, updatedAt: T_UPDATED, publishedAt: T_PUBLISHED };

const PASTA_EN = {
  id: 10, documentId: 'resta', name: 'Pasta Place',
  description: [{ type: 'paragraph', children: [{ text: 'Hello', type: 'text' }] }],
  rating: 5, price: 12.5, open: true, openedOn: '2020-05-17', email: 'pasta@example.com', kind: 'bistro', tags: { a: [1, 2] },
  opensAt: '10:30:00.000', visits: '9007199254740993', score: 4.5, lastVisit: '2024-02-03T04:05:06.789Z',
  ...TIMES, locale: 'en',
};
const EMPTY_EN = {
  id: 40, documentId: 'restd', name: 'cafe 50%_off\\', description: null, rating: null, price: null, open: null, openedOn: null,
  email: null, kind: null, tags: null, opensAt: null, visits: null, score: null, lastVisit: null, ...TIMES, locale: 'en',
};

async function expectIds(query: string, expected: number[], options?: QueryOptions) {
  const { data } = await list(f, query, options);
  assert.deepEqual(ids(data), expected, query);
}

describe('find: default list', () => {
  it('returns published rows of the default locale ordered by id, every scalar present', async () => {
    const { data, meta, text } = await list(f);
    assert.deepEqual(ids(data), [10, 20, 40, 50]);
    assertJson(data[0], PASTA_EN);
    assertJson(data[2], EMPTY_EN);
    assert.deepEqual(meta, { page: 1, pageSize: 25, pageCount: 1, total: 4 });
    assert.ok(text.startsWith('[{"id":10,"documentId":"resta","name":"Pasta Place",'));
  });
  it('formats each type as Strapi does (biginteger string, decimal number, ISO ms UTC, date, time)', async () => {
    const { data } = await list(f, 'filters[id][$eq]=20');
    assertJson(data, [{
      id: 20, documentId: 'restb', name: 'Bistro Bob', description: null, rating: 3, price: 20, open: false, openedOn: '2019-01-01',
      email: null, kind: 'brasserie', tags: null, opensAt: '08:15:30.250', visits: '1', score: 2.25,
      lastVisit: '2023-06-01T12:00:00.000Z', ...TIMES, locale: 'en',
    }]);
    assert.deepEqual(DESCRIPTION[0]!.children[0], { type: 'text', text: 'Hello' });
  });
  it('never outputs password or private attributes', async () => {
    const { text } = await list(f, 'populate=*');
    assert.ok(!text.includes('pin') && !text.includes('s3cret') && !text.includes('secret') && !text.includes('$2a$'));
  });
  it('non-localized types have no locale key; types without D&P still have publishedAt', async () => {
    const { data } = await list(f, '', { uid: CHEF });
    assertJson(data[0], { id: 1, documentId: 'chefa', name: 'Alice', age: 40, ...TIMES });
    assert.deepEqual(ids(data), [1, 2, 3]);
  });
});

describe('find: fields', () => {
  it('selects id + documentId + listed scalars in schema order', async () => {
    const { data } = await list(f, 'fields[0]=rating&fields[1]=name&filters[id][$eq]=10');
    assertJson(data, [{ id: 10, documentId: 'resta', name: 'Pasta Place', rating: 5 }]);
    const comma = await list(f, 'fields=rating,name&filters[id][$eq]=10');
    assertJson(comma.data, data);
  });
  it('timestamps and locale only when listed; * means all', async () => {
    const { data } = await list(f, 'fields[0]=locale&fields[1]=publishedAt&fields[2]=visits&filters[id][$eq]=10');
    assertJson(data, [{ id: 10, documentId: 'resta', visits: '9007199254740993', publishedAt: T_PUBLISHED, locale: 'en' }]);
    const all = await list(f, 'fields=*&filters[id][$eq]=10');
    assertJson(all.data, [PASTA_EN]);
    const idOnly = await list(f, 'fields[0]=id&filters[id][$eq]=10');
    assertJson(idOnly.data, [{ id: 10, documentId: 'resta' }]);
  });
  it('populated keys come on top of fields', async () => {
    const { data } = await list(f, 'fields[0]=name&populate[chef][fields][0]=name&filters[id][$eq]=10');
    assertJson(data, [{ id: 10, documentId: 'resta', name: 'Pasta Place', chef: { id: 1, documentId: 'chefa', name: 'Alice' } }]);
  });
});

describe('find: sort', () => {
  it('scalars asc/desc, nulls as Postgres (last asc, first desc), id tie-breaker', async () => {
    await expectIds('sort=rating', [20, 50, 10, 40]);
    await expectIds('sort=rating:asc', [20, 50, 10, 40]);
    await expectIds('sort=rating:DESC', [40, 10, 50, 20]);
    await expectIds('sort=open:desc,rating:asc', [40, 50, 10, 20]);
    await expectIds('sort[0]=open:asc&sort[1]=id:desc', [20, 50, 10, 40]);
    await expectIds('sort[rating]=desc', [40, 10, 50, 20]);
    await expectIds('sort=createdAt', [10, 20, 40, 50]);
    await expectIds('sort=createdAt:desc', [10, 20, 40, 50]);
    await expectIds('sort=documentId:desc', [50, 40, 20, 10]);
    await expectIds('sort=name:desc&filters[id][$ne]=40', [50, 10, 20]);
    await expectIds('sort=visits:desc', [40, 10, 50, 20]);
    await expectIds('sort=lastVisit', [20, 50, 10, 40]);
    await expectIds('sort=locale:desc,id:desc', [12, 50, 40, 20, 10], { locale: '*' });
  });
  it('through to-one relations, components and to-many relations', async () => {
    await expectIds('sort[chef][name]=asc', [10, 20, 40, 50]);
    await expectIds('sort[chef][name]=desc', [50, 40, 20, 10]);
    await expectIds('sort[0][chef][name]=desc', [50, 40, 20, 10]);
    await expectIds('sort=chef.name:desc', [50, 40, 20, 10]);
    await expectIds('sort[chef][age]=asc', [20, 10, 40, 50]);
    await expectIds('sort[seo][metaTitle]=asc', [10, 20, 40, 50]);
    await expectIds('sort[seo][metaTitle]=desc', [20, 40, 50, 10]);
    await expectIds('sort[categories][name]=asc', [10, 20, 50, 40]);
    await expectIds('sort[chef][mentor][name]=asc', [20, 10, 40, 50]);
  });
});

describe('find: pagination', () => {
  it('page/pageSize, clamping and meta', async () => {
    let r = await list(f, 'pagination[page]=2&pagination[pageSize]=3');
    assert.deepEqual(ids(r.data), [50]);
    assert.deepEqual(r.meta, { page: 2, pageSize: 3, pageCount: 2, total: 4 });
    r = await list(f, 'pagination[pageSize]=1000');
    assert.deepEqual(r.meta, { page: 1, pageSize: 100, pageCount: 1, total: 4 });
    r = await list(f, 'pagination[page]=9999');
    assert.deepEqual(r.data, []);
    assert.deepEqual(r.meta, { page: 9999, pageSize: 25, pageCount: 1, total: 4 });
    r = await list(f, 'pagination[page]=0&pagination[pageSize]=0');
    assert.deepEqual(ids(r.data), [10]);
    assert.deepEqual(r.meta, { page: 1, pageSize: 1, pageCount: 4, total: 4 });
    r = await list(f, 'pagination[pageSize]=-1&pagination[page]=3');
    assert.deepEqual(ids(r.data), [40]);
  });
  it('start/limit', async () => {
    let r = await list(f, 'pagination[start]=1&pagination[limit]=2');
    assert.deepEqual(ids(r.data), [20, 40]);
    assert.deepEqual(r.meta, { start: 1, limit: 2, total: 4 });
    r = await list(f, 'pagination[limit]=-1');
    assert.deepEqual(ids(r.data), [10]);
    assert.deepEqual(r.meta, { start: 0, limit: 1, total: 4 });
  });
  it('withCount=false: no count statement, short meta', async () => {
    const p = plan(f, 'pagination[withCount]=false&pagination[pageSize]=2');
    assert.equal(renderFind(p).count, null);
    const r = await list(f, 'pagination[withCount]=false&pagination[pageSize]=2');
    assert.deepEqual(ids(r.data), [10, 20]);
    assert.deepEqual(r.meta, { page: 1, pageSize: 2 });
    const o = await list(f, 'pagination[withCount]=0&pagination[start]=3');
    assert.deepEqual(ids(o.data), [50]);
    assert.deepEqual(o.meta, { start: 3, limit: 25 });
  });
  it('pageCount is 0 when total is 0', async () => {
    const r = await list(f, 'filters[name][$eq]=nothing');
    assert.deepEqual(r.data, []);
    assert.equal(r.text, '[]');
    assert.deepEqual(r.meta, { page: 1, pageSize: 25, pageCount: 0, total: 0 });
    assert.deepEqual(paginationMeta(plan(f, 'pagination[pageSize]=10'), 52), { page: 1, pageSize: 10, pageCount: 6, total: 52 });
  });
  it('ctx limits apply when the query has no pagination', async () => {
    const p = plan(f, '');
    assert.deepEqual(pageOf(p), { kind: 'page', page: 1, pageSize: 25, withCount: true });
  });
});

describe('find: draft & publish and locales', () => {
  it('status=draft lists draft rows (publishedAt null); published is the default', async () => {
    const { data } = await list(f, 'fields[0]=name&fields[1]=publishedAt', { status: 'draft' });
    assertJson(data, [
      { id: 11, documentId: 'resta', name: 'Pasta Place (draft)', publishedAt: null },
      { id: 21, documentId: 'restb', name: 'Bistro Bob', publishedAt: null },
      { id: 30, documentId: 'restc', name: 'Draft Diner', publishedAt: null },
      { id: 41, documentId: 'restd', name: 'cafe 50%_off\\', publishedAt: null },
      { id: 51, documentId: 'reste', name: 'Zed', publishedAt: null },
    ]);
    await expectIds('status=draft', [11, 21, 30, 41, 51]);
    await expectIds('status=published', [10, 20, 40, 50]);
  });
  it('locale picks rows; * lists every locale; an unknown locale lists nothing', async () => {
    await expectIds('locale=fr', [12]);
    await expectIds('locale=*', [10, 12, 20, 40, 50]);
    await expectIds('locale=*&status=draft', [11, 13, 21, 30, 41, 51]);
    await expectIds('locale=xx', []);
    const r = await list(f, 'locale=*');
    assert.deepEqual(r.meta, { page: 1, pageSize: 25, pageCount: 1, total: 5 });
  });
  it('types without D&P ignore status; non-localized types ignore locale', async () => {
    await expectIds('', [1, 2, 3], { uid: CHEF, status: 'draft' });
    await expectIds('', [1, 2, 3], { uid: CHEF, locale: 'fr' });
    await expectIds('', [1, 2, 3], { uid: CATEGORY, locale: '*' });
  });
});

describe('findOne', () => {
  it('finds a document by documentId in the status and locale asked', async () => {
    assertJson(await findOne(f, 'resta'), PASTA_EN);
    assert.equal((await findOne(f, 'resta', 'locale=fr')).id, 12);
    assert.equal((await findOne(f, 'resta', 'status=draft')).id, 11);
    assert.equal((await findOne(f, 'resta', 'status=draft&locale=fr')).id, 13);
  });
  it('no row for a draft-only document when published, unknown ids, missing locales, locale=*', async () => {
    assert.equal(await findOne(f, 'restc'), null);
    assert.equal((await findOne(f, 'restc', 'status=draft')).id, 30);
    assert.equal(await findOne(f, 'nope'), null);
    assert.equal(await findOne(f, 'restb', 'locale=fr'), null);
    assert.equal(await findOne(f, 'resta', 'locale=*'), null);
  });
  it('applies fields and populate; single types are read without a documentId', async () => {
    assertJson(await findOne(f, 'restb', 'fields[0]=name&populate[chef][fields][0]=name'), {
      id: 20, documentId: 'restb', name: 'Bistro Bob', chef: { id: 2, documentId: 'chefb', name: 'Bob' },
    });
    assertJson(await findOne(f, null, '', { uid: HOMEPAGE }), { id: 1, documentId: 'homea', title: 'Welcome', ...TIMES });
    assert.equal(await runFindOne(f.pool, plan(f, '', { uid: CHEF }), 'chefz'), null);
    assert.equal(JSON.parse((await runFindOne(f.pool, plan(f, '', { uid: CHEF }), 'chefb'))!).name, 'Bob');
  });
});

describe('statements', () => {
  it('a list with populate runs 1 statement (page + total) whatever the page size', async () => {
    let statements = 0;
    const counting = await createPool(f.db.url, {
      maximumPoolSize: 2,
      interceptors: [{ name: 'count', beforeQueryExecution: () => { statements++; return null; } }],
    });
    try {
      for (const size of [1, 2, 100]) {
        statements = 0;
        const p = plan(f, `populate[chef][populate]=*&populate[categories]=true&populate[seo][populate]=*&pagination[pageSize]=${size}&locale=*`);
        const r = await runFind(counting, p);
        assert.equal(statements, 1, `page size ${size}`);
        assert.equal(JSON.parse(r.json).length, Math.min(size, 5));
        assert.equal(r.total, 5);
      }
      statements = 0;
      await runFind(counting, plan(f, 'populate=*&pagination[withCount]=false'));
      assert.equal(statements, 1);
    } finally {
      await counting.end();
    }
  });
  it('SQL text depends only on the query shape: values are always bound', async () => {
    const a = renderFind(plan(f, 'filters[name][$containsi]=abc&filters[rating][$in][0]=1&sort=name&pagination[page]=2&populate[categories][filters][name][$eq]=x'));
    const b = renderFind(plan(f, "filters[name][$containsi]=x'y&filters[rating][$in][0]=2&filters[rating][$in][1]=3&sort=name&pagination[page]=7&populate[categories][filters][name][$eq]=zz"));
    assert.equal(a.data.text, b.data.text);
    assert.equal(a.count!.text, b.count!.text);
    assert.notDeepEqual(a.data.values, b.data.values);
    assert.ok(!a.data.text.includes('abc') && !b.data.text.includes("x'y"));
    const q1 = renderFind(plan(f, '_q=12&filters[email][$null]=true'));
    const q2 = renderFind(plan(f, '_q=abc&filters[email][$null]=true'));
    assert.equal(q1.data.text, q2.data.text);
    const fr = renderFind(plan(f, 'filters[name][$containsi]=abc', { locale: 'fr' }));
    const en = renderFind(plan(f, 'filters[name][$containsi]=zz', { locale: 'en' }));
    assert.equal(fr.data.text, en.data.text);
  });
  it('the data statement returns one row with one text column', async () => {
    const { data } = renderFind(plan(f, 'populate=*'));
    const result = await f.pool.query(compiledQuery(data));
    assert.equal(result.rows.length, 1);
    assert.deepEqual(result.fields.map((x) => x.name), ['data']);
    assert.equal(typeof result.rows[0]!.data, 'string');
  });
});
