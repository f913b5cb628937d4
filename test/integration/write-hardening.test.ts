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
