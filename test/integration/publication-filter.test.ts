// Strapi's `publicationFilter` (and the deprecated `hasPublishedVersion` it replaces) on REST and
// GraphQL reads: cohorts chosen by how a document's draft and published rows relate, combined
// with `status`, locales, filters, pagination counts and populated relations.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { collectionType as ct } from '../fixtures/index.ts';

const MODEL = {
  contentTypes: {
    'api::article.article': ct('article', 'articles', {
      title: { type: 'string', pluginOptions: { i18n: { localized: true } } },
      tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' },
    }, { pluginOptions: { i18n: { localized: true } } }),
    'api::tag.tag': ct('tag', 'tags', { name: { type: 'string' } }),
    'api::note.note': { ...ct('note', 'notes', { body: { type: 'string' } }), options: { draftAndPublish: false } },
  },
  components: {},
};

describe('publicationFilter', () => {
  let t: TestApp;
  let p: ContentProject;
  const ids: Record<string, string> = {};

  const created = async (url: string, data: unknown) => {
    const res = await p.api.post(url, { data });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.documentId as string;
  };
  // REST writes publish unless `status=draft` is given (Strapi 5).
  const updated = async (url: string, data: unknown) => {
    const res = await p.api.put(url, { data });
    assert.equal(res.statusCode, 200, res.body);
  };
  /** The titles a REST list answers, sorted, with its pagination total. */
  const titles = async (query: string) => {
    const res = await p.api.get(`/api/articles?${query}`);
    assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
    const body = res.json();
    const list = body.data.map((a: { title: string }) => a.title).sort();
    assert.equal(body.meta.pagination.total, list.length, query);
    return list;
  };
  const gql = async (query: string, variables?: unknown) => {
    const res = await p.api.post('/graphql', { query, variables });
    return { status: res.statusCode, body: res.json() };
  };

  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, MODEL, ['fr']);
    ids.t1 = await created('/api/tags?status=published', { name: 't1' });
    ids.t2 = await created('/api/tags?status=published', { name: 't2' });
    ids.never = await created('/api/articles?status=draft', { title: 'never' });
    ids.unmod = await created('/api/articles?status=published', { title: 'unmod', tags: [ids.t1, ids.t2] });
    ids.mod = await created('/api/articles?status=published', { title: 'mod' });
    await updated(`/api/articles/${ids.mod}?status=draft`, { title: 'mod-draft' });
    // Published in French only: never published in English, but the document has a published version.
    ids.loc = await created('/api/articles?status=draft', { title: 'loc-en' });
    await updated(`/api/articles/${ids.loc}?locale=fr&status=published`, { title: 'loc-fr' });
    // A published row whose draft is gone (what Strapi calls an orphan published row).
    ids.orphan = await created('/api/articles?status=published', { title: 'orphan' });
    await t.platform.db.pool.query(compiledQuery({ text: `DELETE FROM "${p.schema}".ct_article WHERE document_id = $1 AND published_at IS NULL`, values: [ids.orphan] }));
    await updated(`/api/tags/${ids.t1}?status=draft`, { name: 't1-draft' });
  });
  after(async () => t?.close());

  it('selects the cohort, and status picks the draft or the published row of each document', async () => {
    const cases: Array<[string, string[]]> = [
      ['publicationFilter=never-published', []],
      ['status=draft&publicationFilter=never-published', ['loc-en', 'never']],
      ['status=draft&publicationFilter=has-published-version', ['mod-draft', 'unmod']],
      ['publicationFilter=has-published-version', ['mod', 'unmod']],
      ['status=draft&publicationFilter=modified', ['mod-draft']],
      ['publicationFilter=modified', ['mod']],
      ['status=draft&publicationFilter=unmodified', ['unmod']],
      ['status=published&publicationFilter=unmodified', ['unmod']],
      ['status=draft&publicationFilter=never-published-document', ['never']],
      ['publicationFilter=never-published-document', []],
      ['status=draft&publicationFilter=has-published-version-document', ['loc-en', 'mod-draft', 'unmod']],
      ['publicationFilter=has-published-version-document', ['mod', 'unmod']],
      ['publicationFilter=published-without-draft', ['orphan']],
      ['publicationFilter=published-with-draft', ['mod', 'unmod']],
      ['status=draft&publicationFilter=published-with-draft', []],
      ['status=draft&publicationFilter=published-without-draft', []],
      // Without a filter: every row of the status.
      ['', ['mod', 'orphan', 'unmod']],
    ];
    for (const [query, expected] of cases) assert.deepEqual(await titles(query), expected, query);
  });

  it('pair-scoped modes look at the requested locale; document-scoped ones at every locale', async () => {
    assert.deepEqual(await titles('locale=fr&publicationFilter=has-published-version'), ['loc-fr']);
    assert.deepEqual(await titles('locale=fr&status=draft&publicationFilter=never-published'), []);
    assert.deepEqual(await titles('locale=fr&publicationFilter=published-with-draft'), ['loc-fr']);
    assert.deepEqual(await titles('locale=*&status=draft&publicationFilter=never-published'), ['loc-en', 'never']);
    assert.deepEqual(await titles('locale=*&status=draft&publicationFilter=has-published-version-document'), ['loc-en', 'loc-fr', 'mod-draft', 'unmod']);
  });

  it('combines with filters (AND) and with findOne: a document outside the cohort is not found', async () => {
    assert.deepEqual(await titles('status=draft&publicationFilter=never-published&filters[title][$startsWith]=lo'), ['loc-en']);
    const found = await p.api.get(`/api/articles/${ids.mod}?publicationFilter=modified`);
    assert.equal(found.statusCode, 200);
    assert.equal(found.json().data.title, 'mod');
    const missing = await p.api.get(`/api/articles/${ids.unmod}?publicationFilter=modified`);
    assert.equal(missing.statusCode, 404);
    assert.deepEqual(missing.json().error, { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} });
  });

  it('populated draft & publish relations inherit the cohort', async () => {
    const res = await p.api.get('/api/articles?publicationFilter=unmodified&populate[tags][fields][0]=name');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().data.map((a: { title: string; tags: Array<{ name: string }> }) => [a.title, a.tags.map((x) => x.name)]), [['unmod', ['t2']]]);
    const all = await p.api.get('/api/articles?filters[title][$eq]=unmod&populate[tags][fields][0]=name&sort=id');
    assert.deepEqual(all.json().data[0].tags.map((x: { name: string }) => x.name), ['t1', 't2']);
  });

  it('the deprecated hasPublishedVersion maps to the document-scoped modes; publicationFilter wins', async () => {
    assert.deepEqual(await titles('status=draft&hasPublishedVersion=false'), ['never']);
    assert.deepEqual(await titles('status=draft&hasPublishedVersion=true'), ['loc-en', 'mod-draft', 'unmod']);
    assert.deepEqual(await titles('status=draft&hasPublishedVersion=true&publicationFilter=modified'), ['mod-draft']);
  });

  it('has no effect on a type without draft & publish', async () => {
    await created('/api/notes', { body: 'n1' });
    const res = await p.api.get('/api/notes?publicationFilter=never-published');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().data.map((n: { body: string }) => n.body), ['n1']);
  });

  it('an unknown value is a 400 in the envelope', async () => {
    for (const query of ['publicationFilter=drafts', 'publicationFilter[0]=modified', 'hasPublishedVersion=maybe']) {
      const res = await p.api.get(`/api/articles?${query}`);
      assert.equal(res.statusCode, 400, query);
      const error = res.json().error;
      assert.equal(error.name, 'ValidationError');
      assert.match(error.message, /^Invalid (publicationFilter|hasPublishedVersion) parameter/);
      assert.deepEqual(res.json().data, null);
    }
  });

  it('GraphQL: the PublicationFilter enum on every read, with the same cohorts', async () => {
    const list = async (args: string) => {
      const { status, body } = await gql(`{ articles(${args}) { title } }`);
      assert.equal(status, 200, JSON.stringify(body));
      return body.data.articles.map((a: { title: string }) => a.title).sort();
    };
    assert.deepEqual(await list('status: DRAFT, publicationFilter: NEVER_PUBLISHED'), ['loc-en', 'never']);
    assert.deepEqual(await list('publicationFilter: MODIFIED'), ['mod']);
    assert.deepEqual(await list('status: DRAFT, publicationFilter: HAS_PUBLISHED_VERSION_DOCUMENT'), ['loc-en', 'mod-draft', 'unmod']);
    assert.deepEqual(await list('publicationFilter: PUBLISHED_WITHOUT_DRAFT'), ['orphan']);
    assert.deepEqual(await list('locale: "fr", publicationFilter: PUBLISHED_WITH_DRAFT'), ['loc-fr']);
    assert.deepEqual(await list('status: DRAFT, hasPublishedVersion: false'), ['never']);

    const connection = await gql('{ articles_connection(status: DRAFT, publicationFilter: UNMODIFIED) { nodes { title tags { name } } pageInfo { total } } }');
    assert.deepEqual(connection.body.data.articles_connection, { nodes: [{ title: 'unmod', tags: [{ name: 't2' }] }], pageInfo: { total: 1 } });

    const one = await gql('query ($a: ID!, $b: ID!) { m: article(documentId: $a, publicationFilter: MODIFIED) { title } u: article(documentId: $b, publicationFilter: MODIFIED) { title } }', { a: ids.mod, b: ids.unmod });
    assert.deepEqual(one.body, { data: { m: { title: 'mod' }, u: null } });

    const values = await gql('{ __type(name: "PublicationFilter") { enumValues { name } } }');
    assert.deepEqual(values.body.data.__type.enumValues.map((v: { name: string }) => v.name), [
      'NEVER_PUBLISHED', 'HAS_PUBLISHED_VERSION', 'MODIFIED', 'UNMODIFIED', 'NEVER_PUBLISHED_DOCUMENT', 'HAS_PUBLISHED_VERSION_DOCUMENT', 'PUBLISHED_WITHOUT_DRAFT', 'PUBLISHED_WITH_DRAFT',
    ]);
    const bad = await gql('{ articles(publicationFilter: DRAFTS) { title } }');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
  });
});
