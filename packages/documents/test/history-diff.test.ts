// diffVersionData: scalars, components and dynamic zones by path, blocks/json/relations/media as a
// whole, system fields and component ids ignored, missing = null, schema changes, no schema.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { diffVersionData, sameJson, type DiffSchema } from '../src/index.ts';

const schema: DiffSchema = {
  attributes: {
    title: { type: 'string' },
    body: { type: 'blocks' },
    meta: { type: 'json' },
    tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' },
    author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author' },
    cover: { type: 'media', multiple: false },
    gallery: { type: 'media', multiple: true },
    seo: { type: 'component', component: 'shared.seo', repeatable: false },
    links: { type: 'component', component: 'shared.link', repeatable: true },
    sections: { type: 'dynamiczone', components: ['sections.hero', 'sections.text'] },
  },
  components: {
    'shared.seo': { metaTitle: { type: 'string' }, metaDescription: { type: 'text' }, og: { type: 'component', component: 'shared.link', repeatable: false } },
    'shared.link': { label: { type: 'string' }, url: { type: 'string' } },
    'sections.hero': { title: { type: 'string' }, image: { type: 'media', multiple: false } },
    'sections.text': { text: { type: 'richtext' } },
  },
};

const base = () => ({
  id: 4, documentId: 'abc', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', publishedAt: null, locale: 'en',
  title: 'Hello',
  body: [{ type: 'paragraph', children: [{ type: 'text', text: 'one' }] }],
  meta: { a: 1, b: [1, 2] },
  tags: [{ documentId: 't1', locale: null }, { documentId: 't2', locale: null }],
  author: { documentId: 'a1', locale: null },
  cover: { id: 7 },
  gallery: [{ id: 1 }, { id: 2 }],
  seo: { id: 10, metaTitle: 'Meta', metaDescription: 'desc', og: { id: 11, label: 'og', url: '/x' } },
  links: [{ id: 20, label: 'a', url: '/a' }, { id: 21, label: 'b', url: '/b' }],
  sections: [
    { id: 30, __component: 'sections.hero', title: 'Hero', image: { id: 7 } },
    { id: 31, __component: 'sections.text', text: 'Text' },
  ],
});

