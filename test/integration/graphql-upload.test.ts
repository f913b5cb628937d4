// GraphQL's upload mutations (`updateUploadFile`, `deleteUploadFile`, by numeric id) and media
// reads, with upload permissions and tenant isolation.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentClient, type ContentProject } from '../helpers/content.ts';
import { multipart } from '../helpers/multipart.ts';
import { blogRawModel } from '../fixtures/index.ts';

type Json = Record<string, any>;

const gql = async (client: ContentClient, query: string, variables?: Json) => {
  const res = await client.post('/graphql', { query, ...(variables ? { variables } : {}) });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as Json;
};

const UPDATE = `mutation ($id: ID!, $info: FileInfoInput) { updateUploadFile(id: $id, info: $info) { documentId name alternativeText caption url } }`;
const DELETE = `mutation ($id: ID!) { deleteUploadFile(id: $id) { documentId name url formats } }`;

describe('GraphQL upload mutations', () => {
  let t: TestApp;
  let p: ContentProject;
  let other: ContentProject;

  const upload = async (project: ContentProject, name: string): Promise<Json> => {
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: 'green' } }).png().toBuffer();
    const res = await project.api.raw('POST', '/api/upload', await multipart({ files: { name, content: png, type: 'image/png' } }));
    assert.equal(res.statusCode, 201, res.body);
    return res.json()[0];
  };
  const fileRow = async (project: ContentProject, id: number) =>
    t.platform.db.pool.maybeOne(compiledQuery({ text: `SELECT name, alternative_text, caption FROM ${project.schema}.files WHERE id = $1`, values: [id] }));

  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, blogRawModel());
    other = await setupContentProject(t, blogRawModel());
  });
  after(async () => {
    await t?.close();
  });

  it('updateUploadFile changes the info of a file by id and answers the selection', async () => {
    const file = await upload(p, 'photo one.png');
    const body = await gql(p.api, UPDATE, { id: String(file.id), info: { alternativeText: 'alt', caption: 'cap', name: 'renamed.png' } });
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    assert.deepEqual(body.data.updateUploadFile, { documentId: file.documentId, name: 'renamed.png', alternativeText: 'alt', caption: 'cap', url: file.url });
    assert.deepEqual(await fileRow(p, file.id), { name: 'renamed.png', alternative_text: 'alt', caption: 'cap' });
    // A null name keeps the name; null texts clear them.
    const cleared = await gql(p.api, UPDATE, { id: String(file.id), info: { name: null, alternativeText: null } });
    assert.deepEqual(cleared.data.updateUploadFile, { documentId: file.documentId, name: 'renamed.png', alternativeText: null, caption: 'cap', url: file.url });
  });

  it('updateUploadFile of an unknown or malformed id is a not-found error', async () => {
    for (const id of ['999999', 'abc', '-1']) {
      const body = await gql(p.api, UPDATE, { id, info: { caption: 'x' } });
      assert.equal(body.data, null);
      assert.equal(body.errors[0].extensions.code, 'STRAPI_NOT_FOUND_ERROR');
      assert.equal(body.errors[0].message, 'File not found');
    }
  });

  it('deleteUploadFile answers the file as it was, then removes its row and objects; again → null', async () => {
    const file = await upload(p, 'doomed.png');
    const stored = join(t.env.MEDIA_DIR!, String(p.id), `${file.hash}.png`);
    const thumb = join(t.env.MEDIA_DIR!, String(p.id), `thumbnail_${file.hash}.png`);
    assert.ok(existsSync(stored) && existsSync(thumb));
    const body = await gql(p.api, DELETE, { id: String(file.id) });
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    assert.equal(body.data.deleteUploadFile.documentId, file.documentId);
    assert.equal(body.data.deleteUploadFile.url, file.url);
    assert.deepEqual(Object.keys(body.data.deleteUploadFile.formats), ['thumbnail']);
    assert.equal(await fileRow(p, file.id), null);
    assert.ok(!existsSync(stored) && !existsSync(thumb));
    assert.deepEqual(await gql(p.api, DELETE, { id: String(file.id) }), { data: { deleteUploadFile: null } });
  });

  it('deleting a file unlinks it from documents', async () => {
    const file = await upload(p, 'cover.png');
    const post = (await p.api.post('/api/posts', { data: { title: 'With cover', cover: file.id } })).json().data;
    const read = `query ($id: ID!) { post(documentId: $id) { cover { documentId url } } }`;
    assert.deepEqual((await gql(p.api, read, { id: post.documentId })).data.post.cover, { documentId: file.documentId, url: file.url });
    await gql(p.api, DELETE, { id: String(file.id) });
    assert.equal((await gql(p.api, read, { id: post.documentId })).data.post.cover, null);
  });

  it('needs upload permissions: read-only tokens and the public role are refused', async () => {
    const file = await upload(p, 'guarded.png');
    const readOnly = p.client(await p.token('read-only'));
    for (const client of [readOnly, p.client(null)]) {
      for (const [query, name] of [[UPDATE, 'updateUploadFile'], [DELETE, 'deleteUploadFile']] as const) {
        const body = await gql(client, query, { id: String(file.id), info: { caption: 'hacked' } });
        assert.equal(body.errors[0].extensions.code, 'FORBIDDEN', name);
      }
    }
    // Upload without destroy: may change info, may not delete.
    const uploader = p.client(await p.token('custom', { 'plugin::upload': ['upload'] }));
    assert.equal((await gql(uploader, UPDATE, { id: String(file.id), info: { caption: 'ok' } })).data.updateUploadFile.caption, 'ok');
    assert.equal((await gql(uploader, DELETE, { id: String(file.id) })).errors[0].extensions.code, 'FORBIDDEN');
    assert.deepEqual(await fileRow(p, file.id), { name: 'guarded.png', alternative_text: null, caption: 'ok' });
  });

  it('another project cannot change or delete this project\'s files by id', async () => {
    const file = await upload(p, 'mine.png');
    const theirs = await upload(other, 'theirs.png');
    // Ids are per project: in the other project this id names its own file or none.
    assert.notEqual(theirs.id, file.id);
    const updated = await gql(other.api, UPDATE, { id: String(file.id), info: { caption: 'pwned' } });
    assert.equal(updated.errors[0].extensions.code, 'STRAPI_NOT_FOUND_ERROR');
    assert.deepEqual(await gql(other.api, DELETE, { id: String(file.id) }), { data: { deleteUploadFile: null } });
    assert.deepEqual(await fileRow(p, file.id), { name: 'mine.png', alternative_text: null, caption: null });
    assert.ok(existsSync(join(t.env.MEDIA_DIR!, String(p.id), `${file.hash}.png`)));
    // A token of one project is refused by the other.
    const res = await p.client(await other.token('full-access')).post('/graphql', { query: DELETE, variables: { id: String(file.id) } });
    assert.equal(res.statusCode, 401);
    assert.ok(await fileRow(p, file.id));
  });
});
