// Preview (management-api.md § Preview and draft access, docs/preview.md): the project's preview
// settings and preview URLs, who may read drafts under `draftAccess` per credential kind (REST and
// GraphQL), and release previews (`?release=`, GraphQL `release:`) that answer as the documents
// will be once the release is published. On the real Postgres and Redis, two gateways for the
// settings' propagation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentClient, type ContentProject } from '../helpers/content.ts';
import { envelope, forbidden, notFound } from '../helpers/envelope.ts';
import { gql } from '../helpers/graphql.ts';
import { addMember, as, signup } from '../helpers/management.ts';
import { collectionType as ct } from '../fixtures/index.ts';

type Json = Record<string, any>;

const localized = { pluginOptions: { i18n: { localized: true } } };
const MODEL = {
  contentTypes: {
    'api::article.article': ct('article', 'articles', {
      title: { type: 'string', ...localized },
      category: { type: 'relation', relation: 'manyToOne', target: 'api::category.category' },
    }, localized),
    'api::category.category': ct('category', 'categories', { name: { type: 'string' } }),
    'api::homepage.homepage': { ...ct('homepage', 'homepages', { headline: { type: 'string' } }), kind: 'singleType' },
    'api::note.note': { ...ct('note', 'notes', { body: { type: 'string' } }), options: { draftAndPublish: false } },
  },
  components: {},
};

const ARTICLE = 'api::article.article';
const CATEGORY = 'api::category.category';
const READ = ['find', 'findOne'];