describe('diffVersionData', () => {
  it('finds nothing between equal contents, whatever the system fields and component ids', () => {
    const after = base();
    Object.assign(after, { id: 99, documentId: 'abc', updatedAt: '2027-01-01T00:00:00.000Z', publishedAt: '2027-01-01T00:00:00.000Z', locale: 'en' });
    after.seo.id = 100;
    after.seo.og.id = 101;
    after.links[0]!.id = 200;
    after.sections[1]!.id = 300;
    // Key order does not matter either.
    after.meta = { b: [1, 2], a: 1 };
    assert.deepEqual(diffVersionData(base(), after, schema), []);
  });

  it('reports a scalar change with before and after', () => {
    const after = { ...base(), title: 'Bye' };
    assert.deepEqual(diffVersionData(base(), after, schema), [{ path: 'title', before: 'Hello', after: 'Bye' }]);
  });

  it('compares blocks and json as a whole', () => {
    const after = base();
    after.body = [{ type: 'paragraph', children: [{ type: 'text', text: 'two' }] }];
    after.meta = { a: 2, b: [1, 2] };
    assert.deepEqual(diffVersionData(base(), after, schema), [
      { path: 'body', before: base().body, after: after.body },
      { path: 'meta', before: { a: 1, b: [1, 2] }, after: { a: 2, b: [1, 2] } },
    ]);
  });

  it('compares relations and media as whole lists (order included)', () => {
    const after = base();
    after.tags = [{ documentId: 't2', locale: null }, { documentId: 't1', locale: null }];
    after.author = null as never;
    after.cover = { id: 8 };
    after.gallery = [{ id: 1 }];
    assert.deepEqual(diffVersionData(base(), after, schema), [
      { path: 'tags', before: base().tags, after: after.tags },
      { path: 'author', before: { documentId: 'a1', locale: null }, after: null },
      { path: 'cover', before: { id: 7 }, after: { id: 8 } },
      { path: 'gallery', before: [{ id: 1 }, { id: 2 }], after: [{ id: 1 }] },
    ]);
  });

  it('compares a component field by field, nested ones too', () => {
    const after = base();
    after.seo.metaTitle = 'New meta';
    after.seo.og.url = '/y';
    assert.deepEqual(diffVersionData(base(), after, schema), [
      { path: 'seo.metaTitle', before: 'Meta', after: 'New meta' },
      { path: 'seo.og.url', before: '/x', after: '/y' },
    ]);
  });

  it('reports a component set or removed as a whole, without row ids', () => {
    const after = { ...base(), seo: null };
    assert.deepEqual(diffVersionData(base(), after, schema), [
      { path: 'seo', before: { metaTitle: 'Meta', metaDescription: 'desc', og: { label: 'og', url: '/x' } }, after: null },
    ]);
    assert.deepEqual(diffVersionData(after, base(), schema), [
      { path: 'seo', before: null, after: { metaTitle: 'Meta', metaDescription: 'desc', og: { label: 'og', url: '/x' } } },
    ]);
  });

  it('compares repeatable components by position; added and removed items whole', () => {
    const after = base();
    after.links = [{ id: 20, label: 'A', url: '/a' }, { id: 21, label: 'b', url: '/b' }, { id: 22, label: 'c', url: '/c' }];
    assert.deepEqual(diffVersionData(base(), after, schema), [
      { path: 'links.0.label', before: 'a', after: 'A' },
      { path: 'links.2', before: null, after: { label: 'c', url: '/c' } },
    ]);
    const shorter = { ...base(), links: [base().links[0]!] };
    assert.deepEqual(diffVersionData(base(), shorter, schema), [{ path: 'links.1', before: { label: 'b', url: '/b' }, after: null }]);
  });

  it('compares dynamic zone items by position and field; another component there is another item', () => {
    const after = base();
    after.sections = [
      { id: 30, __component: 'sections.hero', title: 'New hero', image: { id: 8 } },
      { id: 40, __component: 'sections.hero', title: 'Was text', image: null } as never,
    ];
    assert.deepEqual(diffVersionData(base(), after, schema), [
      { path: 'sections.0.title', before: 'Hero', after: 'New hero' },
      { path: 'sections.0.image', before: { id: 7 }, after: { id: 8 } },
      { path: 'sections.1', before: { __component: 'sections.text', text: 'Text' }, after: { __component: 'sections.hero', title: 'Was text', image: null } },
    ]);
  });

  it('reports dynamic zone items added and removed whole', () => {
    const after = { ...base(), sections: [] };
    assert.deepEqual(diffVersionData(base(), after, schema), [
      { path: 'sections.0', before: { __component: 'sections.hero', title: 'Hero', image: { id: 7 } }, after: null },
      { path: 'sections.1', before: { __component: 'sections.text', text: 'Text' }, after: null },
    ]);
  });

  it('treats a missing attribute as null (added or removed by a model change)', () => {
    const before: Record<string, unknown> = base();
    delete before.meta;
    const after: Record<string, unknown> = { ...base(), meta: null, subtitle: 'new' };
    assert.deepEqual(diffVersionData(before, after, schema), [{ path: 'subtitle', before: null, after: 'new' }]);
  });

  it('diffs against nothing (a deleted document, a first version): every attribute with content (no targets = none)', () => {
    const changes = diffVersionData(null, { title: 'x', tags: [], seo: null, links: [{ id: 1, label: 'l', url: null }] }, schema);
    assert.deepEqual(changes, [
      { path: 'title', before: null, after: 'x' },
      { path: 'links.0', before: null, after: { label: 'l', url: null } },
    ]);
  });

  it('compares a component the model no longer has key by key, ignoring its ids', () => {
    const s: DiffSchema = { attributes: { old: { type: 'component', component: 'gone.old', repeatable: false } }, components: {} };
    assert.deepEqual(diffVersionData({ old: { id: 1, a: 1, b: { id: 5 } } }, { old: { id: 2, a: 2, b: { id: 5 } } }, s), [{ path: 'old.a', before: 1, after: 2 }]);
  });

  it('sameJson: deep, order of keys free, order of arrays kept, undefined = absent', () => {
    assert.ok(sameJson({ a: [1, { b: 2 }], c: undefined }, { a: [1, { b: 2 }] }));
    assert.ok(!sameJson([1, 2], [2, 1]));
    assert.ok(!sameJson({ a: null }, {}));
    assert.ok(!sameJson(1, '1'));
  });
});
