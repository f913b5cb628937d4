import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureModel, RESTAURANT, CHEF, ARTICLE, CATEGORY, HOMEPAGE } from '../../../packages/query/test/helpers/model.ts';
import { toV4Data, toV4Document, wantsV4 } from '../src/tenant/v4-format.ts';

const model = fixtureModel();
/** Round-trip through JSON, as the gateway will: compares what a client would see. */
const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
const v4 = (uid: string, doc: unknown): unknown => json(toV4Document(model, uid, doc));

const file = (id: number) => ({ id, documentId: `file${id}`, name: `f${id}.png`, url: `/uploads/f${id}.png`, mime: 'image/png' });
const fileV4 = (id: number) => ({ id, documentId: `file${id}`, attributes: { name: `f${id}.png`, url: `/uploads/f${id}.png`, mime: 'image/png' } });

test('Strapi v4 response format example', () => {
  const v5 = { data: { id: 20019, documentId: 'thhfqh4x5yozmih4rpq6s1tr', name: 'Obs R1', chef: null,
    categories: [{ id: 52, documentId: 'deswxt12d60fmhcmq0oehsoe', name: 'Obs Cat2' }] }, meta: {} };
  const out = { data: toV4Data(model, RESTAURANT, v5.data), meta: v5.meta };
  assert.equal(JSON.stringify(out),
    '{"data":{"id":20019,"documentId":"thhfqh4x5yozmih4rpq6s1tr","attributes":{"name":"Obs R1",' +
    '"chef":{"data":null},' +
    '"categories":{"data":[{"id":52,"documentId":"deswxt12d60fmhcmq0oehsoe","attributes":{"name":"Obs Cat2"}}]}}},' +
    '"meta":{}}');
});

test('document: id and documentId beside attributes, v5 key order kept', () => {
  const doc = { id: 1, documentId: 'd1', name: 'R', rating: 5, tags: { a: [1, 2] }, description: [{ type: 'paragraph', children: [] }],
    createdAt: 'c', updatedAt: 'u', publishedAt: 'p', locale: 'en' };
  const out = v4(RESTAURANT, doc);
  assert.deepEqual(out, { id: 1, documentId: 'd1', attributes: { name: 'R', rating: 5, tags: { a: [1, 2] },
    description: [{ type: 'paragraph', children: [] }], createdAt: 'c', updatedAt: 'u', publishedAt: 'p', locale: 'en' } });
  assert.deepEqual(Object.keys(out as object), ['id', 'documentId', 'attributes']);
  assert.deepEqual(Object.keys((out as { attributes: object }).attributes),
    ['name', 'rating', 'tags', 'description', 'createdAt', 'updatedAt', 'publishedAt', 'locale']);
});

test('json scalar that looks like a relation is not touched', () => {
  assert.deepEqual(v4(RESTAURANT, { id: 1, documentId: 'd', tags: { id: 3, documentId: 'x', name: 'n' } }),
    { id: 1, documentId: 'd', attributes: { tags: { id: 3, documentId: 'x', name: 'n' } } });
});

test('list: array of v4 docs; single: object; null: null', () => {
  assert.deepEqual(json(toV4Data(model, CHEF, [{ id: 1, documentId: 'a', name: 'A' }, { id: 2, documentId: 'b', name: 'B' }])), [
    { id: 1, documentId: 'a', attributes: { name: 'A' } },
    { id: 2, documentId: 'b', attributes: { name: 'B' } },
  ]);
  assert.deepEqual(json(toV4Data(model, CHEF, [])), []);
  assert.deepEqual(json(toV4Data(model, HOMEPAGE, { id: 3, documentId: 'h', title: 'T' })), { id: 3, documentId: 'h', attributes: { title: 'T' } });
  assert.equal(toV4Data(model, CHEF, null), null);
});

test('relations: to-one object, to-many array, empty array, null', () => {
  const doc = { id: 1, documentId: 'r', name: 'R',
    chef: { id: 7, documentId: 'c', name: 'C', age: 40 }, categories: [], supplier: null };
  assert.deepEqual(v4(RESTAURANT, doc), { id: 1, documentId: 'r', attributes: { name: 'R',
    chef: { data: { id: 7, documentId: 'c', attributes: { name: 'C', age: 40 } } },
    categories: { data: [] }, supplier: { data: null } } });
});

