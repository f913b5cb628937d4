// The official Strapi clients, unchanged, against a listening gateway: every method of
// `@strapi/client` (collections, single types, files, fetch) and `graphql-request`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { strapi, type StrapiClient } from '@strapi/client';
import { GraphQLClient, gql } from 'graphql-request';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { blogRawModel } from '../fixtures/index.ts';

const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('official Strapi clients', () => {
  let t: TestApp;
  let p: ContentProject;
  let client: StrapiClient;
  let base: string;

  const count = async (table: string, where = 'TRUE') => Number(await t.db.pool.oneFirst(compiledQuery({
    text: `SELECT count(*) FROM "${p.schema}"."${table}" WHERE ${where}`, values: [],
  })));

  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, blogRawModel());
    await t.fastify.listen({ port: 0, host: '127.0.0.1' });
    const address = t.fastify.server.address();
    assert.ok(address && typeof address === 'object');
    base = `http://127.0.0.1:${address.port}/p/${p.slug}`;
    client = strapi({ baseURL: `${base}/api`, auth: await p.token('full-access') });
  });
  after(async () => t?.close());

  describe('collection types', () => {
    let documentId: string;

    it('create, find, findOne, update', async () => {
      const tags = client.collection('tags');
      const created = await tags.create({ label: 'first' });
      documentId = created.data.documentId;
      assert.equal(created.data.label, 'first');
      assert.match(documentId, /^[a-z0-9]{24}$/);

      const list = await tags.find({ filters: { label: { $eq: 'first' } }, sort: 'label:asc', pagination: { page: 1, pageSize: 10 } });
      assert.deepEqual(list.data.map((d) => d.documentId), [documentId]);
      assert.deepEqual(list.meta.pagination, { page: 1, pageSize: 10, pageCount: 1, total: 1 });

      const one = await tags.findOne(documentId, { fields: ['label'] });
      assert.equal(one.data.documentId, documentId);
      assert.equal(one.data.label, 'first');

      const updated = await tags.update(documentId, { label: 'renamed' });
      assert.equal(updated.data.label, 'renamed');
      assert.equal(await count('ct_tag', `document_id = '${documentId}' AND label = 'renamed'`), 1);
    });

    it('create with relations and locale, status draft', async () => {
      const author = await client.collection('authors').create({ name: 'Ada' });
      const post = await client.collection('posts').create(
        { title: 'Hello', author: author.data.documentId, readingMinutes: 3 }, { status: 'draft', locale: 'en' });
      assert.equal(post.data.title, 'Hello');
      assert.equal(post.data.publishedAt, null);
      const drafts = await client.collection('posts').find({ status: 'draft', populate: ['author'] });
      assert.equal(drafts.data.length, 1);
      assert.equal((drafts.data[0]!.author as { name: string }).name, 'Ada');
      const published = await client.collection('posts').find();
      assert.equal(published.data.length, 0);
    });

    it('delete (sends an empty JSON body) removes every version', async () => {
      assert.equal(await client.collection('tags').delete(documentId), undefined);
      assert.equal(await count('ct_tag', `document_id = '${documentId}'`), 0);
      await assert.rejects(client.collection('tags').findOne(documentId), (err: Error) => {
        assert.match(err.message, /404|not found/i);
        return true;
      });
    });
  });

  describe('single types', () => {
    it('update, find, delete', async () => {
      const site = client.single('site');
      const updated = await site.update({ title: 'My site', tagline: 'hello' });
      assert.equal(updated.data.title, 'My site');
      const found = await site.find({ fields: ['title'] });
      assert.equal(found.data.title, 'My site');
      assert.equal(found.data.tagline, undefined);
      assert.equal(await site.delete(), undefined);
      assert.equal(await count('ct_site'), 0);
      await assert.rejects(site.find(), /404|not found/i);
    });
  });

  describe('files', () => {
    let fileId: number;

    it('upload a Buffer, then find and findOne', async () => {
      const uploaded = await client.files.upload(PNG_1X1, {
        filename: 'pixel.png', mimetype: 'image/png', fileInfo: { name: 'pixel.png', alternativeText: 'a pixel', caption: 'tiny' },
      });
      assert.equal(uploaded.length, 1);
      const file = uploaded[0]!;
      fileId = file.id;
      assert.equal(file.mime, 'image/png');
      assert.equal(file.alternativeText, 'a pixel');
      assert.equal(file.width, 1);

      const list = await client.files.find({ filters: { name: { $eq: 'pixel.png' } }, sort: 'id:desc' });
      assert.deepEqual(list.map((f) => f.id), [fileId]);
      const one = await client.files.findOne(fileId);
      assert.equal(one.caption, 'tiny');
    });

    it('upload a Blob', async () => {
      const uploaded = await client.files.upload(new Blob([PNG_1X1], { type: 'image/png' }), { fileInfo: { name: 'blob.png' } });
      assert.equal(uploaded[0]!.name, 'blob.png');
      await client.files.delete(uploaded[0]!.id);
    });

    it('update the info, then delete (empty JSON body)', async () => {
      const updated = await client.files.update(fileId, { alternativeText: 'still a pixel', caption: 'changed' });
      assert.equal(updated.alternativeText, 'still a pixel');
      assert.equal(updated.caption, 'changed');
      const deleted = await client.files.delete(fileId);
      assert.equal(deleted.id, fileId);
      assert.equal(await count('files'), 0);
      await assert.rejects(client.files.findOne(fileId), /404|not found/i);
    });
  });

  it('fetch: any route, relative to the base URL, with the token', async () => {
    const res = await client.fetch('/tags?pagination[pageSize]=1');
    assert.equal(res.status, 200);
    assert.deepEqual(((await res.json()) as { meta: unknown }).meta, { pagination: { page: 1, pageSize: 1, pageCount: 0, total: 0 } });
  });

  it('a wrong token is an error the client reports', async () => {
    const anonymous = strapi({ baseURL: `${base}/api`, auth: 'not-a-token' });
    await assert.rejects(anonymous.collection('tags').find(), /401|unauthori/i);
  });

  it('graphql-request: queries with variables and mutations', async () => {
    const gqlClient = new GraphQLClient(`${base}/graphql`, { headers: { authorization: `Bearer ${await p.token('full-access')}` } });
    const created = await gqlClient.request<{ createTag: { documentId: string; label: string } }>(
      gql`mutation Create($data: TagInput!) { createTag(data: $data) { documentId label } }`, { data: { label: 'from graphql' } });
    assert.equal(created.createTag.label, 'from graphql');
    const read = await gqlClient.request<{ tags: { label: string }[] }>(
      gql`query Tags($label: String) { tags(filters: { label: { eq: $label } }) { label } }`, { label: 'from graphql' });
    assert.deepEqual(read.tags, [{ label: 'from graphql' }]);
    const deleted = await gqlClient.request<{ deleteTag: { documentId: string } }>(
      gql`mutation Delete($id: ID!) { deleteTag(documentId: $id) { documentId } }`, { id: created.createTag.documentId });
    assert.equal(deleted.deleteTag.documentId, created.createTag.documentId);
    await assert.rejects(gqlClient.request(gql`{ tags { nope } }`), /Cannot query field "nope"/);
  });
});
