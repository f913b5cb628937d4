// Releases end to end against real Postgres and Redis (management-api.md § Releases, docs/releases.md):
// the routes' shapes and refusals, the validation state (empty / ready / blocked), a release of 20
// actions over 3 types and 2 locales published all or nothing (an invalid entry: 400 naming it and
// nothing changed; fixed: everything applied, the release done and frozen), the `releases.publish`
// webhook once per publish, history versions with origin `release`, the plan's limit of pending
// releases, roles, other projects, and two publishes at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { addMember, as, signup } from '../helpers/management.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
type Json = Record<string, any>;

const type = (singular: string, plural: string, opts: { localized: boolean; draftAndPublish: boolean }, attributes: Json) => ({
  kind: 'collectionType', collectionName: plural,
  info: { singularName: singular, pluralName: plural, displayName: singular },
  options: { draftAndPublish: opts.draftAndPublish },
  pluginOptions: { i18n: { localized: opts.localized } },
  attributes,
});
const localized = { pluginOptions: { i18n: { localized: true } } };

const MODEL = {
  contentTypes: {
    'api::article.article': type('article', 'articles', { localized: true, draftAndPublish: true }, {
      title: { type: 'string', required: true, ...localized }, secret: { type: 'string', private: true, ...localized },
    }),
    'api::page.page': type('page', 'pages', { localized: true, draftAndPublish: true }, { heading: { type: 'string', required: true, ...localized } }),
    'api::author.author': type('author', 'authors', { localized: false, draftAndPublish: true }, {
      name: { type: 'string', required: true, minLength: 2 }, code: { type: 'string', unique: true },
    }),
    'api::note.note': type('note', 'notes', { localized: false, draftAndPublish: false }, { body: { type: 'text' } }),
  },
  components: {},
};

const WEBHOOKS = {
  WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_BACKOFF_MS: '50', WEBHOOKS_MAX_ATTEMPTS: '3', WEBHOOKS_RETRY_WINDOW_MS: '0',
  WEBHOOKS_RELAY_INTERVAL_MS: '100', WEBHOOKS_TIMEOUT_MS: '3000',
};

const future = (ms = 86_400_000) => new Date(Date.now() + ms).toISOString();