test('nested populated relations are transformed with the target type', () => {
  const doc = { id: 1, documentId: 'r', name: 'R',
    chef: { id: 7, documentId: 'c', name: 'C',
      mentor: { id: 8, documentId: 'm', name: 'M', restaurants: [{ id: 2, documentId: 'r2', name: 'R2', cover: null }] },
      restaurants: { count: 3 }, favorite: null } };
  assert.deepEqual(v4(RESTAURANT, doc), { id: 1, documentId: 'r', attributes: { name: 'R',
    chef: { data: { id: 7, documentId: 'c', attributes: { name: 'C',
      mentor: { data: { id: 8, documentId: 'm', attributes: { name: 'M',
        restaurants: { data: [{ id: 2, documentId: 'r2', attributes: { name: 'R2', cover: { data: null } } }] } } } },
      restaurants: { data: { attributes: { count: 3 } } },
      favorite: { data: null } } } } } });
});

test('relation count', () => {
  assert.deepEqual(v4(CHEF, { id: 1, documentId: 'c', name: 'C', restaurants: { count: 100 } }),
    { id: 1, documentId: 'c', attributes: { name: 'C', restaurants: { data: { attributes: { count: 100 } } } } });
  assert.deepEqual(v4(CATEGORY, { id: 1, documentId: 'k', restaurants: { count: 0 } }),
    { id: 1, documentId: 'k', attributes: { restaurants: { data: { attributes: { count: 0 } } } } });
});

test('media: null, single, multiple, empty', () => {
  assert.deepEqual(v4(RESTAURANT, { id: 1, documentId: 'r', cover: null, gallery: [] }),
    { id: 1, documentId: 'r', attributes: { cover: { data: null }, gallery: { data: [] } } });
  assert.deepEqual(v4(RESTAURANT, { id: 1, documentId: 'r', cover: file(5), gallery: [file(6), file(7)] }),
    { id: 1, documentId: 'r', attributes: { cover: { data: fileV4(5) }, gallery: { data: [fileV4(6), fileV4(7)] } } });
});

test('media file keys keep their order inside attributes', () => {
  const out = v4(RESTAURANT, { id: 1, documentId: 'r', cover: { id: 5, documentId: 'f', url: 'u', name: 'n', formats: { thumbnail: { url: 't' } } } }) as
    { attributes: { cover: { data: { attributes: object } } } };
  assert.deepEqual(Object.keys(out.attributes.cover.data.attributes), ['url', 'name', 'formats']);
  assert.deepEqual(out.attributes.cover.data.attributes, { url: 'u', name: 'n', formats: { thumbnail: { url: 't' } } });
});

test('component stays flat; relation, media and nested component inside are handled', () => {
  const doc = { id: 1, documentId: 'r', name: 'R', seo: { id: 9, metaTitle: 'T', metaDescription: 'D',
    social: { id: 10, network: 'x', handle: 'h' },
    featuredChef: { id: 7, documentId: 'c', name: 'C', mentor: null },
    image: file(3) } };
  const out = v4(RESTAURANT, doc);
  assert.deepEqual(out, { id: 1, documentId: 'r', attributes: { name: 'R', seo: { id: 9, metaTitle: 'T', metaDescription: 'D',
    social: { id: 10, network: 'x', handle: 'h' },
    featuredChef: { data: { id: 7, documentId: 'c', attributes: { name: 'C', mentor: { data: null } } } },
    image: { data: fileV4(3) } } } });
  assert.deepEqual(Object.keys((out as { attributes: { seo: object } }).attributes.seo),
    ['id', 'metaTitle', 'metaDescription', 'social', 'featuredChef', 'image']);
});

test('component null and unpopulated inner relations', () => {
  assert.deepEqual(v4(RESTAURANT, { id: 1, documentId: 'r', seo: null }), { id: 1, documentId: 'r', attributes: { seo: null } });
  assert.deepEqual(v4(RESTAURANT, { id: 1, documentId: 'r', seo: { id: 2, metaTitle: 'T', featuredChef: null, image: null } }),
    { id: 1, documentId: 'r', attributes: { seo: { id: 2, metaTitle: 'T', featuredChef: { data: null }, image: { data: null } } } });
});