async function waitFor(check: () => Promise<boolean>, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('preview', () => {
  let t: TestApp;
  let t2: TestApp;
  let p: ContentProject;
  let other: ContentProject;
  const ids: Record<string, string> = {};
  const clients: Record<string, ContentClient> = {};
  let pendingRelease: number;
  let doneRelease: number;

  const settingsUrl = () => `/v1/projects/${p.slug}/settings/preview`;
  const setDraftAccess = async (draftAccess: string) => {
    const res = await p.admin.put(settingsUrl(), { draftAccess });
    assert.equal(res.statusCode, 200, res.body);
  };
  const created = async (url: string, data: Json) => {
    const res = await p.api.post(url, { data });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.documentId as string;
  };
  const put = async (url: string, data: Json) => {
    const res = await p.api.put(url, { data });
    assert.equal(res.statusCode, 200, res.body);
  };
  const newRelease = async (project: ContentProject, name: string) => {
    const res = await project.admin.post(`/v1/projects/${project.slug}/releases`, { name });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.id as number;
  };
  const addAction = async (releaseId: number, body: Json) => {
    const res = await p.admin.post(`/v1/projects/${p.slug}/releases/${releaseId}/actions`, body);
    assert.equal(res.statusCode, 201, res.body);
  };
  /** Titles of a REST article list (sorted), checking the total against them. */
  const titles = async (client: ContentClient, query: string) => {
    const res = await client.get(`/api/articles?${query}&pagination[pageSize]=100`);
    assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
    const body = res.json();
    assert.equal(body.meta.pagination.total, body.data.length, query);
    return (body.data as Json[]).map((a) => a.title as string).sort();
  };

  before(async () => {
    t = await startTestApp();
    t2 = await startTestApp({ share: t });
    p = await setupContentProject(t, MODEL, ['fr']);
    other = await setupContentProject(t, MODEL);

    ids.catPub = await created('/api/categories', { name: 'Cat A' });
    await put(`/api/categories/${ids.catPub}?status=draft`, { name: 'Cat A draft' });
    ids.catNew = await created('/api/categories?status=draft', { name: 'Cat new' });
    ids.a1 = await created('/api/articles', { title: 'A1' });
    await put(`/api/articles/${ids.a1}?status=draft`, { title: 'A1 v2' });
    await put(`/api/articles/${ids.a1}?locale=fr`, { title: 'A1 fr' });
    await put(`/api/articles/${ids.a1}?locale=fr&status=draft`, { title: 'A1 fr v2' });
    ids.a2 = await created('/api/articles?status=draft', { title: 'A2 new', category: ids.catNew });
    ids.a3 = await created('/api/articles', { title: 'A3' });
    ids.a4 = await created('/api/articles', { title: 'A4', category: ids.catPub });
    ids.a5 = await created('/api/articles', { title: 'A5' });
    await put(`/api/articles/${ids.a5}?status=draft`, { title: 'A5 v2' });
    await put('/api/homepage', { headline: 'Home' });
    await put('/api/homepage?status=draft', { headline: 'Home v2' });
    await created('/api/notes', { body: 'N1' });

    // Pending: publishes a1 (en), a2 and its new category and the homepage's draft, unpublishes a3.
    pendingRelease = await newRelease(p, 'Launch');
    await addAction(pendingRelease, { contentType: ARTICLE, entryDocumentId: ids.a1, locale: 'en', type: 'publish' });
    await addAction(pendingRelease, { contentType: ARTICLE, entryDocumentId: ids.a2, locale: 'en', type: 'publish' });
    await addAction(pendingRelease, { contentType: ARTICLE, entryDocumentId: ids.a3, locale: 'en', type: 'unpublish' });
    await addAction(pendingRelease, { contentType: CATEGORY, entryDocumentId: ids.catNew, type: 'publish' });
    await addAction(pendingRelease, { contentType: 'api::homepage.homepage', entryDocumentId: await homepageId(), type: 'publish' });
    // Done: published a5's draft ("A5 v2"); its draft changed afterwards.
    doneRelease = await newRelease(p, 'Past');
    await addAction(doneRelease, { contentType: ARTICLE, entryDocumentId: ids.a5, locale: 'en', type: 'publish' });
    const published = await p.admin.post(`/v1/projects/${p.slug}/releases/${doneRelease}/publish`);
    assert.equal(published.statusCode, 200, published.body);
    await put(`/api/articles/${ids.a5}?status=draft`, { title: 'A5 v3' });

    // Credentials of every kind.
    clients.full = p.api;
    clients.readOnly = p.client(await p.token('read-only'));
    clients.custom = p.client(await p.token('custom', { [ARTICLE]: READ, [CATEGORY]: READ }));
    clients.customPreview = p.client(await p.token('custom', { [ARTICLE]: [...READ, 'preview'], [CATEGORY]: READ }));
    clients.customPreviewAll = p.client(await p.token('custom', { [ARTICLE]: [...READ, 'preview'], [CATEGORY]: [...READ, 'preview'] }));
    await p.setPublic({ [ARTICLE]: READ, 'api::homepage.homepage': ['find'] });
    clients.public = p.client(null);
    const roles = await p.admin.put(`/v1/projects/${p.slug}/roles/authenticated/permissions`, { permissions: { [ARTICLE]: READ } });
    assert.equal(roles.statusCode, 200, roles.body);
    const registered = await p.client(null).post('/api/auth/local/register', { username: 'reader', email: 'reader@example.com', password: 'secret123' });
    assert.equal(registered.statusCode, 200, registered.body);
    clients.endUser = p.client(registered.json().jwt);
    const ownerKey = await p.admin.post(`/v1/projects/${p.slug}/content-access`);
    clients.dashboardOwner = p.client(ownerKey.json().accessKey);
    const viewer = await signup(t);
    await addMember(t, p.id, viewer, 'viewer');
    const viewerKey = await as(t, viewer).post(`/v1/projects/${p.slug}/content-access`);
    assert.equal(viewerKey.json().access, 'read-only');
    clients.dashboardViewer = p.client(viewerKey.json().accessKey);
  });
  after(async () => {
    await t2?.close();
    await t?.close();
  });

  async function homepageId(): Promise<string> {
    const res = await p.api.get('/api/homepage');
    return res.json().data.documentId;
  }

  describe('settings/preview', () => {
    it('answers the defaults, then what was stored', async () => {
      const initial = await p.admin.get(settingsUrl());
      assert.equal(initial.statusCode, 200, initial.body);
      assert.deepEqual(initial.json(), { preview: { draftAccess: 'find', urls: {} } });
      const template = 'https://site.example/api/preview?type={type}&id={documentId}&locale={locale}&status={status}';
      const res = await p.admin.put(settingsUrl(), { draftAccess: 'find', urls: { [ARTICLE]: template, 'api::note.note': 'http://localhost:3000/notes/{documentId}' } });
      assert.equal(res.statusCode, 200, res.body);
      const preview = { draftAccess: 'find', urls: { [ARTICLE]: template, 'api::note.note': 'http://localhost:3000/notes/{documentId}' } };
      assert.deepEqual(res.json(), { preview });
      assert.deepEqual((await p.admin.get(settingsUrl())).json(), { preview });
      // A subset keeps the rest; `urls` replaces the map.
      const partial = await p.admin.put(settingsUrl(), { urls: { [ARTICLE]: template } });
      assert.deepEqual(partial.json(), { preview: { draftAccess: 'find', urls: { [ARTICLE]: template } } });
    });

    it('refuses bad values with a 400 naming each of them', async () => {
      const cases: Array<[unknown, string[], RegExp]> = [
        [{ draftAccess: 'everyone' }, ['draftAccess'], /draftAccess must be one of "find", "preview"/],
        [{ urls: [] }, ['urls'], /urls must be an object/],
        [{ urls: { 'api::nope.nope': 'https://x.example' } }, ['urls', 'api::nope.nope'], /not a content type of this project/],
        [{ urls: { [ARTICLE]: 42 } }, ['urls', ARTICLE], /must be a string/],
        [{ urls: { [ARTICLE]: 'ftp://x.example/{documentId}' } }, ['urls', ARTICLE], /absolute http or https URL/],
        [{ urls: { [ARTICLE]: '/relative/{documentId}' } }, ['urls', ARTICLE], /absolute http or https URL/],
        [{ urls: { [ARTICLE]: 'javascript:alert(1)' } }, ['urls', ARTICLE], /absolute http or https URL/],
        [{ urls: { [ARTICLE]: 'https://x.example/{slug}' } }, ['urls', ARTICLE], /unknown placeholder \{slug\}/],
        [{ urls: { [ARTICLE]: 'https://x.example/{documentId' } }, ['urls', ARTICLE], /unclosed/],
        [{ urls: { [ARTICLE]: 'https://x.example/ a' } }, ['urls', ARTICLE], /spaces/],
        [{ urls: { [ARTICLE]: `https://x.example/${'a'.repeat(2100)}` } }, ['urls', ARTICLE], /1 to 2048 characters/],
        [{ urls: { [ARTICLE]: '' } }, ['urls', ARTICLE], /1 to 2048 characters/],
        [{ colour: 'red' }, ['colour'], /colour is not a valid key/],
      ];
      for (const [body, path, message] of cases) {
        const res = await p.admin.put(settingsUrl(), body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body).slice(0, 100)}: ${res.body}`);
        const { error } = res.json();
        assert.equal(error.name, 'ValidationError');
        assert.deepEqual(error.details.errors[0].path, path);
        assert.match(error.details.errors[0].message, message);
      }
      const many = await p.admin.put(settingsUrl(), { draftAccess: 1, urls: { [ARTICLE]: 'x' } });
      assert.equal(many.json().error.message, '2 errors occurred');
      const notObject = await p.admin.put(settingsUrl(), ['find']);
      assert.deepEqual(notObject.json(), envelope(400, 'ValidationError', 'Preview settings must be an object'));
      // Nothing was stored by the refused changes.
      assert.equal((await p.admin.get(settingsUrl())).json().preview.draftAccess, 'find');
    });

    it('viewers read the settings but cannot change them; other accounts see no such project', async () => {
      const viewer = await signup(t);
      await addMember(t, p.id, viewer, 'viewer');
      assert.equal((await as(t, viewer).get(settingsUrl())).statusCode, 200);
      const denied = await as(t, viewer).put(settingsUrl(), { draftAccess: 'preview' });
      assert.equal(denied.statusCode, 403, denied.body);
      const editor = await signup(t);
      await addMember(t, p.id, editor, 'editor');
      assert.equal((await as(t, editor).put(settingsUrl(), { draftAccess: 'find' })).statusCode, 200);
      // The other project's owner: this project does not exist for them, and their own settings are theirs.
      assert.deepEqual((await other.admin.get(settingsUrl())).json(), notFound());
      assert.deepEqual((await other.admin.put(settingsUrl(), { draftAccess: 'preview' })).json(), notFound());
      const own = await other.admin.put(`/v1/projects/${other.slug}/settings/preview`, { draftAccess: 'preview' });
      assert.equal(own.statusCode, 200, own.body);
      assert.equal((await p.admin.get(settingsUrl())).json().preview.draftAccess, 'find');
      assert.equal((await other.admin.get(`/v1/projects/${other.slug}/settings/preview`)).json().preview.draftAccess, 'preview');
      assert.equal((await other.admin.get(`/v1/projects/${other.slug}/preview-url?contentType=${ARTICLE}`)).statusCode, 204);
    });
  });

  describe('preview-url', () => {
    const url = (query: string) => p.admin.get(`/v1/projects/${p.slug}/preview-url?${query}`);

    it('fills the type\'s template for the document, every value URL-encoded', async () => {
      const put = await p.admin.put(settingsUrl(), {
        urls: {
          [ARTICLE]: 'https://site.example/api/preview?type={type}&uid={uid}&id={documentId}&locale={locale}&status={status}',
          'api::homepage.homepage': 'https://site.example/{type}?draft={status}&l={locale}',
        },
      });
      assert.equal(put.statusCode, 200, put.body);
      const res = await url(`contentType=${ARTICLE}&documentId=${encodeURIComponent('a b&c/é')}&locale=fr&status=published`);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), {
        data: { url: 'https://site.example/api/preview?type=article&uid=api%3A%3Aarticle.article&id=a%20b%26c%2F%C3%A9&locale=fr&status=published' },
      });
      // Defaults: the default locale, the draft of a type with draft & publish.
      const defaults = await url(`contentType=${ARTICLE}&documentId=${ids.a1}`);
      assert.equal(defaults.json().data.url, `https://site.example/api/preview?type=article&uid=api%3A%3Aarticle.article&id=${ids.a1}&locale=en&status=draft`);
      const single = await url('contentType=api::homepage.homepage');
      assert.equal(single.json().data.url, 'https://site.example/homepage?draft=draft&l=');
    });

    it('answers 204 for a type without a template, 404 for an unknown type, 400 for bad parameters', async () => {
      const none = await url(`contentType=${CATEGORY}&documentId=${ids.catPub}`);
      assert.equal(none.statusCode, 204);
      assert.equal(none.body, '');
      assert.deepEqual((await url('contentType=api::nope.nope')).json(), notFound('Content type not found'));
      assert.equal((await url('documentId=x')).statusCode, 400);
      const status = await url(`contentType=${ARTICLE}&status=live`);
      assert.equal(status.statusCode, 400);
      assert.deepEqual(status.json().error.details.errors[0].path, ['status']);
      assert.equal((await url(`contentType=${ARTICLE}&documentId=${'x'.repeat(65)}`)).statusCode, 400);
      // Viewers may ask too (a GET); other accounts may not.
      assert.deepEqual((await other.admin.get(`/v1/projects/${p.slug}/preview-url?contentType=${ARTICLE}`)).json(), notFound());
    });
  });

  describe('the preview action of custom tokens', () => {
    it('is accepted for content types, not for plugins nor roles', async () => {
      const base = `/v1/projects/${p.slug}`;
      const ok = await p.admin.post(`${base}/api-tokens`, { name: 'previewer', type: 'custom', permissions: { [ARTICLE]: ['preview', 'find'] } });
      assert.equal(ok.statusCode, 201, ok.body);
      assert.deepEqual(ok.json().apiToken.permissions, { [ARTICLE]: ['find', 'preview'] });
      const plugin = await p.admin.post(`${base}/api-tokens`, { name: 'previewer-2', type: 'custom', permissions: { 'plugin::upload': ['preview'] } });
      assert.equal(plugin.statusCode, 400, plugin.body);
      const role = await p.admin.put(`${base}/roles/public/permissions`, { permissions: { [ARTICLE]: ['find', 'preview'] } });
      assert.equal(role.statusCode, 400, role.body);
      assert.match(role.json().error.message, /preview is not an action of api::article\.article/);
    });
  });

  describe('draftAccess', () => {
    const restDraft = async (client: ContentClient) => {
      const list = await client.get('/api/articles?status=draft');
      const one = await client.get(`/api/articles/${ids.a2}?status=draft`);
      return [list.statusCode, one.statusCode];
    };
    const gqlDraft = async (client: ContentClient) => {
      const { status, body } = await gql(client, `query($id: ID!) { articles(status: DRAFT) { title } article(documentId: $id, status: DRAFT) { title } }`, { id: ids.a2 });
      assert.equal(status, 200, JSON.stringify(body));
      return body.errors ? body.errors.map((e: Json) => e.extensions.code) : 'ok';
    };
    const ALLOWED = ['full', 'customPreview', 'customPreviewAll', 'dashboardOwner', 'dashboardViewer'];
    const REFUSED = ['readOnly', 'custom', 'public', 'endUser'];

    it('"find" (the default) is Strapi\'s rule: whoever may find a type reads its drafts', async () => {
      await setDraftAccess('find');
      for (const name of [...ALLOWED, ...REFUSED]) {
        assert.deepEqual(await restDraft(clients[name]!), [200, 200], name);
        assert.equal(await gqlDraft(clients[name]!), 'ok', name);
      }
      const drafts = await titles(clients.readOnly!, 'status=draft');
      assert.deepEqual(drafts, ['A1 v2', 'A2 new', 'A3', 'A4', 'A5 v3']);
    });

    it('"preview": drafts only with a full-access token, a token holding preview, or a member\'s dashboard key', async () => {
      await setDraftAccess('preview');
      for (const name of ALLOWED) {
        assert.deepEqual(await restDraft(clients[name]!), [200, 200], name);
        assert.equal(await gqlDraft(clients[name]!), 'ok', name);
      }
      for (const name of REFUSED) {
        assert.deepEqual(await restDraft(clients[name]!), [403, 403], name);
        assert.deepEqual(await gqlDraft(clients[name]!), ['FORBIDDEN', 'FORBIDDEN'], name);
      }
      const refused = await clients.readOnly!.get('/api/articles?status=draft');
      assert.deepEqual(refused.json(), forbidden());
      // Published reads are as they were for everyone.
      for (const name of [...ALLOWED, ...REFUSED]) {
        assert.equal((await clients[name]!.get('/api/articles')).statusCode, 200, name);
        assert.equal((await clients[name]!.get('/api/articles?status=published')).statusCode, 200, name);
      }
      // A type without draft & publish has no drafts: `status=draft` reads it as always.
      assert.equal((await clients.readOnly!.get('/api/notes?status=draft')).statusCode, 200);
      // Writes answer as they did (a draft write reads back its draft).
      const write = await p.api.put(`/api/articles/${ids.a5}?status=draft`, { data: { title: 'A5 v3' } });
      assert.equal(write.statusCode, 200, write.body);
    });

    it('"preview": a token reaches only the drafts of the types it may preview through populate', async () => {
      await setDraftAccess('preview');
      const query = `/api/articles/${ids.a2}?status=draft&populate=category`;
      const partial = await clients.customPreview!.get(query);
      assert.equal(partial.statusCode, 200, partial.body);
      assert.equal(partial.json().data.title, 'A2 new');
      assert.equal('category' in partial.json().data, false, 'category drafts need the category\'s preview action');
      const whole = await clients.customPreviewAll!.get(query);
      assert.equal(whole.json().data.category.name, 'Cat new');
      // The same query under "find": every type the token may find.
      await setDraftAccess('find');
      assert.equal((await clients.customPreview!.get(query)).json().data.category.name, 'Cat new');
    });

    it('a change applies at once, on every gateway (the project is invalidated everywhere)', async () => {
      await setDraftAccess('find');
      // The public role, on the second gateway.
      const second = (url: string) => t2.inject({ method: 'GET', url: `/p/${p.slug}${url}` });
      assert.equal((await second('/api/articles?status=draft')).statusCode, 200);
      await setDraftAccess('preview');
      assert.equal((await clients.public!.get('/api/articles?status=draft')).statusCode, 403);
      await waitFor(async () => (await second('/api/articles?status=draft')).statusCode === 403);
      await setDraftAccess('find');
      assert.equal((await clients.public!.get('/api/articles?status=draft')).statusCode, 200);
      await waitFor(async () => (await second('/api/articles?status=draft')).statusCode === 200);
    });
  });

  describe('release previews', () => {
    const RELEASE_VIEW = ['A1 v2', 'A2 new', 'A4', 'A5 v2'];
    const PUBLISHED = ['A1', 'A3', 'A4', 'A5 v2'];

    it('REST lists and documents read as the release will publish them', async () => {
      await setDraftAccess('find');
      assert.deepEqual(await titles(p.api, ''), PUBLISHED);
      assert.deepEqual(await titles(p.api, `release=${pendingRelease}`), RELEASE_VIEW);
      // Another locale: no action there, its published versions.
      assert.deepEqual(await titles(p.api, `release=${pendingRelease}&locale=fr`), ['A1 fr']);
      // Filters, sorts and pages apply to the previewed rows.
      assert.deepEqual(await titles(p.api, `release=${pendingRelease}&filters[title][$startsWith]=A2`), ['A2 new']);
      const page = await p.api.get(`/api/articles?release=${pendingRelease}&sort=title:desc&pagination[pageSize]=2`);
      assert.deepEqual(page.json().data.map((a: Json) => a.title), ['A5 v2', 'A4']);
      assert.deepEqual(page.json().meta.pagination, { page: 1, pageSize: 2, pageCount: 2, total: 4 });

      const a2 = await p.api.get(`/api/articles/${ids.a2}?release=${pendingRelease}&populate=category`);
      assert.equal(a2.statusCode, 200, a2.body);
      assert.equal(a2.json().data.title, 'A2 new');
      assert.notEqual(a2.json().data.publishedAt, null, 'published once the release is');
      // Relations follow the release too: a2's category is published by the same release.
      assert.equal(a2.json().data.category.name, 'Cat new');
      const a4 = await p.api.get(`/api/articles/${ids.a4}?release=${pendingRelease}&populate=category`);
      assert.equal(a4.json().data.category.name, 'Cat A', 'a category the release leaves alone reads its published version');
      assert.equal((await p.api.get(`/api/articles/${ids.a3}?release=${pendingRelease}`)).statusCode, 404, 'unpublished by the release');
      assert.equal((await p.api.get(`/api/articles/${ids.a2}`)).statusCode, 404, 'not published yet');
      const home = await p.api.get(`/api/homepage?release=${pendingRelease}`);
      assert.equal(home.json().data.headline, 'Home v2');
      assert.equal((await p.api.get('/api/homepage')).json().data.headline, 'Home');
      // A type without draft & publish reads its rows.
      assert.equal((await p.api.get(`/api/notes?release=${pendingRelease}`)).json().data.length, 1);
    });

    it('a done release answers the published content', async () => {
      assert.deepEqual(await titles(p.api, `release=${doneRelease}`), PUBLISHED);
      assert.equal((await p.api.get(`/api/articles/${ids.a5}?release=${doneRelease}`)).json().data.title, 'A5 v2');
    });

    it('unknown releases, another project\'s and malformed ids answer 404; a draft status with a release 400', async () => {
      const missing = notFound('Release not found');
      assert.deepEqual((await p.api.get('/api/articles?release=987654')).json(), missing);
      assert.deepEqual((await p.api.get(`/api/articles/${ids.a1}?release=abc`)).json(), missing);
      // The other project's releases are numbered in its own schema: one this project does not have.
      let foreign = 0;
      while (foreign <= doneRelease) foreign = await newRelease(other, `Other ${foreign}`);
      assert.deepEqual((await p.api.get(`/api/articles?release=${foreign}`)).json(), missing);
      assert.equal((await other.api.get(`/api/articles?release=${foreign}`)).statusCode, 200);
      const draft = await p.api.get(`/api/articles?release=${pendingRelease}&status=draft`);
      assert.equal(draft.statusCode, 400, draft.body);
      assert.equal((await p.api.get(`/api/articles?release=${pendingRelease}&publicationFilter=modified`)).statusCode, 400);
      assert.equal((await p.api.get('/api/articles?release[x]=1')).statusCode, 400);
    });

    it('only draft-capable credentials preview a release', async () => {
      await setDraftAccess('preview');
      for (const name of ['full', 'customPreview', 'dashboardOwner', 'dashboardViewer']) {
        assert.deepEqual(await titles(clients[name]!, `release=${pendingRelease}`), RELEASE_VIEW, name);
      }
      for (const name of ['readOnly', 'custom', 'public', 'endUser']) {
        assert.deepEqual((await clients[name]!.get(`/api/articles?release=${pendingRelease}`)).json(), forbidden(), name);
        const { body } = await gql(clients[name]!, `{ articles(release: "${pendingRelease}") { title } }`);
        assert.equal(body.errors[0].extensions.code, 'FORBIDDEN', name);
      }
      // A forbidden caller learns nothing about which releases exist.
      assert.deepEqual((await clients.readOnly!.get('/api/articles?release=987654')).json(), forbidden());
      await setDraftAccess('find');
      // Under "find", whoever may find the type.
      assert.deepEqual(await titles(clients.public!, `release=${pendingRelease}`), RELEASE_VIEW);
    });

    it('GraphQL: the release argument on collections, connections, documents and single types', async () => {
      const query = `query($r: ID, $id: ID!) {
        articles(release: $r, sort: "title") { title publishedAt category { name } }
        articles_connection(release: $r) { pageInfo { total } }
        article(documentId: $id, release: $r) { title }
        homepage(release: $r) { headline }
      }`;
      const { status, body } = await gql(p.api, query, { r: String(pendingRelease), id: ids.a2 });
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      assert.deepEqual(body.data.articles.map((a: Json) => a.title), RELEASE_VIEW);
      assert.ok(body.data.articles.every((a: Json) => a.publishedAt !== null));
      assert.deepEqual(body.data.articles.map((a: Json) => a.category?.name ?? null), [null, 'Cat new', 'Cat A', null]);
      assert.equal(body.data.articles_connection.pageInfo.total, 4);
      assert.equal(body.data.article.title, 'A2 new');
      assert.equal(body.data.homepage.headline, 'Home v2');
      // No release: the published content, through the same fields.
      const plain = await gql(p.api, query, { r: null, id: ids.a2 });
      assert.deepEqual(plain.body.data.articles.map((a: Json) => a.title), PUBLISHED);
      assert.equal(plain.body.data.article, null);
      const done = await gql(p.api, query, { r: String(doneRelease), id: ids.a5 });
      assert.deepEqual(done.body.data.articles.map((a: Json) => a.title), PUBLISHED);
      assert.equal(done.body.data.article.title, 'A5 v2');
      const unknown = await gql(p.api, '{ articles(release: "987654") { title } }');
      assert.equal(unknown.body.errors[0].extensions.error.name, 'NotFoundError');
      assert.equal(unknown.body.errors[0].message, 'Release not found');
      const withDraft = await gql(p.api, `{ articles(release: "${pendingRelease}", status: DRAFT) { title } }`);
      assert.equal(withDraft.body.errors[0].extensions.code, 'BAD_USER_INPUT');
    });

    it('every release shares one compiled read per query shape (the id is bound)', async () => {
      const reads = t.platform.runtimes.reads;
      const query = (release: number) => `/api/articles?release=${release}&populate=category&filters[title][$ne]=zzz`;
      await p.api.get(query(pendingRelease));
      const shapes = reads.countOf(p.id).shapes;
      const res = await p.api.get(query(doneRelease));
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(reads.countOf(p.id).shapes, shapes, 'no new shape for another release');
      assert.deepEqual(res.json().data.map((a: Json) => a.title).sort(), PUBLISHED);
    });
  });
});
