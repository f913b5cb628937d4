// Writes that fail never answer 5xx and never write anything: relation positions naming documents
// that are missing or not connected, and many failing writes at once on the same pool.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { blogRawModel } from '../fixtures/index.ts';

describe('write hardening', () => {
  let t: TestApp;
  let p: ContentProject;
  const tags: string[] = [];
  let post: string;

  const count = async (table: string) => Number(await t.db.pool.oneFirst(compiledQuery({ text: `SELECT count(*) FROM "${p.schema}"."${table}"`, values: [] })));
  const snapshot = async () => ({ posts: await count('ct_post'), tags: await count('ct_tag'), links: await count('lnk_ct_post__tags') });

  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, blogRawModel());
    for (const label of ['a', 'b', 'c', 'd']) {
      const res = await p.api.post('/api/tags', { data: { label } });
      assert.equal(res.statusCode, 201, res.body);
      tags.push(res.json().data.documentId);
    }
    const res = await p.api.post('/api/posts', { data: { title: 'post', tags: [tags[0]] } });
    assert.equal(res.statusCode, 201, res.body);
    post = res.json().data.documentId;
  });
  after(async () => t?.close());

  const linkedTags = async () => (await p.api.get(`/api/posts/${post}?populate=tags`)).json().data.tags.map((tag: { documentId: string }) => tag.documentId);

  describe('connect positions', () => {
    it('before/after a document that does not exist: 400 naming it, nothing written', async () => {
      const before = await snapshot();
      for (const position of [{ before: 'nosuchdocument00000000000' }, { after: 'nosuchdocument00000000000' }]) {
        const res = await p.api.put(`/api/posts/${post}`, { data: { tags: { connect: [{ documentId: tags[1], position }] } } });
        assert.equal(res.statusCode, 400, res.body);
        assert.deepEqual(res.json().error, {
          status: 400, name: 'ValidationError', message: 'Document with id "nosuchdocument00000000000", locale "null" not found', details: {},
        });
      }
      assert.deepEqual(await snapshot(), before);
      assert.deepEqual(await linkedTags(), [tags[0]]);
    });

    it("before/after a document that exists but is not connected: 400 with Strapi's message, nothing written", async () => {
      const before = await snapshot();
      const res = await p.api.put(`/api/posts/${post}`, { data: { tags: { connect: [{ documentId: tags[1], position: { after: tags[2] } }] } } });
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json().error, {
        status: 400, name: 'ValidationError', details: {},
        message: `There was a problem connecting relation with id ${tags[1]} at position {"after":"${tags[2]}"}. The relation with id ${tags[2]} needs to be connected first.`,
      });
      assert.deepEqual(await snapshot(), before);
      assert.deepEqual(await linkedTags(), [tags[0]]);
    });

    it('an anchor connected earlier in the same request is accepted', async () => {
      const res = await p.api.put(`/api/posts/${post}`, {
        data: { tags: { connect: [{ documentId: tags[2], position: { end: true } }, { documentId: tags[1], position: { before: tags[2] } }] } },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(await linkedTags(), [tags[0], tags[1], tags[2]]);
    });
  });

  it('50 concurrent failing writes: only 4xx, nothing written', async () => {
    const before = await snapshot();
    const bodies = [
      { data: { title: 'x', tags: { connect: [{ documentId: tags[1], position: { before: 'nosuchdocument00000000000' } }] } } },
      { data: { title: 'x', tags: { connect: ['nosuchdocument00000000000'], disconnect: [tags[0]] } } },
      { data: { title: 'x', tags: { connect: [{ documentId: tags[0], position: { after: tags[3] } }] } } },
      { data: { title: 'x', author: 'nosuchdocument00000000000', tags: [tags[0], 'missing'] } },
      { data: { title: 'x', tags: { set: ['nosuchdocument00000000000'] } } },
    ];
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => {
      const body = bodies[i % bodies.length];
      return i % 2 === 0 ? p.api.post('/api/posts', body) : p.api.put(`/api/posts/${post}`, body);
    }));
    const statuses = results.map((r) => r.statusCode);
    assert.deepEqual([...new Set(statuses)], [400], results.filter((r) => r.statusCode !== 400).map((r) => r.body).join('\n'));
    for (const r of results) assert.equal(r.json().error.name, 'ValidationError');
    // the post created by the "connected earlier" test is unchanged, and nothing else was added
    const after = await snapshot();
    assert.deepEqual(after, { ...before, links: after.links });
    assert.equal(after.links, before.links);
  });
});