test('repeatable component: array of flat items', () => {
  assert.deepEqual(v4(ARTICLE, { id: 1, documentId: 'a', title: 'A', sections: [{ id: 5, body: 's1', author: null }, { id: 6, body: 's2', author: 'X' }] }),
    { id: 1, documentId: 'a', attributes: { title: 'A', sections: [{ id: 5, body: 's1', author: null }, { id: 6, body: 's2', author: 'X' }] } });
  assert.deepEqual(v4(ARTICLE, { id: 1, documentId: 'a', sections: [] }), { id: 1, documentId: 'a', attributes: { sections: [] } });
});

test('dynamic zone items stay flat with __component; relations inside wrapped', () => {
  const doc = { id: 1, documentId: 'a', title: 'A', blocks: [
    { id: 4, body: 'Q', author: 'A', __component: 'shared.quote' },
    { id: 5, body: '# md', __component: 'shared.rich-text' },
    { id: 6, metaTitle: 'T', featuredChef: { id: 7, documentId: 'c', name: 'C' }, image: [file(1)], social: null, __component: 'shared.seo' },
  ], author: { id: 7, documentId: 'c', name: 'C' } };
  assert.deepEqual(v4(ARTICLE, doc), { id: 1, documentId: 'a', attributes: { title: 'A', blocks: [
    { id: 4, body: 'Q', author: 'A', __component: 'shared.quote' },
    { id: 5, body: '# md', __component: 'shared.rich-text' },
    { id: 6, metaTitle: 'T', featuredChef: { data: { id: 7, documentId: 'c', attributes: { name: 'C' } } },
      image: { data: [fileV4(1)] }, social: null, __component: 'shared.seo' },
  ], author: { data: { id: 7, documentId: 'c', attributes: { name: 'C' } } } } });
});

test('dynamic zone: unknown __component, non-object items and missing __component pass through', () => {
  const blocks = [{ id: 1, featuredChef: { id: 2 }, __component: 'nope.nope' }, 3, null, 'x', { id: 4, featuredChef: { id: 2 } }];
  assert.deepEqual(v4(ARTICLE, { id: 1, documentId: 'a', blocks }), { id: 1, documentId: 'a', attributes: { blocks } });
  assert.deepEqual(v4(ARTICLE, { id: 1, documentId: 'a', blocks: { odd: true } }), { id: 1, documentId: 'a', attributes: { blocks: { odd: true } } });
});

test('localizations on a localized type → {data:[v4doc…]} with nested attributes transformed', () => {
  const doc = { id: 1, documentId: 'r', name: 'R', locale: 'en', localizations: [
    { id: 2, documentId: 'r', name: 'R fr', locale: 'fr', chef: null },
  ] };
  assert.deepEqual(v4(RESTAURANT, doc), { id: 1, documentId: 'r', attributes: { name: 'R', locale: 'en', localizations: { data: [
    { id: 2, documentId: 'r', attributes: { name: 'R fr', locale: 'fr', chef: { data: null } } },
  ] } } });
  assert.deepEqual(v4(ARTICLE, { id: 1, documentId: 'a', localizations: [] }), { id: 1, documentId: 'a', attributes: { localizations: { data: [] } } });
  // a type that is not localized has no such key: passed through
  assert.deepEqual(v4(CHEF, { id: 1, documentId: 'c', localizations: [{ id: 2 }] }), { id: 1, documentId: 'c', attributes: { localizations: [{ id: 2 }] } });
});

