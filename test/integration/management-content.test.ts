// The dashboard's way into a project's content: content access keys minted for a member (full
// access for owners and editors, read-only for viewers, only in their own project, short-lived,
// not metered), and the draft & publish actions the content API lacks: unpublish and discard.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ContentAccessKeys } from '@cms/auth';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { forbidden, notFound, unauthorized } from '../helpers/envelope.ts';
import { addMember, as, signup, type Session } from '../helpers/management.ts';

const MODEL = {
  contentTypes: {
    'api::article.article': {
      kind: 'collectionType',
      info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true },
      pluginOptions: { i18n: { localized: true } },
      attributes: {
        title: { type: 'string', required: true, pluginOptions: { i18n: { localized: true } } },
        views: { type: 'integer', pluginOptions: { i18n: { localized: false } } },
      },
    },
    'api::note.note': {
      kind: 'collectionType',
      info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      options: { draftAndPublish: false },
      attributes: { text: { type: 'string' } },
    },
  },
  components: {},
};

describe('content access keys and draft & publish actions (management API)', () => {
  let t: TestApp;
  let p: ContentProject;
  let other: ContentProject;
  let viewer: Session;
  let stranger: Session;
  let base: string;

  const keyFor = async (session: Session, slug = p.slug) => {
    const res = await as(t, session).post(`/v1/projects/${slug}/content-access`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { accessKey: string; expiresAt: string; access: string };
  };
  const versions = async (documentId: string) =>
    (await t.platform.db.pool.any(compiledQuery({
      text: `SELECT locale, title, views, published_at IS NOT NULL AS published FROM ${p.schema}.ct_article WHERE document_id = $1 ORDER BY locale, published_at NULLS FIRST`,
      values: [documentId],
    }))).map((r) => ({ ...r }));

  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, MODEL, ['fr']);
    other = await setupContentProject(t, MODEL);
    viewer = await signup(t);
    stranger = await signup(t);
    await addMember(t, p.id, viewer, 'viewer');
    base = `/v1/projects/${p.slug}`;
  });
  after(() => t?.close());

  describe('POST /v1/projects/{slug}/content-access', () => {
    it('gives owners a full-access key that works on the project content API, for 10 minutes', async () => {
      const before = Date.now();
      const key = await keyFor(p.owner);
      assert.equal(key.access, 'full-access');
      assert.match(key.accessKey, /^cmsk_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
      const ttl = Date.parse(key.expiresAt) - before;
      assert.ok(ttl > 9.9 * 60_000 && ttl <= 10 * 60_000 + 1000, String(ttl));
      const created = await p.client(key.accessKey).post('/api/articles?status=draft', { data: { title: 'By the dashboard' } });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal(created.json().data.title, 'By the dashboard');
      const read = await p.client(key.accessKey).get(`/api/articles/${created.json().data.documentId}?status=draft`);
      assert.equal(read.statusCode, 200);
    });

    it('gives viewers a read-only key: reads and counts pass, writes are 403', async () => {
      const key = await keyFor(viewer);
      assert.equal(key.access, 'read-only');
      const api = p.client(key.accessKey);
      assert.equal((await api.get('/api/articles')).statusCode, 200);
      const counted = await api.get('/api/users/count');
      assert.deepEqual([counted.statusCode, counted.json()], [200, 0]);
      const write = await api.post('/api/articles', { data: { title: 'no' } });
      assert.deepEqual([write.statusCode, write.json()], [403, forbidden()]);
      const users = await api.post('/api/users', { username: 'x', email: 'x@example.com', password: 'secret123' });
      assert.equal(users.statusCode, 403);
    });

    it('a key works only in its own project; forged, altered and expired keys are refused', async () => {
      const key = (await keyFor(p.owner)).accessKey;
      const elsewhere = await other.client(key).get('/api/articles');
      assert.deepEqual([elsewhere.statusCode, elsewhere.json()], [401, unauthorized()]);
      const [payload, signature] = key.slice(5).split('.');
      const altered = `cmsk_${Buffer.from(JSON.stringify([other.id, p.owner.account.id, 'full-access', Date.now() + 60_000])).toString('base64url')}.${signature}`;
      for (const bad of [altered, `${key}x`, `cmsk_${payload}`, `cmsk_${payload}.${signature}.x`, 'cmsk_', 'cmsk_e30.AAAA']) {
        const res = await p.client(bad).get('/api/articles');
        assert.deepEqual([res.statusCode, res.json()], [401, unauthorized()], bad);
      }
      // A key signed with the platform's secret whose time is over.
      const past = new ContentAccessKeys(t.env.APP_SECRET!, () => Date.now() - 11 * 60_000).issue({ projectId: p.id, accountId: p.owner.account.id, access: 'full-access' });
      const expired = await p.client(past.accessKey).get('/api/articles');
      assert.deepEqual([expired.statusCode, expired.json()], [401, unauthorized('Token expired')]);
      // Another platform's secret.
      const foreign = new ContentAccessKeys('another secret of 32 characters!!').issue({ projectId: p.id, accountId: p.owner.account.id, access: 'full-access' });
      assert.equal((await p.client(foreign.accessKey).get('/api/articles')).statusCode, 401);
    });

    it('is refused without a session (401) and to accounts that are not members (404)', async () => {
      const anonymous = await t.inject({ method: 'POST', url: `${base}/content-access` });
      assert.equal(anonymous.statusCode, 401);
      const res = await as(t, stranger).post(`${base}/content-access`);
      assert.deepEqual([res.statusCode, res.json()], [404, notFound()]);
    });

    it('the dashboard calls are not metered as API usage', async () => {
      await t.platform.usage.flush();
      const requests = async () => (await as(t, p.owner).get(`${base}/usage`)).json().requests as number;
      const start = await requests();
      const key = (await keyFor(p.owner)).accessKey;
      for (let i = 0; i < 3; i++) assert.equal((await p.client(key).get('/api/articles')).statusCode, 200);
      assert.equal(await requests(), start);
      assert.equal((await p.api.get('/api/articles')).statusCode, 200);
      assert.equal(await requests(), start + 1);
    });
  });

  describe('unpublish and discard', () => {
    const publish = async (title: string) => {
      const res = await p.api.post('/api/articles', { data: { title, views: 1 } });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().data.documentId as string;
    };

    it('unpublish removes the published version and keeps the draft', async () => {
      const id = await publish('Live');
      const res = await as(t, p.owner).post(`${base}/content/api::article.article/${id}/unpublish`, {});
      assert.equal(res.statusCode, 204, res.body);
      assert.deepEqual(await versions(id), [{ locale: 'en', title: 'Live', views: 1, published: false }]);
      assert.equal((await p.api.get(`/api/articles/${id}`)).statusCode, 404);
      assert.equal((await p.api.get(`/api/articles/${id}?status=draft`)).json().data.title, 'Live');
    });

    it('discard puts the published version back into the draft', async () => {
      const id = await publish('Published title');
      assert.equal((await p.api.put(`/api/articles/${id}?status=draft`, { data: { title: 'Unsaved idea', views: 7 } })).statusCode, 200);
      const modified = await p.api.get('/api/articles?status=draft&publicationFilter=modified&fields[0]=title');
      assert.ok(modified.json().data.some((d: { documentId: string }) => d.documentId === id));
      const res = await as(t, p.owner).post(`${base}/content/api::article.article/${id}/discard`);
      assert.equal(res.statusCode, 204, res.body);
      assert.deepEqual(await versions(id), [
        { locale: 'en', title: 'Published title', views: 1, published: false },
        { locale: 'en', title: 'Published title', views: 1, published: true },
      ]);
      const unmodified = await p.api.get('/api/articles?status=draft&publicationFilter=unmodified&fields[0]=title');
      assert.ok(unmodified.json().data.some((d: { documentId: string }) => d.documentId === id));
    });

    it('act on one locale, or every locale with "*"', async () => {
      const id = await publish('English');
      assert.equal((await p.api.put(`/api/articles/${id}?locale=fr`, { data: { title: 'Français' } })).statusCode, 200);
      const fr = await as(t, p.owner).post(`${base}/content/api::article.article/${id}/unpublish`, { locale: 'fr' });
      assert.equal(fr.statusCode, 204, fr.body);
      assert.deepEqual((await versions(id)).map((v) => [v.locale, v.published]), [['en', false], ['en', true], ['fr', false]]);
      const all = await as(t, p.owner).post(`${base}/content/api::article.article/${id}/unpublish`, { locale: '*' });
      assert.equal(all.statusCode, 204);
      assert.deepEqual((await versions(id)).map((v) => [v.locale, v.published]), [['en', false], ['fr', false]]);
    });

    it('refuses what cannot be done, in the envelope, changing nothing', async () => {
      const id = await publish('Kept');
      const draftOnly = (await p.api.post('/api/articles?status=draft', { data: { title: 'Never published' } })).json().data.documentId;
      const cases: Array<[string, unknown, number, string]> = [
        [`${base}/content/api::article.article/${draftOnly}/discard`, {}, 400, 'This document has no published version to go back to'],
        [`${base}/content/api::note.note/${id}/unpublish`, {}, 400, 'This content type has no draft & publish'],
        [`${base}/content/api::article.article/${id}/unpublish`, { locale: 'de' }, 400, "This locale doesn't exist"],
        [`${base}/content/api::article.article/${id}/unpublish`, { locale: 'en', extra: 1 }, 400, 'extra is not a valid key'],
        [`${base}/content/api::nope.nope/${id}/unpublish`, {}, 404, 'Not Found'],
        [`${base}/content/api::article.article/nothing-here/discard`, {}, 404, 'Not Found'],
      ];
      for (const [url, body, status, message] of cases) {
        const res = await as(t, p.owner).post(url, body);
        assert.deepEqual([res.statusCode, res.json().error.message], [status, message], `${url} ${res.body}`);
      }
      assert.deepEqual((await versions(id)).map((v) => v.published), [false, true]);
    });

    it('viewers may not, strangers see nothing, another project cannot reach these documents', async () => {
      const id = await publish('Guarded');
      const url = `${base}/content/api::article.article/${id}/unpublish`;
      const byViewer = await as(t, viewer).post(url, {});
      assert.equal(byViewer.statusCode, 403);
      const byStranger = await as(t, stranger).post(url, {});
      assert.deepEqual([byStranger.statusCode, byStranger.json()], [404, notFound()]);
      // The other project's owner names this document through their own project.
      const across = await as(t, other.owner).post(`/v1/projects/${other.slug}/content/api::article.article/${id}/unpublish`, {});
      assert.deepEqual([across.statusCode, across.json()], [404, notFound()]);
      assert.deepEqual((await versions(id)).map((v) => v.published), [false, true]);
    });
  });
});