describe('locale versions and stored passwords', () => {
  const model = {
    contentTypes: {
      'api::item.item': {
        kind: 'collectionType', info: { singularName: 'item', pluralName: 'items', displayName: 'Item' },
        options: { draftAndPublish: true }, pluginOptions: { i18n: { localized: true } },
        attributes: {
          name: { type: 'string', pluginOptions: { i18n: { localized: true } } },
          pin: { type: 'password', required: true, minLength: 8, pluginOptions: { i18n: { localized: false } } },
          label: { type: 'string', default: 'untitled', pluginOptions: { i18n: { localized: true } } },
          rank: { type: 'integer', default: 3, pluginOptions: { i18n: { localized: false } } },
          shared: { type: 'component', component: 'x.part', pluginOptions: { i18n: { localized: false } } },
          parts: { type: 'component', component: 'x.part', repeatable: true, pluginOptions: { i18n: { localized: false } } },
          own: { type: 'component', component: 'x.part', pluginOptions: { i18n: { localized: true } } },
        },
      },
    },
    components: { 'x.part': { info: { displayName: 'Part' }, attributes: { v: { type: 'string' } } } },
  };
  let t: TestApp;
  let p: ContentProject;
  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, model, ['fr']);
  });
  after(async () => t?.close());

  it('a publishing update keeps a required password satisfied by the stored one', async () => {
    const created = await p.api.post('/api/items', { data: { name: 'a', pin: 'long secret' } });
    assert.equal(created.statusCode, 201, created.body);
    const updated = await p.api.put(`/api/items/${created.json().data.documentId}`, { data: { name: 'b' } });
    assert.equal(updated.statusCode, 200, updated.body);
    assert.equal('pin' in updated.json().data, false);
    // without a stored password the rule still holds
    const draft = await p.api.post('/api/items?status=draft', { data: { name: 'no pin' } });
    const publish = await p.api.put(`/api/items/${draft.json().data.documentId}`, { data: { name: 'no pin' } });
    assert.equal(publish.statusCode, 400);
    assert.equal(publish.json().error.message, 'pin must be a `string` type, but the final value was: `null`.');
  });

  it("a new locale version copies the document's non-localized attributes and components, and applies localized defaults", async () => {
    const created = await p.api.post('/api/items', {
      data: { name: 'en', label: 'english label', pin: 'long secret', rank: 7, shared: { v: 'S' }, parts: [{ v: 'P1' }, { v: 'P2' }], own: { v: 'O' } },
    });
    const documentId = created.json().data.documentId;
    const fr = await p.api.put(`/api/items/${documentId}?locale=fr`, { data: { name: 'fr' } });
    assert.equal(fr.statusCode, 200, fr.body);
    const read = (await p.api.get(`/api/items/${documentId}?locale=fr&populate=*`)).json().data;
    assert.deepEqual(
      { name: read.name, label: read.label, rank: read.rank, shared: read.shared?.v, parts: read.parts.map((x: { v: string }) => x.v), own: read.own },
      { name: 'fr', label: 'untitled', rank: 7, shared: 'S', parts: ['P1', 'P2'], own: null });
    // copies, not shared rows: the English version keeps its own
    const en = (await p.api.get(`/api/items/${documentId}?populate=*`)).json().data;
    assert.notEqual(en.shared.id, read.shared.id);
    assert.deepEqual([en.own.v, en.label], ['O', 'english label']);
  });
});
