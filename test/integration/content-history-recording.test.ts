// Content history is recorded by every write path, in the write's own transaction: REST (an API
// token, an end user, anonymous), GraphQL, the dashboard (its content access key and its draft &
// publish actions) and the import routes — each with its origin and author, one version per
// document-locale it changed (an upload linked to an entry too) (a shared attribute written on one locale changes the others too).
// A write that rolls back — refused after part of it ran, or its backend killed mid-transaction —
// leaves no version; CONTENT_HISTORY=false records none.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { TEST_PG_ADMIN_URL } from '../helpers/db.ts';
import { gqlData } from '../helpers/graphql.ts';
import { multipart } from '../helpers/multipart.ts';
import { as } from '../helpers/management.ts';
import { collectionType as ct } from '../fixtures/index.ts';

const localized = { pluginOptions: { i18n: { localized: true } } };
const ARTICLE = 'api::article.article';
const TAG = 'api::tag.tag';

const MODEL = {
  contentTypes: {
    [ARTICLE]: ct('article', 'articles', {
      title: { type: 'string', required: true, ...localized },
      slug: { type: 'string', unique: true, ...localized },
      views: { type: 'integer' },
      tags: { type: 'relation', relation: 'manyToMany', target: TAG, inversedBy: 'articles' },
      seo: { type: 'component', component: 'shared.seo', ...localized },
    }, localized),
    [TAG]: ct('tag', 'tags', {
      name: { type: 'string' },
      icon: { type: 'media', multiple: false, allowedTypes: ['images', 'files'] },
      articles: { type: 'relation', relation: 'manyToMany', target: ARTICLE, mappedBy: 'tags' },
    }, { options: { draftAndPublish: false } }),
  },
  components: {
    'shared.seo': { collectionName: 'components_shared_seos', info: { displayName: 'seo' }, attributes: { metaTitle: { type: 'string' } } },
  },
};

interface VersionRow {
  content_type: string;
  related_document_id: string;
  locale: string | null;
  status: string;
  data: Record<string, any>;
  origin: string;
  created_by: { type: string; id: number | string } | null;
}