test('unknown keys, unknown uid and odd shapes pass through without throwing', () => {
  assert.deepEqual(v4(CHEF, { id: 1, documentId: 'c', extra: { id: 2, documentId: 'x' }, list: [1, 2] }),
    { id: 1, documentId: 'c', attributes: { extra: { id: 2, documentId: 'x' }, list: [1, 2] } });
  assert.deepEqual(v4('api::nope.nope', { id: 1, documentId: 'x', a: { b: 1 } }), { id: 1, documentId: 'x', attributes: { a: { b: 1 } } });
  for (const odd of [null, undefined, 3, 'str', true]) {
    assert.equal(toV4Document(model, RESTAURANT, odd), odd);
    assert.equal(toV4Data(model, RESTAURANT, odd), odd);
  }
  assert.deepEqual(json(toV4Data(model, CHEF, [null, 1, { id: 1, documentId: 'c' }])), [null, 1, { id: 1, documentId: 'c', attributes: {} }]);
  // relations / media / components holding non-entry values: untouched
  assert.deepEqual(v4(RESTAURANT, { id: 1, documentId: 'r', chef: 7, categories: 'x', cover: 5, gallery: [5, null], seo: 'str' }),
    { id: 1, documentId: 'r', attributes: { chef: 7, categories: 'x', cover: 5, gallery: { data: [5, null] }, seo: 'str' } });
  // arrays inside to-many with non-objects keep them
  assert.deepEqual(v4(RESTAURANT, { id: 1, documentId: 'r', categories: [null, { id: 2, documentId: 'k', name: 'K' }] }),
    { id: 1, documentId: 'r', attributes: { categories: { data: [null, { id: 2, documentId: 'k', attributes: { name: 'K' } }] } } });
  // no id/documentId: only attributes
  assert.deepEqual(v4(CHEF, { name: 'C' }), { attributes: { name: 'C' } });
});

test('the input is not mutated', () => {
  const doc = { id: 1, documentId: 'r', chef: { id: 2, documentId: 'c', name: 'C' }, seo: { id: 3, featuredChef: null } };
  const copy = structuredClone(doc);
  toV4Document(model, RESTAURANT, doc);
  assert.deepEqual(doc, copy);
});

test('hostile keys: __proto__ and prototype names are kept as own data, never looked up on prototypes', () => {
  const doc = JSON.parse('{"id":1,"documentId":"r","__proto__":{"polluted":true},"constructor":{"id":2},"toString":[1],"seo":{"id":3,"__proto__":{"x":1},"hasOwnProperty":null}}');
  const out = toV4Document(model, RESTAURANT, doc) as { attributes: Record<string, unknown> };
  assert.equal(Object.getPrototypeOf(out.attributes), Object.prototype);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.deepEqual(Object.keys(out.attributes), ['__proto__', 'constructor', 'toString', 'seo']);
  assert.equal(JSON.stringify(out),
    '{"id":1,"documentId":"r","attributes":{"__proto__":{"polluted":true},"constructor":{"id":2},"toString":[1],' +
    '"seo":{"id":3,"__proto__":{"x":1},"hasOwnProperty":null}}}');
  // a hostile uid / __component are plain unknowns
  assert.deepEqual(v4('__proto__', { id: 1, documentId: 'x', a: 1 }), { id: 1, documentId: 'x', attributes: { a: 1 } });
  assert.deepEqual(v4('constructor', { id: 1, documentId: 'x', a: 1 }), { id: 1, documentId: 'x', attributes: { a: 1 } });
  const dz = [{ id: 1, __component: '__proto__' }, { id: 2, __component: 'toString' }];
  assert.deepEqual(v4(ARTICLE, { id: 1, documentId: 'a', blocks: dz }), { id: 1, documentId: 'a', attributes: { blocks: dz } });
});

test('very deep input does not throw', () => {
  let chef: Record<string, unknown> = { id: 0, documentId: 'c0', mentor: null };
  for (let i = 1; i < 5000; i++) chef = { id: i, documentId: `c${i}`, mentor: chef };
  let out: unknown;
  assert.doesNotThrow(() => { out = toV4Document(model, CHEF, chef); });
  const top = out as { id: number; attributes: { mentor: { data: { id: number } } } };
  assert.equal(top.id, 4999);
  assert.equal(top.attributes.mentor.data.id, 4998);
});

test('wantsV4: header exactly v4', () => {
  assert.equal(wantsV4({ 'strapi-response-format': 'v4' }), true);
  assert.equal(wantsV4({ 'Strapi-Response-Format': 'v4' }), true);
  assert.equal(wantsV4({}), false);
  assert.equal(wantsV4({ 'strapi-response-format': undefined }), false);
  for (const bad of ['V4', 'v5', ' v4', 'v4 ', 'v4, v4', '', 'v4;q=1']) assert.equal(wantsV4({ 'strapi-response-format': bad }), false, bad);
  assert.equal(wantsV4({ 'strapi-response-format': ['v4'] }), false);
  assert.equal(wantsV4({ 'strapi-response-format': ['v4', 'v4'] }), false);
  assert.equal(wantsV4(JSON.parse('{"__proto__":"v4"}')), false);
});
