// Delivery (management-api.md § Delivery: HTTP caching, docs/delivery.md): strong ETags and 304s
// on REST and GraphQL GETs, Cache-Control by credential class and status, surrogate keys of
// populated reads, the gateways' answer cache — hits, and never a stale or foreign answer:
// write-then-read rounds across two gateways, model, permission, token and settings changes,
// projects and credential classes kept apart — and the CDN purge receiver. Real Postgres and
// Redis, two gateways sharing them.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentClient, type ContentProject } from '../helpers/content.ts';
import { collectionType as ct } from '../fixtures/index.ts';

type Json = Record<string, any>;

const MODEL = {
  contentTypes: {
    'api::article.article': ct('article', 'articles', {
      title: { type: 'string' },
      category: { type: 'relation', relation: 'manyToOne', target: 'api::category.category' },
    }),
    'api::category.category': ct('category', 'categories', { name: { type: 'string' } }),
    'api::homepage.homepage': { ...ct('homepage', 'homepages', { headline: { type: 'string' } }), kind: 'singleType' },
  },
  components: {},
};
const ARTICLE = 'api::article.article';
const CATEGORY = 'api::category.category';
const HOMEPAGE = 'api::homepage.homepage';
const READ = ['find', 'findOne'];

/** A CDN purge endpoint: every POST body's keys, in arrival order. */
async function purgeReceiver(): Promise<{ server: Server; url: string; batches: string[][]; auth: string[] }> {
  const batches: string[][] = [];
  const auth: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      batches.push((JSON.parse(body) as { keys: string[] }).keys);
      auth.push(req.headers.authorization ?? '');
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/purge`, batches, auth };
}

async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('delivery: HTTP caching and the answer cache', () => {
  let t: TestApp;
  let t2: TestApp;
  let p: ContentProject;
  let other: ContentProject;
  let receiver: Awaited<ReturnType<typeof purgeReceiver>>;
  const ids: Record<string, string> = {};
  /** The same project through the second gateway. */
  let p2Public: ContentClient;

  const created = async (client: ContentClient, url: string, data: Json) => {
    const res = await client.post(url, { data });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.documentId as string;
  };

  before(async () => {
    receiver = await purgeReceiver();
    const env = { CDN_PURGE_URL: receiver.url, CDN_PURGE_TOKEN: 'purge-secret' };
    t = await startTestApp({ env });
    t2 = await startTestApp({ share: t });
    p = await setupContentProject(t, MODEL);
    other = await setupContentProject(t, MODEL);
    ids.cat = await created(p.api, '/api/categories', { name: 'News' });
    ids.a1 = await created(p.api, '/api/articles', { title: 'First', category: ids.cat });
    ids.a2 = await created(p.api, '/api/articles', { title: 'Second' });
    const home = await p.api.put('/api/homepage', { data: { headline: 'Welcome' } });
    assert.equal(home.statusCode, 200, home.body);
    await p.setPublic({ [ARTICLE]: READ, [CATEGORY]: READ, [HOMEPAGE]: ['find'] });
    await other.setPublic({ [ARTICLE]: READ });
    const roles = await p.admin.put(`/v1/projects/${p.slug}/roles/authenticated/permissions`, { permissions: { [ARTICLE]: READ } });
    assert.equal(roles.statusCode, 200, roles.body);
    await created(other.api, '/api/articles', { title: 'Other project' });
    p2Public = {
      get: (url, headers) => t2.inject({ method: 'GET', url: `/p/${p.slug}${url}`, headers }),
    } as ContentClient;
  });

  after(async () => {
    await t2?.close();
    await t?.close();
    receiver?.server.close();
  });

  describe('ETag and 304', () => {
    for (const url of ['/api/articles', '/api/articles?populate=category&sort=title', '/api/homepage']) {
      it(`REST ${url}: a strong ETag, 304 for If-None-Match, 200 again after a change`, async () => {
        const first = await p.client(null).get(url);
        assert.equal(first.statusCode, 200, first.body);
        const etag = first.headers.etag as string;
        assert.match(etag, /^"[A-Za-z0-9_-]{27}"$/);
        const again = await p.client(null).get(url);
        assert.equal(again.headers.etag, etag);
        assert.equal(again.body, first.body);
        const notModified = await p.client(null).get(url, { 'if-none-match': etag });
        assert.equal(notModified.statusCode, 304);
        assert.equal(notModified.body, '');
        assert.equal(notModified.headers.etag, etag);
        // Weak comparison, and a list of tags.
        assert.equal((await p.client(null).get(url, { 'if-none-match': `"nope", W/${etag}` })).statusCode, 304);
        assert.equal((await p.client(null).get(url, { 'if-none-match': '"nope"' })).statusCode, 200);
      });
    }

    it('a document read: a change gives another ETag and the old one answers 200', async () => {
      const url = `/api/articles/${ids.a2}`;
      const before = await p.client(null).get(url);
      const etag = before.headers.etag as string;
      const res = await p.api.put(url, { data: { title: 'Second, edited' } });
      assert.equal(res.statusCode, 200);
      const after = await p.client(null).get(url, { 'if-none-match': etag });
      assert.equal(after.statusCode, 200);
      assert.equal(after.json().data.title, 'Second, edited');
      assert.notEqual(after.headers.etag, etag);
    });

    it('GraphQL over GET: ETag and 304; a POST carries none', async () => {
      const query = encodeURIComponent('{ articles(sort: "title") { title } }');
      const url = `/graphql?query=${query}`;
      const headers = { 'apollo-require-preflight': 'true' };
      const first = await p.client(null).get(url, headers);
      assert.equal(first.statusCode, 200, first.body);
      assert.deepEqual(first.json().data.articles.map((a: Json) => a.title), ['First', 'Second, edited']);
      const etag = first.headers.etag as string;
      assert.match(etag, /^"[A-Za-z0-9_-]{27}"$/);
      assert.equal((await p.client(null).get(url, { ...headers, 'if-none-match': etag })).statusCode, 304);
      const posted = await p.client(null).post('/graphql', { query: '{ articles(sort: "title") { title } }' });
      assert.equal(posted.statusCode, 200);
      assert.equal(posted.headers.etag, undefined);
      assert.equal(posted.headers['cache-control'], undefined);
      assert.equal(posted.body, first.body);
    });

    it('other GETs of a project carry an ETag too (media list, locales)', async () => {
      const files = await p.api.get('/api/upload/files');
      assert.equal(files.statusCode, 200, files.body);
      assert.match(files.headers.etag as string, /^"/);
      assert.equal((await p.api.get('/api/upload/files', { 'if-none-match': files.headers.etag as string })).statusCode, 304);
    });
  });

  describe('Cache-Control and Surrogate-Key', () => {
    it('public published reads: public with the project\'s s-maxage; tokens and JWTs: private, no-cache; drafts: no-store', async () => {
      const pub = await p.client(null).get('/api/articles');
      assert.equal(pub.headers['cache-control'], 'public, s-maxage=60, stale-while-revalidate=300');
      assert.match(pub.headers.vary as string, /Authorization/);
      const token = await p.api.get('/api/articles');
      assert.equal(token.headers['cache-control'], 'private, no-cache');
      const draft = await p.api.get('/api/articles?status=draft');
      assert.equal(draft.statusCode, 200);
      assert.equal(draft.headers['cache-control'], 'private, no-store');
      const registered = await p.client(null).post('/api/auth/local/register', { username: 'reader', email: 'reader@example.com', password: 'secret123' });
      assert.equal(registered.statusCode, 200, registered.body);
      const jwt = await p.client(registered.json().jwt).get('/api/articles');
      assert.equal(jwt.statusCode, 200, jwt.body);
      assert.equal(jwt.headers['cache-control'], 'private, no-cache');
      const gqlDraft = await p.api.post('/graphql', { query: '{ articles(status: DRAFT) { title } }' });
      assert.equal(gqlDraft.statusCode, 200, gqlDraft.body);
      const gqlGetDraft = await p.api.get(`/graphql?query=${encodeURIComponent('{ articles(status: DRAFT) { title } }')}`, { 'apollo-require-preflight': '1' });
      assert.equal(gqlGetDraft.headers['cache-control'], 'private, no-store');
    });

    it('the project setting sets s-maxage (validated), on every gateway', async () => {
      const bad = await p.admin.put(`/v1/projects/${p.slug}/settings/delivery`, { sMaxAge: -1, other: true });
      assert.equal(bad.statusCode, 400);
      assert.deepEqual(bad.json().error.details.errors.map((e: Json) => e.path[0]).sort(), ['other', 'sMaxAge']);
      const res = await p.admin.put(`/v1/projects/${p.slug}/settings/delivery`, { sMaxAge: 600 });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { delivery: { sMaxAge: 600, answerCache: true } });
      assert.deepEqual((await p.admin.get(`/v1/projects/${p.slug}/settings/delivery`)).json(), { delivery: { sMaxAge: 600, answerCache: true } });
      assert.equal((await p.client(null).get('/api/articles')).headers['cache-control'], 'public, s-maxage=600, stale-while-revalidate=300');
      assert.equal((await p2Public.get('/api/articles')).headers['cache-control'], 'public, s-maxage=600, stale-while-revalidate=300');
      await p.admin.put(`/v1/projects/${p.slug}/settings/delivery`, { sMaxAge: 60 });
    });

    it('a populated read names the project, its types and every document in it', async () => {
      const res = await p.client(null).get('/api/articles?populate=category&sort=title');
      assert.equal(res.statusCode, 200);
      const keys = (res.headers['surrogate-key'] as string).split(' ').sort();
      assert.deepEqual(keys, [`d:${ids.a1}`, `d:${ids.a2}`, `d:${ids.cat}`, `p:${p.id}`, `t:${ARTICLE}`, `t:${CATEGORY}`].sort());
      const one = await p.client(null).get(`/api/articles/${ids.a2}`);
      assert.deepEqual((one.headers['surrogate-key'] as string).split(' ').sort(), [`d:${ids.a2}`, `p:${p.id}`, `t:${ARTICLE}`].sort());
      const gql = await p.client(null).get(`/graphql?query=${encodeURIComponent('{ articles { documentId } }')}`, { 'apollo-require-preflight': '1' });
      assert.deepEqual((gql.headers['surrogate-key'] as string).split(' ').sort(), [`d:${ids.a1}`, `d:${ids.a2}`, `p:${p.id}`, `t:${ARTICLE}`].sort());
      // Nested reads name their types even when the documents' ids are not selected.
      const nested = await p.client(null).get(`/graphql?query=${encodeURIComponent('{ articles { title category { name } } }')}`, { 'apollo-require-preflight': '1' });
      assert.deepEqual((nested.headers['surrogate-key'] as string).split(' ').sort(), [`p:${p.id}`, `t:${ARTICLE}`, `t:${CATEGORY}`].sort());
    });
  });

  describe('the answer cache', () => {
    /** A client of project `p` through gateway `app`. */
    const on = (app: TestApp, token: string | null): ContentClient => {
      const raw = (method: string, url: string, opts: { payload?: object; headers?: Record<string, string> } = {}) => app.inject({
        method: method as 'GET', url: `/p/${p.slug}${url}`, payload: opts.payload,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...opts.headers },
      });
      return {
        raw: raw as ContentClient['raw'],
        get: (url, headers) => raw('GET', url, { headers }),
        post: (url, payload, headers) => raw('POST', url, { payload: payload as object, headers }),
        put: (url, payload, headers) => raw('PUT', url, { payload: payload as object, headers }),
        del: (url, headers) => raw('DELETE', url, { headers }),
      };
    };

    it('a repeated read is a hit on each gateway; a write makes the next one a miss with the new content', async () => {
      const url = `/api/articles/${ids.a1}?populate=category`;
      const first = await p.client(null).get(url);
      assert.ok(['miss', 'hit'].includes(first.headers['x-answer-cache'] as string));
      const second = await p.client(null).get(url);
      assert.equal(second.headers['x-answer-cache'], 'hit');
      assert.equal(second.body, first.body);
      assert.equal(second.headers.etag, first.headers.etag);
      await p2Public.get(url);
      assert.equal((await p2Public.get(url)).headers['x-answer-cache'], 'hit');
      const put = await p.api.put(`/api/categories/${ids.cat}`, { data: { name: 'World' } });
      assert.equal(put.statusCode, 200);
      for (const client of [p.client(null), p2Public]) {
        const res = await client.get(url);
        assert.equal(res.headers['x-answer-cache'], 'miss');
        assert.equal(res.json().data.category.name, 'World');
      }
    });

    it('0 stale reads in 1,000 write-then-read rounds across two gateways, both directions, with and without If-None-Match', async () => {
      const token = await p.token('full-access');
      const writers = [on(t, token), on(t2, token)];
      const readers = [on(t2, null), on(t, null)];
      const docId = await created(p.api, '/api/articles', { title: 'round 0' });
      const stale: string[] = [];
      const etags: Array<string | undefined> = [undefined, undefined];
      for (let i = 1; i <= 1_000; i++) {
        const side = i % 2;
        const reader = readers[side]!;
        const listUrl = i % 4 < 2 ? `/api/articles/${docId}` : `/api/articles?filters[documentId][$eq]=${docId}`;
        // Warm the reader's cache with the current content…
        const warm = await reader.get(listUrl, etags[side] ? { 'if-none-match': etags[side]! } : {});
        assert.ok(warm.statusCode === 200 || warm.statusCode === 304, warm.body);
        // …write on the other gateway…
        const res = await writers[side]!.put(`/api/articles/${docId}`, { data: { title: `round ${i}` } });
        assert.equal(res.statusCode, 200, res.body);
        // …and read right after its answer, half the time with the ETag the reader last saw.
        const conditional: Record<string, string> = i % 3 === 0 && warm.headers.etag ? { 'if-none-match': warm.headers.etag as string } : {};
        const read = await reader.get(listUrl, conditional);
        if (read.statusCode !== 200) {
          stale.push(`${i}: ${read.statusCode}`);
          continue;
        }
        const body = read.json();
        const title = Array.isArray(body.data) ? body.data[0]?.title : body.data.title;
        if (title !== `round ${i}`) stale.push(`${i}: ${title}`);
        etags[side] = read.headers.etag as string;
      }
      assert.deepEqual(stale, []);
    });

    it('GraphQL answers are kept and renewed by a mutation', async () => {
      const query = '{ categories { name } }';
      await p.client(null).post('/graphql', { query });
      const hit = await p.client(null).post('/graphql', { query });
      assert.equal(hit.headers['x-answer-cache'], 'hit');
      const renamed = await p.api.post('/graphql', { query: `mutation { updateCategory(documentId: "${ids.cat}", data: { name: "Sport" }) { name } }` });
      assert.equal(renamed.statusCode, 200, renamed.body);
      assert.equal(renamed.headers['x-answer-cache'], undefined);
      const after = await p2Public.get(`/graphql?query=${encodeURIComponent(query)}`, { 'apollo-require-preflight': '1' });
      assert.deepEqual(after.json(), { data: { categories: [{ name: 'Sport' }] } });
      const again = await p.client(null).post('/graphql', { query });
      assert.equal(again.headers['x-answer-cache'], 'miss');
      assert.deepEqual(again.json(), { data: { categories: [{ name: 'Sport' }] } });
    });

    it('a cached answer never crosses credential classes or projects', async () => {
      const url = '/api/articles?populate=category&sort=title';
      const readOnly = p.client(await p.token('read-only'));
      const articlesOnly = p.client(await p.token('custom', { [ARTICLE]: READ }));
      const full = await readOnly.get(url);
      assert.equal(full.statusCode, 200);
      assert.equal((await readOnly.get(url)).headers['x-answer-cache'], 'hit');
      assert.ok(full.json().data.every((a: Json) => 'category' in a));
      const limited = await articlesOnly.get(url);
      assert.equal(limited.statusCode, 200);
      assert.ok(limited.json().data.every((a: Json) => !('category' in a)), limited.body);
      // The public role may not read categories any more: its answer differs from the token's.
      await p.setPublic({ [ARTICLE]: READ, [HOMEPAGE]: ['find'] });
      const pub = await p.client(null).get(url);
      assert.equal(pub.statusCode, 200);
      assert.ok(pub.json().data.every((a: Json) => !('category' in a)), pub.body);
      // A read-only token's kept answer is never the public role's.
      assert.equal((await readOnly.get('/api/categories')).statusCode, 200);
      assert.equal((await readOnly.get('/api/categories')).headers['x-answer-cache'], 'hit');
      assert.equal((await p.client(null).get('/api/categories')).statusCode, 403);
      await p.setPublic({ [ARTICLE]: READ, [CATEGORY]: READ, [HOMEPAGE]: ['find'] });
      // Another project's same URL: its own documents.
      const theirs = await other.client(null).get('/api/articles');
      assert.deepEqual(theirs.json().data.map((a: Json) => a.title), ['Other project']);
      const viaHost = await t.inject({ method: 'GET', url: '/api/articles', headers: { host: `${other.slug}.example.test` } });
      assert.deepEqual(viaHost.json().data.map((a: Json) => a.title), ['Other project']);
    });

    it('a model change, a permission change and a token revoke apply to the next read, on every gateway', async () => {
      // The second gateway hears of changes 400 ms late (a slow bus), as another process may: its
      // reads must not wait for the message to see the change.
      const handlers = (t2.platform.bus as unknown as { handlers: Map<string, Array<(m: string) => void>> }).handlers;
      const channel = [...handlers.keys()].find((k) => k.endsWith('invalidate'))!;
      const prompt = handlers.get(channel)!;
      handlers.set(channel, prompt.map((h) => (m: string) => void setTimeout(() => h(m), 400)));
      after(() => void handlers.set(channel, prompt));
      const url = `/api/articles/${ids.a1}`;
      await p.client(null).get(url);
      assert.equal((await p.client(null).get(url)).headers['x-answer-cache'], 'hit');
      const model = structuredClone(MODEL) as Json;
      model.contentTypes[ARTICLE].attributes.subtitle = { type: 'string' };
      const pushed = await p.admin.put(`/v1/projects/${p.slug}/schema`, model);
      assert.equal(pushed.statusCode, 200, pushed.body);
      const read = await p.client(null).get(url);
      assert.equal(read.statusCode, 200);
      assert.equal(read.json().data.subtitle, null);
      // The other gateway, right after the change's answer (its invalidation may still be on its way).
      const other = await p2Public.get(url);
      assert.equal(other.statusCode, 200);
      assert.equal(other.json().data.subtitle, null, other.body);
      // Permission: the public role loses findOne; both gateways refuse the next read.
      await p.client(null).get(url);
      await p2Public.get(url);
      await p.setPublic({ [ARTICLE]: ['find'], [CATEGORY]: READ, [HOMEPAGE]: ['find'] });
      assert.equal((await p2Public.get(url)).statusCode, 403);
      assert.equal((await p.client(null).get(url)).statusCode, 403);
      await p.setPublic({ [ARTICLE]: READ, [CATEGORY]: READ, [HOMEPAGE]: ['find'] });
      // Token: revoked, its next read is refused though its answer was kept.
      const token = await p.token('read-only');
      const tokens = (await p.admin.get(`/v1/projects/${p.slug}/api-tokens`)).json();
      const list = (tokens.data ?? tokens.apiTokens ?? tokens) as Json[];
      await p.client(token).get(url);
      assert.equal((await p.client(token).get(url)).headers['x-answer-cache'], 'hit');
      const newest = list.reduce((a, b) => (Number(a.id) > Number(b.id) ? a : b));
      const revoked = await p.admin.del(`/v1/projects/${p.slug}/api-tokens/${newest.id}`);
      assert.ok(revoked.statusCode === 200 || revoked.statusCode === 204, revoked.body);
      assert.equal((await p.client(token).get(url)).statusCode, 401);
      assert.equal((await on(t2, token).get(url)).statusCode, 401);
    });

    it('the project setting turns the cache off (and on again)', async () => {
      const url = '/api/categories';
      const off = await p.admin.put(`/v1/projects/${p.slug}/settings/delivery`, { answerCache: false });
      assert.equal(off.statusCode, 200, off.body);
      await p.client(null).get(url);
      const res = await p.client(null).get(url);
      assert.equal(res.headers['x-answer-cache'], 'bypass');
      assert.match(res.headers.etag as string, /^"/);
      await p.admin.put(`/v1/projects/${p.slug}/settings/delivery`, { answerCache: true });
      await p.client(null).get(url);
      assert.equal((await p.client(null).get(url)).headers['x-answer-cache'], 'hit');
    });
  });

  describe('CDN purges', () => {
    it('a write sends its type and document keys; a settings change the project key', async () => {
      const from = receiver.batches.length;
      const res = await p.api.put(`/api/articles/${ids.a2}`, { data: { title: 'Purged' } });
      assert.equal(res.statusCode, 200);
      await eventually(() => receiver.batches.slice(from).flat().includes(`d:${ids.a2}`));
      const keys = new Set(receiver.batches.slice(from).flat());
      assert.ok(keys.has(`t:${ARTICLE}`), [...keys].join(' '));
      assert.equal(receiver.auth.at(-1), 'Bearer purge-secret');
      const next = receiver.batches.length;
      await p.admin.put(`/v1/projects/${p.slug}/settings/delivery`, { sMaxAge: 30 });
      await eventually(() => receiver.batches.slice(next).flat().includes(`p:${p.id}`));
      // Another project's change names only that project's keys.
      const mark = receiver.batches.length;
      await created(other.api, '/api/articles', { title: 'Elsewhere' });
      await eventually(() => receiver.batches.length > mark);
      assert.ok(!receiver.batches.slice(mark).flat().some((k) => k === `p:${p.id}` || k === `d:${ids.a2}`));
    });
  });
});