describe('releases', () => {
  let t: TestApp;
  let p: ContentProject;
  let rx: Receiver;
  const base = () => `/v1/projects/${p.slug}/releases`;

  /** A document created through the content API: its documentId. */
  async function create(plural: string, data: Json, query = '?status=draft'): Promise<string> {
    const res = await p.api.post(`/api/${plural}${query}`, { data });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.documentId;
  }
  async function localize(plural: string, documentId: string, locale: string, data: Json, status = 'draft'): Promise<void> {
    const res = await p.api.put(`/api/${plural}/${documentId}?locale=${locale}${status === 'draft' ? '&status=draft' : ''}`, { data });
    assert.equal(res.statusCode, 200, res.body);
  }
  async function newRelease(name: string, extra: Json = {}): Promise<Json> {
    const res = await p.admin.post(base(), { name, ...extra });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data;
  }
  async function addAction(releaseId: number, body: Json): Promise<Json> {
    const res = await p.admin.post(`${base()}/${releaseId}/actions`, body);
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data;
  }
  const release = async (id: number) => {
    const res = await p.admin.get(`${base()}/${id}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as Json;
  };
  /** The documentIds a published (or draft) list of the content API returns in a locale. */
  const listed = async (plural: string, status: 'published' | 'draft', locale?: string) => {
    const res = await p.api.get(`/api/${plural}?status=${status}&pagination[pageSize]=100${locale ? `&locale=${locale}` : ''}`);
    assert.equal(res.statusCode, 200, res.body);
    return new Set((res.json().data as Json[]).map((d) => d.documentId as string));
  };

  before(async () => {
    t = await startTestApp({ env: WEBHOOKS });
    p = await setupContentProject(t, MODEL, ['fr']);
    rx = await startReceiver();
  });
  after(async () => {
    await rx?.close();
    await t?.close();
  });

  describe('routes and shapes', () => {
    it('creates, reads, lists, updates and deletes releases in the contract\'s shape', async () => {
      const created = await p.admin.post(base(), { name: '  Spring launch ' });
      assert.equal(created.statusCode, 201, created.body);
      const r = created.json().data;
      assert.deepEqual(Object.keys(created.json()), ['data']);
      assert.deepEqual(r, {
        id: r.id, name: 'Spring launch', status: 'empty', scheduledAt: null, timezone: null, releasedAt: null,
        actions: { meta: { count: 0 } }, createdAt: r.createdAt, updatedAt: r.updatedAt,
      });
      assert.equal(typeof r.id, 'number');
      assert.match(r.createdAt, ISO);
      assert.deepEqual(await release(r.id), r);

      const when = future();
      const scheduled = await newRelease('Scheduled', { scheduledAt: when.replace('Z', '+00:00'), timezone: 'Europe/Paris' });
      assert.equal(scheduled.scheduledAt, when);
      assert.equal(scheduled.timezone, 'Europe/Paris');

      const put = await p.admin.put(`${base()}/${r.id}`, { name: 'Summer launch', scheduledAt: when, timezone: 'America/New_York' });
      assert.equal(put.statusCode, 200, put.body);
      assert.deepEqual({ ...put.json().data, updatedAt: null }, { ...r, name: 'Summer launch', scheduledAt: when, timezone: 'America/New_York', updatedAt: null });
      // A schedule cleared; the zone stays.
      const cleared = await p.admin.put(`${base()}/${r.id}`, { scheduledAt: null });
      assert.equal(cleared.json().data.scheduledAt, null);

      const list = await p.admin.get(`${base()}?status=pending&pageSize=1`);
      assert.equal(list.statusCode, 200, list.body);
      const body = list.json();
      assert.deepEqual(Object.keys(body), ['data', 'meta']);
      assert.equal(body.data.length, 1);
      assert.deepEqual(body.meta, { pagination: { page: 1, pageSize: 1, pageCount: 2, total: 2 }, pendingReleasesCount: 2 });
      assert.equal(body.data[0].id, scheduled.id, 'newest first');
      assert.deepEqual((await p.admin.get(`${base()}?status=done`)).json(), {
        data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 }, pendingReleasesCount: 2 },
      });

      assert.equal((await p.admin.del(`${base()}/${scheduled.id}`)).statusCode, 204);
      assert.equal((await p.admin.get(`${base()}/${scheduled.id}`)).statusCode, 404);
      assert.equal((await p.admin.del(`${base()}/${scheduled.id}`)).statusCode, 404);
      assert.equal((await p.admin.del(`${base()}/${r.id}`)).statusCode, 204);
    });

    it('refuses bad bodies and queries with a 400 in the envelope, never a 500', async () => {
      const past = new Date(Date.now() - 60_000).toISOString();
      const cases: Array<[Json | string, string[]]> = [
        [{}, ['name']],
        [{ name: '' }, ['name']],
        [{ name: '   ' }, ['name']],
        [{ name: 'x'.repeat(256) }, ['name']],
        [{ name: 7 }, ['name']],
        [{ name: 'x', other: 1 }, ['other']],
        [{ name: 'x', scheduledAt: future() }, ['timezone']],
        [{ name: 'x', scheduledAt: past, timezone: 'Europe/Paris' }, ['scheduledAt']],
        [{ name: 'x', scheduledAt: '2030-02-30T10:00:00Z', timezone: 'Europe/Paris' }, ['scheduledAt']],
        [{ name: 'x', scheduledAt: '2030-01-01T10:00:00', timezone: 'Europe/Paris' }, ['scheduledAt']],
        [{ name: 'x', scheduledAt: 'tomorrow', timezone: 'Europe/Paris' }, ['scheduledAt']],
        [{ name: 'x', scheduledAt: future(), timezone: 'Mars/Olympus' }, ['timezone']],
        [{ name: 'x', scheduledAt: future(), timezone: '+01:00' }, ['timezone']],
        [{ name: 'x', scheduledAt: future(), timezone: 'CET; DROP' }, ['timezone']],
        [{ name: 'x', scheduledAt: 12, timezone: 'Europe/Paris' }, ['scheduledAt']],
      ];
      for (const [body, path] of cases) {
        const res = await p.admin.post(base(), body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
        const error = res.json().error;
        assert.equal(error.name, 'ValidationError');
        assert.deepEqual(error.details.errors[0].path, path, JSON.stringify(body));
      }
      const malformed = await t.inject({ method: 'POST', url: base(), payload: '{"name":', headers: { authorization: `Bearer ${p.owner.token}`, 'content-type': 'application/json' } });
      assert.equal(malformed.statusCode, 400);
      for (const query of ['status=live', 'page=0', 'pageSize=101', 'sort=name']) {
        const res = await p.admin.get(`${base()}?${query}`);
        assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
        assert.equal(res.json().error.name, 'ValidationError');
      }
      // A schedule on a release without a zone is refused by the PUT too.
      const r = await newRelease('No zone');
      const put = await p.admin.put(`${base()}/${r.id}`, { scheduledAt: future() });
      assert.equal(put.statusCode, 400, put.body);
      assert.deepEqual(put.json().error.details.errors[0].path, ['timezone']);
      for (const id of ['abc', '0', '-1', '99999999999999999999', '999999']) {
        assert.equal((await p.admin.get(`${base()}/${id}`)).statusCode, 404, id);
      }
      assert.equal((await p.admin.del(`${base()}/${r.id}`)).statusCode, 204);
    });

    it('adds, lists, changes and removes actions; their validity; empty → ready → blocked', async () => {
      const r = await newRelease('Actions');
      assert.equal(r.status, 'empty');
      const doc = await create('articles', { title: 'Hello', secret: 's' });
      const action = await addAction(r.id, { contentType: 'api::article.article', entryDocumentId: doc, type: 'publish' });
      assert.deepEqual(Object.keys(action), ['id', 'type', 'contentType', 'entryDocumentId', 'locale', 'isEntryValid', 'entryError', 'entry']);
      assert.equal(action.entryError, null);
      assert.equal(action.type, 'publish');
      assert.equal(action.locale, 'en', 'the default locale');
      assert.equal(action.isEntryValid, true);
      // The draft as the content API returns it: private attributes left out.
      assert.deepEqual(action.entry, (await p.api.get(`/api/articles/${doc}?status=draft`)).json().data);
      assert.equal(action.entry.secret, undefined);
      assert.equal((await release(r.id)).status, 'ready');
      assert.equal((await release(r.id)).actions.meta.count, 1);

      // The same document-locale twice: 409, whatever the type.
      const dup = await p.admin.post(`${base()}/${r.id}/actions`, { contentType: 'api::article.article', entryDocumentId: doc, locale: 'en', type: 'unpublish' });
      assert.equal(dup.statusCode, 409, dup.body);
      assert.equal(dup.json().error.name, 'ApplicationError');
      // Its French version is another document-locale (that does not exist yet: 404).
      const missingFr = await p.admin.post(`${base()}/${r.id}/actions`, { contentType: 'api::article.article', entryDocumentId: doc, locale: 'fr', type: 'publish' });
      assert.equal(missingFr.statusCode, 404, missingFr.body);
      await localize('articles', doc, 'fr', { title: 'Bonjour' });
      const fr = await addAction(r.id, { contentType: 'api::article.article', entryDocumentId: doc, locale: 'fr', type: 'publish' });
      assert.equal(fr.locale, 'fr');

      const refusals: Array<[Json, number]> = [
        [{ contentType: 'api::note.note', entryDocumentId: await create('notes', { body: 'n' }, ''), type: 'publish' }, 400],
        [{ contentType: 'api::nothing.nothing', entryDocumentId: doc, type: 'publish' }, 400],
        [{ contentType: 'api::article.article', entryDocumentId: doc, locale: 'de', type: 'publish' }, 400],
        [{ contentType: 'api::article.article', entryDocumentId: doc, type: 'archive' }, 400],
        [{ contentType: 'api::article.article', entryDocumentId: doc }, 400],
        [{ contentType: 'api::article.article', entryDocumentId: 'nope', type: 'publish' }, 404],
      ];
      for (const [body, status] of refusals) {
        const res = await p.admin.post(`${base()}/${r.id}/actions`, body);
        assert.equal(res.statusCode, status, `${JSON.stringify(body)}: ${res.body}`);
        assert.equal(res.json().data, null);
      }

      // An entry whose draft would not pass publishing makes the release blocked.
      const author = await create('authors', { name: 'X' });
      const blocked = await addAction(r.id, { contentType: 'api::author.author', entryDocumentId: author, locale: 'fr', type: 'publish' });
      assert.equal(blocked.locale, null, 'not localized');
      assert.equal(blocked.isEntryValid, false);
      assert.match(blocked.entryError, /name/);
      assert.equal((await release(r.id)).status, 'blocked');
      // Unpublishing needs nothing of the draft.
      const changed = await p.admin.put(`${base()}/${r.id}/actions/${blocked.id}`, { type: 'unpublish' });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.equal(changed.json().data.type, 'unpublish');
      assert.equal(changed.json().data.isEntryValid, true);
      assert.equal((await release(r.id)).status, 'ready');
      assert.equal((await p.admin.put(`${base()}/${r.id}/actions/${blocked.id}`, { type: 'later' })).statusCode, 400);

      const page = await p.admin.get(`${base()}/${r.id}/actions?pageSize=2&page=2`);
      assert.equal(page.statusCode, 200, page.body);
      assert.deepEqual(page.json().meta, { pagination: { page: 2, pageSize: 2, pageCount: 2, total: 3 } });
      assert.deepEqual(page.json().data.map((a: Json) => a.id), [blocked.id]);

      assert.equal((await p.admin.del(`${base()}/${r.id}/actions/${blocked.id}`)).statusCode, 204);
      assert.equal((await p.admin.del(`${base()}/${r.id}/actions/${blocked.id}`)).statusCode, 404);
      assert.equal((await p.admin.put(`${base()}/${r.id}/actions/${action.id + 100000}`, { type: 'publish' })).statusCode, 404);
      assert.equal((await release(r.id)).actions.meta.count, 2);
      // A deleted entry makes its action invalid.
      assert.equal((await p.api.del(`/api/articles/${doc}?locale=fr`)).statusCode, 204);
      const actions = (await p.admin.get(`${base()}/${r.id}/actions`)).json().data as Json[];
      assert.deepEqual(actions.map((a) => [a.locale, a.isEntryValid, a.entry === null]), [['en', true, false], ['fr', false, true]]);
      assert.equal((await release(r.id)).status, 'blocked');
      assert.equal((await p.admin.del(`${base()}/${r.id}`)).statusCode, 204);
    });
  });

  it('answers hostile input on every route in the envelope, never with a 5xx', async () => {
    const r = await newRelease('Hostile');
    const doc = await create('authors', { name: 'Hostile' });
    const action = await addAction(r.id, { contentType: 'api::author.author', entryDocumentId: doc, type: 'publish' });
    const weird: unknown[] = ['', ' ', 'x'.repeat(5000), '\u0000', '%00', '../x', '__proto__', '😀', '\ud800', -1, 0, 1.5, 2 ** 63, true, null, [], {}, [null], { $gt: 1 }];
    const keys = ['name', 'scheduledAt', 'timezone', 'contentType', 'entryDocumentId', 'locale', 'type', '__proto__', 'constructor'];
    const ids = [String(r.id), String(action.id), '0', 'abc', '%20', '1e3', '99999999999999999999', '-5'];
    let seed = 7;
    const pick = <T>(list: readonly T[]): T => list[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % list.length]!;
    // A lone surrogate has no UTF-8: sent as the bytes a client would send for it.
    const enc = (v: unknown) => (v === '\ud800' ? '%ED%A0%80' : encodeURIComponent(String(v)));
    for (let i = 0; i < 300; i++) {
      const body = Object.fromEntries(Array.from({ length: pick([0, 1, 2, 3]) }, () => [pick(keys), pick(weird)]));
      const [method, url] = pick([
        ['POST', base()], ['GET', `${base()}?status=${enc(pick(weird))}`], ['GET', `${base()}/${pick(ids)}`],
        ['PUT', `${base()}/${pick(ids)}`], ['POST', `${base()}/${pick(ids)}/actions`], ['GET', `${base()}/${pick(ids)}/actions?page=${enc(pick(weird))}`],
        ['PUT', `${base()}/${pick(ids)}/actions/${pick(ids)}`], ['DELETE', `${base()}/${pick(ids)}/actions/${pick(ids)}`],
      ] as const);
      const payload = pick([body, JSON.stringify(body).slice(0, 7), pick(weird)]);
      const res = await t.inject({
        method, url, payload: method === 'GET' ? undefined : (payload as string), headers: { authorization: `Bearer ${p.owner.token}`, 'content-type': 'application/json' },
      });
      assert.ok(res.statusCode < 500, `${method} ${url} ${JSON.stringify(payload)?.slice(0, 200)}: ${res.statusCode} ${res.body}`);
      if (res.statusCode >= 400) assert.deepEqual(Object.keys(res.json()), ['data', 'error'], res.body);
    }
    assert.equal((await p.admin.del(`${base()}/${r.id}`)).statusCode, 204);
  });

  describe('publishing', () => {
    let hookId: number;
    const releaseEvents = () => rx.received.filter((r) => r.json?.event === 'releases.publish');

    before(async () => {
      const res = await p.admin.post(`/v1/projects/${p.slug}/webhooks`, {
        name: 'releases', url: rx.url, events: ['releases.publish', 'entry.publish', 'entry.unpublish'],
      });
      assert.equal(res.statusCode, 201, res.body);
      hookId = res.json().webhook.id;
    });

    it('publishes 20 actions over 3 types and 2 locales all or nothing', async () => {
      // Articles: 4 drafts in en and fr (8 publish actions); pages: 3 published in en and fr (6
      // unpublish actions); authors: 6 drafts (6 publish actions, not localized).
      const articles: string[] = [];
      for (let i = 0; i < 4; i++) {
        const id = await create('articles', { title: `Article ${i}` });
        await localize('articles', id, 'fr', { title: `Article ${i} fr` });
        articles.push(id);
      }
      const pages: string[] = [];
      for (let i = 0; i < 3; i++) {
        const id = await create('pages', { heading: `Page ${i}` }, '');
        await localize('pages', id, 'fr', { heading: `Page ${i} fr` }, 'published');
        pages.push(id);
      }
      const authors: string[] = [];
      for (let i = 0; i < 6; i++) authors.push(await create('authors', { name: `Author ${i}` }));

      const r = await newRelease('Launch');
      for (const id of articles) for (const locale of ['en', 'fr']) await addAction(r.id, { contentType: 'api::article.article', entryDocumentId: id, locale, type: 'publish' });
      for (const id of pages) for (const locale of ['en', 'fr']) await addAction(r.id, { contentType: 'api::page.page', entryDocumentId: id, locale, type: 'unpublish' });
      for (const id of authors) await addAction(r.id, { contentType: 'api::author.author', entryDocumentId: id, type: 'publish' });
      assert.equal((await release(r.id)).actions.meta.count, 20);
      assert.equal((await release(r.id)).status, 'ready');

      // One entry's draft becomes invalid after it was added: the release publishes drafts as
      // they are at publish time, so it is blocked now.
      await localize('articles', articles[2]!, 'fr', { title: null });
      assert.equal((await release(r.id)).status, 'blocked');

      const before = {
        articlesEn: await listed('articles', 'published', 'en'), articlesFr: await listed('articles', 'published', 'fr'),
        pagesEn: await listed('pages', 'published', 'en'), pagesFr: await listed('pages', 'published', 'fr'),
        authors: await listed('authors', 'published'),
      };
      // The pages' own publish events are in: start counting from here.
      await rx.waitFor(6);
      rx.received.length = 0;
      const failed = await p.admin.post(`${base()}/${r.id}/publish`);
      assert.equal(failed.statusCode, 400, failed.body);
      const error = failed.json().error;
      assert.equal(error.name, 'ValidationError');
      assert.match(error.message, new RegExp(articles[2]!));
      assert.deepEqual(error.details.errors.map((e: Json) => [e.contentType, e.entryDocumentId, e.locale]), [['api::article.article', articles[2], 'fr']]);
      assert.match(error.details.errors[0].message, /title/);

      // Nothing changed.
      assert.deepEqual({
        articlesEn: await listed('articles', 'published', 'en'), articlesFr: await listed('articles', 'published', 'fr'),
        pagesEn: await listed('pages', 'published', 'en'), pagesFr: await listed('pages', 'published', 'fr'),
        authors: await listed('authors', 'published'),
      }, before);
      for (const id of pages) assert.ok(before.pagesEn.has(id) && before.pagesFr.has(id));
      for (const id of [...articles, ...authors]) assert.ok(!before.articlesEn.has(id) && !before.authors.has(id));
      const afterFailure = await release(r.id);
      assert.equal(afterFailure.status, 'failed');
      assert.equal(afterFailure.releasedAt, null);
      const failedEvent = (await rx.waitFor(1, (x) => x.json?.event === 'releases.publish'))[0]!;
      assert.deepEqual(Object.keys(failedEvent.json).sort(), ['createdAt', 'error', 'event', 'isPublished', 'release']);
      assert.equal(failedEvent.json.isPublished, false);
      assert.equal(failedEvent.json.release.id, r.id);
      assert.equal(failedEvent.json.release.status, 'failed');
      assert.match(failedEvent.json.error.message, new RegExp(articles[2]!));
      assert.equal(rx.received.filter((x) => x.json?.event !== 'releases.publish').length, 0, 'no entry event of the rolled-back publish');

      // Fixed: the whole release goes out.
      await localize('articles', articles[2]!, 'fr', { title: 'Fixed' });
      const published = await p.admin.post(`${base()}/${r.id}/publish`);
      assert.equal(published.statusCode, 200, published.body);
      const done = published.json().data;
      assert.equal(done.status, 'done');
      assert.match(done.releasedAt, ISO);
      assert.deepEqual(await release(r.id), done);

      for (const locale of ['en', 'fr']) {
        const live = await listed('articles', 'published', locale);
        for (const id of articles) assert.ok(live.has(id), `article ${id} ${locale} published`);
        const pagesLive = await listed('pages', 'published', locale);
        const pageDrafts = await listed('pages', 'draft', locale);
        for (const id of pages) assert.ok(!pagesLive.has(id) && pageDrafts.has(id), `page ${id} ${locale} unpublished, its draft kept`);
      }
      const authorsLive = await listed('authors', 'published');
      for (const id of authors) assert.ok(authorsLive.has(id));
      const fixed = await p.api.get(`/api/articles/${articles[2]}?locale=fr`);
      assert.equal(fixed.json().data.title, 'Fixed', 'the draft as it was at publish time');

      // The webhook: each document's events, and releases.publish once.
      const events = await rx.waitFor(1 + 14 + 6 + 1, () => true, 20_000);
      const ok = events.filter((x) => x.json.event === 'releases.publish' && x.json.isPublished === true);
      assert.equal(ok.length, 1);
      assert.deepEqual(Object.keys(ok[0]!.json), ['event', 'createdAt', 'isPublished', 'release']);
      assert.deepEqual(ok[0]!.json.release, done);
      assert.equal(events.filter((x) => x.json.event === 'entry.publish').length, 14);
      assert.equal(events.filter((x) => x.json.event === 'entry.unpublish').length, 6);
      const deliveries = (await p.admin.get(`/v1/projects/${p.slug}/webhooks/${hookId}/deliveries`)).json().deliveries as Json[];
      assert.equal(deliveries.filter((d) => d.event === 'releases.publish').length, 2, 'one for the failure, one for the publish');

      // History: one version per document-locale, origin release, by the member.
      const versions = await t.platform.db.pool.any(compiledQuery({
        text: `SELECT content_type, related_document_id, locale, status, created_by::text AS created_by FROM t_${p.id}.history_versions WHERE origin = 'release' ORDER BY id`,
        values: [],
      })) as unknown as Json[];
      assert.equal(versions.length, 20);
      assert.ok(versions.every((v) => JSON.parse(v.created_by).type === 'account' && JSON.parse(v.created_by).id === p.owner.account.id));
      assert.deepEqual(versions.filter((v) => v.content_type === 'api::page.page').map((v) => v.status), Array(6).fill('draft'));
      assert.deepEqual(versions.filter((v) => v.content_type === 'api::author.author').map((v) => v.status), Array(6).fill('published'));

      // Done releases are frozen.
      const frozen: Array<[string, string, Json?]> = [
        ['PUT', `${base()}/${r.id}`, { name: 'Again' }],
        ['DELETE', `${base()}/${r.id}`],
        ['POST', `${base()}/${r.id}/publish`],
        ['POST', `${base()}/${r.id}/actions`, { contentType: 'api::author.author', entryDocumentId: await create('authors', { name: 'Late' }), type: 'publish' }],
        ['PUT', `${base()}/${r.id}/actions/${(await p.admin.get(`${base()}/${r.id}/actions`)).json().data[0].id}`, { type: 'unpublish' }],
        ['DELETE', `${base()}/${r.id}/actions/${(await p.admin.get(`${base()}/${r.id}/actions`)).json().data[0].id}`],
      ];
      for (const [method, url, payload] of frozen) {
        const res = await t.inject({ method: method as 'GET', url, payload, headers: { authorization: `Bearer ${p.owner.token}` } });
        assert.equal(res.statusCode, 400, `${method} ${url}: ${res.body}`);
        assert.equal(res.json().error.name, 'ValidationError');
      }
      assert.deepEqual(await release(r.id), done);
      const doneList = (await p.admin.get(`${base()}?status=done`)).json();
      assert.deepEqual(doneList.data.map((x: Json) => x.id), [r.id]);
      // An empty release has nothing to publish.
      const empty = await newRelease('Empty');
      const none = await p.admin.post(`${base()}/${empty.id}/publish`);
      assert.equal(none.statusCode, 400, none.body);
      assert.equal((await release(empty.id)).status, 'empty');
      assert.equal((await p.admin.del(`${base()}/${empty.id}`)).statusCode, 204);
    });

    it('rolls back the entries already applied when a later one fails while publishing', async () => {
      // Drafts may share a unique value; only one may be published with it. Both are valid on
      // their own, so the release is ready, and the second publish in the transaction fails.
      const first = await create('authors', { name: 'Unique A', code: 'same' });
      const second = await create('authors', { name: 'Unique B', code: 'same' });
      const page = await create('pages', { heading: 'Published page' }, '');
      const r = await newRelease('Unique');
      await addAction(r.id, { contentType: 'api::page.page', entryDocumentId: page, type: 'unpublish' });
      await addAction(r.id, { contentType: 'api::author.author', entryDocumentId: first, type: 'publish' });
      await addAction(r.id, { contentType: 'api::author.author', entryDocumentId: second, type: 'publish' });
      assert.equal((await release(r.id)).status, 'ready');
      const res = await p.admin.post(`${base()}/${r.id}/publish`);
      assert.equal(res.statusCode, 400, res.body);
      const [failure, ...more] = res.json().error.details.errors as Json[];
      assert.equal(more.length, 0);
      assert.ok([first, second].includes(failure!.entryDocumentId));
      assert.equal(failure!.message, 'This attribute must be unique');
      const live = await listed('authors', 'published');
      assert.ok(!live.has(first) && !live.has(second), 'neither author published');
      assert.ok((await listed('pages', 'published', 'en')).has(page), 'the page is still published');
      assert.equal((await release(r.id)).status, 'failed');
      // The release changed (one of them left out): no longer failed; it publishes.
      const actions = (await p.admin.get(`${base()}/${r.id}/actions`)).json().data as Json[];
      const clash = actions.find((a) => a.entryDocumentId === failure!.entryDocumentId)!;
      assert.equal((await p.admin.del(`${base()}/${r.id}/actions/${clash.id}`)).statusCode, 204);
      assert.equal((await release(r.id)).status, 'ready');
      assert.equal((await p.admin.post(`${base()}/${r.id}/publish`)).statusCode, 200);
      assert.ok(!(await listed('pages', 'published', 'en')).has(page));
    });

    it('publishes once when two publishes run at once', async () => {
      const r = await newRelease('Twice');
      for (let i = 0; i < 3; i++) await addAction(r.id, { contentType: 'api::author.author', entryDocumentId: await create('authors', { name: `Twice ${i}` }), type: 'publish' });
      const answers = await Promise.all([p.admin.post(`${base()}/${r.id}/publish`), p.admin.post(`${base()}/${r.id}/publish`)]);
      assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 400], answers.map((a) => a.body).join('\n'));
      const loser = answers.find((a) => a.statusCode === 400)!;
      assert.match(loser.json().error.message, /already published/);
      // Deliveries of the tests before may still arrive: count this release's own.
      const ours = (x: { json: Json }) => x.json.release?.id === r.id || /^Twice /.test(x.json.entry?.name ?? '');
      await rx.waitFor(4, ours, 20_000);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.equal(rx.received.filter((x) => ours(x) && x.json.event === 'releases.publish').length, 1);
      assert.equal(rx.received.filter((x) => ours(x) && x.json.event === 'entry.publish').length, 3);
      const versions = await t.platform.db.pool.oneFirst(compiledQuery({
        text: `SELECT count(*)::int FROM t_${p.id}.history_versions WHERE origin = 'release' AND data->>'name' LIKE 'Twice %'`, values: [],
      }));
      assert.equal(versions, 3);
    });
  });

  describe('access', () => {
    it('lets viewers read only, and keeps other projects\' releases apart', async () => {
      const r = await newRelease('Access');
      const doc = await create('authors', { name: 'Viewer' });
      const action = await addAction(r.id, { contentType: 'api::author.author', entryDocumentId: doc, type: 'publish' });
      const viewer = await signup(t);
      await addMember(t, p.id, viewer, 'viewer');
      const v = as(t, viewer);
      assert.equal((await v.get(`${base()}/${r.id}`)).statusCode, 200);
      assert.equal((await v.get(base())).statusCode, 200);
      assert.equal((await v.get(`${base()}/${r.id}/actions`)).statusCode, 200);
      const writes = [
        await v.post(base(), { name: 'Mine' }),
        await v.put(`${base()}/${r.id}`, { name: 'Mine' }),
        await v.del(`${base()}/${r.id}`),
        await v.post(`${base()}/${r.id}/actions`, { contentType: 'api::author.author', entryDocumentId: doc, type: 'unpublish' }),
        await v.put(`${base()}/${r.id}/actions/${action.id}`, { type: 'unpublish' }),
        await v.del(`${base()}/${r.id}/actions/${action.id}`),
        await v.post(`${base()}/${r.id}/publish`),
      ];
      assert.deepEqual(writes.map((w) => w.statusCode), Array(7).fill(403));
      assert.equal((await release(r.id)).name, 'Access');
      const editor = await signup(t);
      await addMember(t, p.id, editor, 'editor');
      assert.equal((await as(t, editor).put(`${base()}/${r.id}`, { name: 'By the editor' })).statusCode, 200);

      // Another project: its own releases only (ids are per project), and no access to ours.
      const other = await setupContentProject(t, MODEL);
      const theirs = `/v1/projects/${other.slug}/releases`;
      assert.equal((await other.admin.get(`${theirs}/${r.id}`)).statusCode, 404);
      assert.equal((await other.admin.post(`${theirs}/${r.id}/publish`)).statusCode, 404);
      assert.equal((await other.admin.get(`${theirs}/${r.id}/actions`)).statusCode, 404);
      assert.equal((await other.admin.del(`${theirs}/${r.id}/actions/${action.id}`)).statusCode, 404);
      assert.equal((await other.admin.get(`${base()}/${r.id}`)).statusCode, 404, 'not a member');
      // An action naming a document of our project is a 404 there.
      const mine = await other.admin.post(theirs, { name: 'Theirs' });
      assert.equal((await other.admin.post(`${theirs}/${mine.json().data.id}/actions`, { contentType: 'api::author.author', entryDocumentId: doc, type: 'publish' })).statusCode, 404);
      assert.equal((await release(r.id)).actions.meta.count, 1);
      assert.equal((await p.admin.del(`${base()}/${r.id}`)).statusCode, 204);
    });
  });
});

describe('releases: the plan\'s limit of pending releases', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { PLAN_LIMITS: 'true' } });
  });
  after(async () => t?.close());

  it('allows 3 pending releases on free: the 4th is a 403 naming the limit', async () => {
    const p = await setupContentProject(t, MODEL);
    const base = `/v1/projects/${p.slug}/releases`;
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await p.admin.post(base, { name: `R${i}` });
      assert.equal(res.statusCode, 201, res.body);
      ids.push(res.json().data.id);
    }
    const fourth = await p.admin.post(base, { name: 'R3' });
    assert.equal(fourth.statusCode, 403, fourth.body);
    assert.deepEqual(fourth.json(), {
      data: null,
      error: {
        status: 403, name: 'ForbiddenError',
        message: 'The free plan allows 3 pending releases: publish or delete one, or upgrade the plan',
        details: { limit: 'pendingReleases', plan: 'free', max: 3 },
      },
    });
    assert.equal((await p.admin.get(base)).json().meta.pendingReleasesCount, 3);
    // Concurrent creations do not pass the limit together.
    assert.equal((await p.admin.del(`${base}/${ids[0]}`)).statusCode, 204);
    const raced = await Promise.all([0, 1, 2].map((i) => p.admin.post(base, { name: `Race ${i}` })));
    assert.deepEqual(raced.map((r) => r.statusCode).sort(), [201, 403, 403]);
    // A published release no longer counts.
    const doc = (await p.api.post('/api/authors?status=draft', { data: { name: 'Limit' } })).json().data.documentId;
    const act = await p.admin.post(`${base}/${ids[1]}/actions`, { contentType: 'api::author.author', entryDocumentId: doc, type: 'publish' });
    assert.equal(act.statusCode, 201, act.body);
    assert.equal((await p.admin.post(`${base}/${ids[1]}/publish`)).statusCode, 200);
    assert.equal((await p.admin.post(base, { name: 'After publish' })).statusCode, 201);
    assert.equal((await p.admin.post(base, { name: 'One too many' })).statusCode, 403);
  });
});
