// Writes through the inverse side of a relation (`mappedBy`) between draft & publish types: a
// draft write changes only the drafts' links, and publishing carries the draft's links (and their
// order) to the published versions, as Strapi 5 does.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { collectionType as ct } from '../fixtures/index.ts';

const MODEL = {
  contentTypes: {
    'api::article.article': ct('article', 'articles', {
      title: { type: 'string' },
      writer: { type: 'relation', relation: 'manyToOne', target: 'api::writer.writer', inversedBy: 'articles' },
      tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'articles' },
    }),
    'api::writer.writer': ct('writer', 'writers', {
      name: { type: 'string' },
      articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'writer' },
    }),
    'api::tag.tag': ct('tag', 'tags', {
      name: { type: 'string' },
      articles: { type: 'relation', relation: 'manyToMany', target: 'api::article.article', mappedBy: 'tags' },
    }),
  },
  components: {},
};

describe('inverse-side relation writes with draft & publish', () => {
  let t: TestApp;
  let p: ContentProject;

  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, MODEL);
  });
  after(async () => t?.close());

  const write = async (method: 'post' | 'put', url: string, data: unknown) => {
    const res = await p.api[method](url, { data });
    assert.equal(res.statusCode, method === 'post' ? 201 : 200, res.body);
    return res.json().data.documentId as string;
  };
  const writerOf = async (article: string, status: 'draft' | 'published') =>
    (await p.api.get(`/api/articles/${article}?status=${status}&populate[writer][fields][0]=name`)).json().data.writer?.name ?? null;
  const titles = async (url: string, attr: string, status: 'draft' | 'published') => {
    const res = await p.api.get(`${url}?status=${status}&populate[${attr}][fields][0]=title`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data[attr].map((a: { title: string }) => a.title);
  };

  it('a draft write links the owners\' drafts only; publishing carries the links to the published versions', async () => {
    const a = await write('post', '/api/articles', { title: 'A' });
    const w = await write('post', '/api/writers', { name: 'W' });
    await write('put', `/api/writers/${w}?status=draft`, { articles: [a] });
    assert.equal(await writerOf(a, 'draft'), 'W');
    assert.equal(await writerOf(a, 'published'), null);
    assert.deepEqual(await titles(`/api/writers/${w}`, 'articles', 'draft'), ['A']);
    assert.deepEqual(await titles(`/api/writers/${w}`, 'articles', 'published'), []);

    await write('put', `/api/writers/${w}`, {});
    assert.equal(await writerOf(a, 'published'), 'W');
    assert.deepEqual(await titles(`/api/writers/${w}`, 'articles', 'published'), ['A']);

    await write('put', `/api/writers/${w}?status=draft`, { articles: [] });
    assert.equal(await writerOf(a, 'draft'), null);
    assert.equal(await writerOf(a, 'published'), 'W');
    await write('put', `/api/writers/${w}`, {});
    assert.equal(await writerOf(a, 'published'), null);
  });

  it('publishing through a to-one owner side moves the published owner from its previous target', async () => {
    const a = await write('post', '/api/articles', { title: 'Moved' });
    const w1 = await write('post', '/api/writers', { name: 'W1', articles: [a] });
    assert.equal(await writerOf(a, 'published'), 'W1');
    const w2 = await write('post', '/api/writers?status=draft', { name: 'W2', articles: [a] });
    // The article's draft follows W2 at once; its published version when W2 is published.
    assert.equal(await writerOf(a, 'draft'), 'W2');
    assert.equal(await writerOf(a, 'published'), 'W1');
    await write('put', `/api/writers/${w2}`, {});
    assert.equal(await writerOf(a, 'published'), 'W2');
    assert.deepEqual(await titles(`/api/writers/${w1}`, 'articles', 'published'), []);
  });

  it('the inverse list order is published with the links (many-to-many)', async () => {
    const a = await write('post', '/api/articles', { title: 'a' });
    const b = await write('post', '/api/articles', { title: 'b' });
    const c = await write('post', '/api/articles', { title: 'c' });
    const tag = await write('post', '/api/tags', { name: 'T', articles: [a, b] });
    assert.deepEqual(await titles(`/api/tags/${tag}`, 'articles', 'published'), ['a', 'b']);
    await write('put', `/api/tags/${tag}?status=draft`, { articles: [c, b] });
    assert.deepEqual(await titles(`/api/tags/${tag}`, 'articles', 'draft'), ['c', 'b']);
    assert.deepEqual(await titles(`/api/tags/${tag}`, 'articles', 'published'), ['a', 'b']);
    const tagsOf = async (article: string, status: string) =>
      (await p.api.get(`/api/articles/${article}?status=${status}&populate=tags`)).json().data.tags.map((x: { name: string }) => x.name);
    assert.deepEqual(await tagsOf(a, 'draft'), []);
    assert.deepEqual(await tagsOf(a, 'published'), ['T']);
    await write('put', `/api/tags/${tag}`, {});
    assert.deepEqual(await titles(`/api/tags/${tag}`, 'articles', 'published'), ['c', 'b']);
    assert.deepEqual(await tagsOf(a, 'published'), []);
    assert.deepEqual(await tagsOf(c, 'published'), ['T']);
  });

  it('the owner side still publishes its own links (unchanged)', async () => {
    const w = await write('post', '/api/writers', { name: 'Owner side' });
    const a = await write('post', '/api/articles?status=draft', { title: 'draft link', writer: w });
    assert.equal(await writerOf(a, 'draft'), 'Owner side');
    const published = await p.api.get(`/api/articles/${a}?populate=writer`);
    assert.equal(published.statusCode, 404);
    await write('put', `/api/articles/${a}`, {});
    assert.equal(await writerOf(a, 'published'), 'Owner side');
  });
});
