// `UploadFile.related`: the documents (and their components) that use a file, as Strapi's
// `GenericMorph` union, read in the same statement as the file; only what the caller may read,
// in the read's status, and only the project's own.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { multipart } from '../helpers/multipart.ts';

const ct = (singular: string, plural: string, attributes: Record<string, unknown>, dp: boolean) => ({
  kind: 'collectionType', info: { singularName: singular, pluralName: plural, displayName: singular }, options: { draftAndPublish: dp }, attributes,
});
const MODEL = {
  contentTypes: {
    'api::article.article': ct('article', 'articles', {
      title: { type: 'string' },
      cover: { type: 'media', multiple: false },
      seo: { type: 'component', component: 'shared.seo' },
    }, true),
    'api::page.page': ct('page', 'pages', { name: { type: 'string' }, gallery: { type: 'media', multiple: true } }, false),
    'api::secret.secret': ct('secret', 'secrets', { code: { type: 'string' }, image: { type: 'media', multiple: false } }, false),
  },
  components: {
    'shared.seo': { info: { displayName: 'seo' }, attributes: { metaTitle: { type: 'string' }, image: { type: 'media', multiple: false } } },
  },
};

const RELATED = `query ($id: ID!) { uploadFile(documentId: $id) { name related {
  __typename ... on Article { title publishedAt } ... on Page { name } ... on Secret { code } ... on ComponentSharedSeo { metaTitle } } } }`;

describe('GraphQL UploadFile.related', () => {
  let t: TestApp;
  let p: ContentProject;
  let other: ContentProject;
  let file: { id: number; documentId: string };

  const upload = async (project: ContentProject, name: string) => {
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: 'blue' } }).png().toBuffer();
    const res = await project.api.raw('POST', '/api/upload', await multipart({ files: { name, content: png, type: 'image/png' } }));
    assert.equal(res.statusCode, 201, res.body);
    return res.json()[0] as { id: number; documentId: string };
  };
  const create = async (project: ContentProject, url: string, data: unknown) => {
    const res = await project.api.post(url, { data });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.documentId as string;
  };
  const gql = async (project: ContentProject, query: string, variables: unknown, token?: string) => {
    const res = await (token ? project.client(token) : project.api).post('/graphql', { query, variables });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };

  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, MODEL);
    other = await setupContentProject(t, MODEL);
    file = await upload(p, 'shared.png');
    await create(p, '/api/articles', { title: 'Published', cover: file.id, seo: { metaTitle: 'Seo of published', image: file.id } });
    await create(p, '/api/articles?status=draft', { title: 'Draft only', cover: file.id });
    await create(p, '/api/pages', { name: 'Gallery page', gallery: [file.id] });
    await create(p, '/api/secrets', { code: 'S1', image: file.id });
    await upload(p, 'unused.png');
  });
  after(async () => t?.close());

  it('lists every published document and component using the file, typed by __typename', async () => {
    const body = await gql(p, RELATED, { id: file.documentId });
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    const related = body.data.uploadFile.related as Array<Record<string, unknown>>;
    const byType = (type: string) => related.filter((r) => r.__typename === type).map(({ publishedAt: _p, ...r }) => r);
    assert.deepEqual(byType('Article'), [{ __typename: 'Article', title: 'Published' }]);
    assert.equal(typeof related.find((r) => r.__typename === 'Article')!.publishedAt, 'string');
    assert.deepEqual(byType('Page'), [{ __typename: 'Page', name: 'Gallery page' }]);
    assert.deepEqual(byType('Secret'), [{ __typename: 'Secret', code: 'S1' }]);
    assert.deepEqual(byType('ComponentSharedSeo'), [{ __typename: 'ComponentSharedSeo', metaTitle: 'Seo of published' }]);
    assert.equal(related.length, 4);
  });

  it('a file nobody uses has an empty list; related works inside a populated media field too', async () => {
    const files = await gql(p, '{ uploadFiles(filters: { name: { eq: "unused.png" } }) { related { __typename } } }', {});
    assert.deepEqual(files.data.uploadFiles, [{ related: [] }]);
    const nested = await gql(p, '{ pages { gallery { related { __typename ... on Page { name } } } } }', {});
    const related = nested.data.pages[0].gallery[0].related as Array<Record<string, unknown>>;
    assert.deepEqual(related.filter((r) => r.__typename === 'Page'), [{ __typename: 'Page', name: 'Gallery page' }]);
    assert.equal(related.length, 4);
  });

  it('leaves out the types the caller may not read', async () => {
    const token = await p.token('custom', { 'plugin::upload': ['find', 'findOne'], 'api::page.page': ['find'] });
    const body = await gql(p, RELATED, { id: file.documentId }, token);
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    assert.deepEqual(body.data.uploadFile.related, [{ __typename: 'Page', name: 'Gallery page' }]);
  });

  it('the GenericMorph union holds the project\'s object types', async () => {
    const body = await gql(p, '{ __type(name: "GenericMorph") { kind possibleTypes { name } } }', {});
    assert.equal(body.data.__type.kind, 'UNION');
    assert.deepEqual(body.data.__type.possibleTypes.map((x: { name: string }) => x.name).sort(),
      ['Article', 'ComponentSharedSeo', 'Page', 'Secret', 'UploadFile', 'UsersPermissionsUser']);
  });

  it('another project never sees the file or its uses', async () => {
    const body = await gql(other, RELATED, { id: file.documentId });
    assert.deepEqual(body.data, { uploadFile: null });
  });
});