describe('content history: what each write records', () => {
  let t: TestApp;
  let p: ContentProject;

  /** The project's versions of `documentId`, oldest first. */
  const versions = async (documentId: string, project = p): Promise<VersionRow[]> =>
    (await t.platform.db.pool.any(compiledQuery({
      text: `SELECT content_type, related_document_id, locale, status, data, origin, created_by FROM "${project.schema}".history_versions WHERE related_document_id = $1 ORDER BY id`,
      values: [documentId],
    }))) as unknown as VersionRow[];
  const created = async (url: string, data: unknown, client = p.api) => {
    const res = await client.post(url, { data });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data as Record<string, any>;
  };

  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, MODEL, ['fr']);
  });
  after(() => t.close());

  it('REST with an API token: a draft, then a publish, each with its data, status, origin and author', async () => {
    const tag = await created('/api/tags', { name: 'news' });
    const draft = await created('/api/articles?status=draft', { title: 'Hello', views: 1, tags: [tag.documentId], seo: { metaTitle: 'Hi' } });
    const published = await p.api.put(`/api/articles/${draft.documentId}`, { data: { title: 'Hello again' } });
    assert.equal(published.statusCode, 200, published.body);
    const [first, second, ...rest] = await versions(draft.documentId);
    assert.equal(rest.length, 0);
    const tokenId = first!.created_by!.id;
    assert.deepEqual({ ...first, data: undefined }, {
      content_type: ARTICLE, related_document_id: draft.documentId, locale: 'en', status: 'draft', data: undefined,
      origin: 'rest', created_by: { type: 'apiToken', id: tokenId },
    });
    assert.equal(typeof tokenId, 'number');
    assert.deepEqual(first!.data, {
      id: draft.id, documentId: draft.documentId, title: 'Hello', slug: null, views: 1,
      tags: [{ documentId: tag.documentId, locale: null }], seo: { id: first!.data.seo.id, metaTitle: 'Hi' },
      createdAt: draft.createdAt, updatedAt: draft.updatedAt, publishedAt: null, locale: 'en',
    });
    assert.equal(second!.status, 'published');
    assert.equal(second!.data.title, 'Hello again');
    assert.equal(second!.data.publishedAt, published.json().data.publishedAt);
    // The tag's version has no `articles`: the inverse side is the articles' links, recorded with them.
    const [tagVersion] = await versions(tag.documentId);
    assert.equal('articles' in tagVersion!.data, false);
    assert.equal(tagVersion!.status, 'published');
  });

  it('a draft write after a publish records status modified; a write on one locale records the others it changed', async () => {
    const doc = await created('/api/articles', { title: 'Base', views: 1 });
    const fr = await p.api.put(`/api/articles/${doc.documentId}?locale=fr`, { data: { title: 'Base fr' } });
    assert.equal(fr.statusCode, 200, fr.body);
    const edited = await p.api.put(`/api/articles/${doc.documentId}?status=draft`, { data: { views: 7 } });
    assert.equal(edited.statusCode, 200, edited.body);
    const rows = await versions(doc.documentId);
    assert.deepEqual(rows.map((r) => [r.locale, r.status, r.data.views, r.data.publishedAt === null]), [
      ['en', 'published', 1, false],
      ['fr', 'published', 1, false],
      // `views` is not localized: the draft write on en changed fr's draft too (its own edit
      // time is kept, as Strapi keeps it, so fr's status stays what the editor shows).
      ['en', 'modified', 7, true],
      ['fr', 'published', 7, true],
    ]);
  });

  it('GraphQL, an end user and an anonymous caller', async () => {
    const data = await gqlData(p.api, 'mutation { createTag(data: { name: "gql" }) { documentId } }');
    const gqlId = (data as any).createTag.documentId as string;
    assert.deepEqual((await versions(gqlId)).map((v) => [v.origin, v.created_by?.type]), [['graphql', 'apiToken']]);

    const perms = await p.admin.put(`/v1/projects/${p.slug}/roles/authenticated/permissions`, { permissions: { [TAG]: ['create'] } });
    assert.equal(perms.statusCode, 200, perms.body);
    const registered = await p.client(null).post('/api/auth/local/register', { username: 'ann', email: 'ann@example.net', password: 'secret123' });
    assert.equal(registered.statusCode, 200, registered.body);
    const { jwt, user } = registered.json();
    const byUser = await created('/api/tags', { name: 'from a user' }, p.client(jwt));
    assert.deepEqual((await versions(byUser.documentId)).map((v) => [v.origin, v.created_by]), [['rest', { type: 'user', id: String(user.id) }]]);

    await p.setPublic({ [TAG]: ['create'] });
    const anonymous = await created('/api/tags', { name: 'anonymous' }, p.client(null));
    assert.deepEqual((await versions(anonymous.documentId)).map((v) => [v.origin, v.created_by]), [['rest', null]]);
  });

  it('the dashboard: writes with a member\'s content access key, unpublish and discard', async () => {
    const access = await p.admin.post(`/v1/projects/${p.slug}/content-access`);
    assert.equal(access.statusCode, 200, access.body);
    const dashboard = p.client(access.json().accessKey);
    const doc = await created('/api/articles', { title: 'From the editor' }, dashboard);
    const edited = await dashboard.put(`/api/articles/${doc.documentId}?status=draft`, { data: { title: 'Edited' } });
    assert.equal(edited.statusCode, 200, edited.body);
    const base = `/v1/projects/${p.slug}/content/${ARTICLE}/${doc.documentId}`;
    assert.equal((await p.admin.post(`${base}/discard`, {})).statusCode, 204);
    assert.equal((await p.admin.post(`${base}/unpublish`, {})).statusCode, 204);
    const me = { type: 'account', id: p.owner.account.id };
    assert.deepEqual((await versions(doc.documentId)).map((v) => [v.origin, v.created_by, v.status, v.data.title, v.data.publishedAt === null]), [
      ['dashboard', me, 'published', 'From the editor', false],
      ['dashboard', me, 'modified', 'Edited', true],
      // Discarding the draft: the draft is the published content again.
      ['dashboard', me, 'published', 'From the editor', true],
      // Unpublishing: the draft stays, the document is a draft.
      ['dashboard', me, 'draft', 'From the editor', true],
    ]);
  });

  it('the import routes: origin import, by the member', async () => {
    const res = await p.admin.post(`/v1/projects/${p.slug}/import/documents`, {
      documents: [
        { uid: TAG, documentId: 'importedtag1', locale: null, status: 'published', data: { name: 'imported' }, createdAt: '2024-01-02T03:04:05.000Z', updatedAt: '2024-01-02T03:04:05.000Z', publishedAt: '2024-01-02T03:04:05.000Z' },
      ],
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual((await versions('importedtag1')).map((v) => [v.origin, v.created_by, v.status, v.data.name, v.data.createdAt]), [
      ['import', { type: 'account', id: p.owner.account.id }, 'published', 'imported', '2024-01-02T03:04:05.000Z'],
    ]);
  });

  it('a write refused after part of it ran leaves no version and no change', async () => {
    const draft = await created('/api/articles?status=draft', { views: 3 });
    const before = await versions(draft.documentId);
    assert.equal(before.length, 1);
    // The draft is updated first; publishing then validates the merged document: no title.
    const refused = await p.api.put(`/api/articles/${draft.documentId}`, { data: { views: 4 } });
    assert.equal(refused.statusCode, 400, refused.body);
    // A unique clash found when publishing, after the draft was written.
    await created('/api/articles', { title: 'Taken', slug: 'taken' });
    const clash = await p.api.put(`/api/articles/${draft.documentId}`, { data: { title: 'Mine', slug: 'taken' } });
    assert.equal(clash.statusCode, 400, clash.body);
    assert.deepEqual(await versions(draft.documentId), before);
    const read = await p.api.get(`/api/articles/${draft.documentId}?status=draft`);
    assert.equal(read.json().data.views, 3);
  });

  it('a write whose backend is killed mid-transaction leaves no version and no change', async () => {
    const doc = await created('/api/tags', { name: 'steady' });
    const admin = new pg.Client({ connectionString: t.db.url });
    await admin.connect();
    try {
      // Hold the document's write lock (writer.ts lockDocument) so the write waits inside its transaction.
      await admin.query('BEGIN');
      await admin.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${p.schema}.ct_tag:${doc.documentId}`]);
      const write = p.api.put(`/api/tags/${doc.documentId}`, { data: { name: 'never' } });
      let pid: number | undefined;
      for (let i = 0; i < 200 && pid === undefined; i++) {
        const waiting = await admin.query(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory' AND pid <> pg_backend_pid()`);
        pid = waiting.rows[0]?.pid;
        if (pid === undefined) await new Promise((r) => setTimeout(r, 25));
      }
      assert.ok(pid, 'the write waits for the lock');
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      const res = await write;
      assert.equal(res.statusCode, 503, res.body);
      assert.deepEqual(res.json().error, { status: 503, name: 'ServiceUnavailableError', message: 'The database connection was interrupted; try again', details: {} });
    } finally {
      await admin.query('ROLLBACK').catch(() => {});
      await admin.end();
    }
    assert.equal((await versions(doc.documentId)).length, 1);
    assert.equal((await p.api.get(`/api/tags/${doc.documentId}`)).json().data.name, 'steady');
  });

  it('an upload linked to an entry (ref, refId, field) records the entry\'s version with its file', async () => {
    const doc = await created('/api/tags', { name: 'with icon' });
    const form = await multipart({ files: { name: 'icon.txt', content: 'icon', type: 'text/plain' }, ref: TAG, refId: String(doc.id), field: 'icon' });
    const res = await p.api.raw('POST', '/api/upload', { payload: form.payload, headers: form.headers });
    assert.equal(res.statusCode, 201, res.body);
    const [file] = res.json();
    assert.deepEqual((await versions(doc.documentId)).map((v) => [v.origin, v.data.icon]), [['rest', null], ['rest', { id: file.id }]]);
  });

  it('a delete records no version and keeps the earlier ones', async () => {
    const doc = await created('/api/tags', { name: 'short-lived' });
    assert.equal((await p.api.del(`/api/tags/${doc.documentId}`)).statusCode, 204);
    assert.deepEqual((await versions(doc.documentId)).map((v) => v.data.name), ['short-lived']);
  });

  it('another project records in its own schema only; CONTENT_HISTORY=false records nothing', async () => {
    const off = await startTestApp({ share: t, env: { CONTENT_HISTORY: 'false' } });
    try {
      const q = await setupContentProject(off, MODEL);
      const res = await q.api.post('/api/tags', { data: { name: 'unrecorded' } });
      assert.equal(res.statusCode, 201, res.body);
      const documentId = res.json().data.documentId as string;
      assert.deepEqual(await versions(documentId, q), []);
      assert.deepEqual(await versions(documentId), []);
    } finally {
      await off.close();
    }
  });

  it('management routes stay the member\'s: the import of another project\'s member is refused', async () => {
    const other = await setupContentProject(t, MODEL);
    const res = await as(t, other.owner).post(`/v1/projects/${p.slug}/import/documents`, {
      documents: [{ uid: TAG, documentId: 'intruder1', locale: null, status: 'published', data: { name: 'x' } }],
    });
    assert.equal(res.statusCode, 404, res.body);
    assert.deepEqual(await versions('intruder1'), []);
  });
});
