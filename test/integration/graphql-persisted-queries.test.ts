// GraphQL automatic persisted queries (Apollo's APQ, as Apollo Client's persisted-queries link
// speaks it): unknown hash → PersistedQueryNotFound, hash + text registers and runs, the hash
// alone then runs as a GET; refusals in the route's envelope; a project's hashes are its own; two
// gateways share them through Redis (the store alone: test/unit/persisted-queries.test.ts).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import type { LightMyRequestResponse } from 'fastify';
import { PERSISTED_QUERY_DEFAULTS } from '../../apps/gateway/src/tenant/persisted-queries.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentClient, type ContentProject } from '../helpers/content.ts';
import { TEST_REDIS_URL } from '../helpers/db.ts';
import { blogRawModel } from '../fixtures/index.ts';

type Json = Record<string, any>;

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const ext = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });
const JSON_HEADERS = { 'content-type': 'application/json' };

const NOT_FOUND = { errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] };
const MISMATCH = { errors: [{ message: 'provided sha does not match query', extensions: { code: 'BAD_REQUEST' } }] };
const BAD_VERSION = { errors: [{ message: 'Unsupported persisted query version', extensions: { code: 'BAD_REQUEST' } }] };
const badRequest = (message: string) => ({ errors: [{ message, extensions: { code: 'BAD_REQUEST' } }] });

/** A GET as Apollo Client sends a hashed query: `extensions` (and `variables`) JSON-encoded in the URL. */
function getUrl(params: { extensions?: unknown; query?: string; variables?: unknown; operationName?: string }): string {
  const search = new URLSearchParams();
  if (params.query !== undefined) search.set('query', params.query);
  if (params.operationName !== undefined) search.set('operationName', params.operationName);
  if (params.variables !== undefined) search.set('variables', JSON.stringify(params.variables));
  if (params.extensions !== undefined) search.set('extensions', typeof params.extensions === 'string' ? params.extensions : JSON.stringify(params.extensions));
  return `/graphql?${search}`;
}

const answer = (res: LightMyRequestResponse) => ({ status: res.statusCode, body: res.json() as Json });

describe('GraphQL automatic persisted queries', () => {
  let t: TestApp;
  let a: ContentProject;
  let b: ContentProject;
  const TAGS = 'query Tags($n: Int) { tags(sort: "label", pagination: { limit: $n }) { label } }';
  const TAGS_DATA = { data: { tags: [{ label: 'alpha' }, { label: 'beta' }] } };

  before(async () => {
    t = await startTestApp();
    a = await setupContentProject(t, blogRawModel());
    b = await setupContentProject(t, blogRawModel());
    for (const label of ['beta', 'alpha']) assert.equal((await a.api.post('/api/tags', { data: { label } })).statusCode, 201);
    assert.equal((await b.api.post('/api/tags', { data: { label: 'only-b' } })).statusCode, 201);
  });
  after(async () => t?.close());

  const get = (client: ContentClient, params: Parameters<typeof getUrl>[0], headers: Record<string, string> = JSON_HEADERS) =>
    client.get(getUrl(params), headers).then(answer);
  const post = (client: ContentClient, body: Json) => client.post('/graphql', body).then(answer);

  it('an unknown hash answers PersistedQueryNotFound: 200, uncached, on GET and POST', async () => {
    const hash = sha('{ tags { label } } # never sent');
    const res = await a.api.get(getUrl({ extensions: ext(hash) }), JSON_HEADERS);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), NOT_FOUND);
    assert.equal(res.headers['cache-control'], 'private, no-cache, must-revalidate');
    assert.deepEqual(await post(a.api, { extensions: ext(hash) }), { status: 200, body: NOT_FOUND });
    // Not a hash at all: never looked up, the same answer (the client then sends the text).
    assert.deepEqual(await post(a.api, { extensions: ext('not a hash') }), { status: 200, body: NOT_FOUND });
  });

  it('hash + query registers and runs it; the hash alone then runs it as a GET, with variables and operationName', async () => {
    const hash = sha(TAGS);
    assert.deepEqual(await get(a.api, { extensions: ext(hash) }), { status: 200, body: NOT_FOUND });
    assert.deepEqual(await post(a.api, { query: TAGS, extensions: ext(hash) }), { status: 200, body: TAGS_DATA });
    assert.deepEqual(await get(a.api, { extensions: ext(hash) }), { status: 200, body: TAGS_DATA });
    assert.deepEqual(await get(a.api, { extensions: ext(hash), variables: { n: 1 }, operationName: 'Tags' }),
      { status: 200, body: { data: { tags: [{ label: 'alpha' }] } } });
    assert.deepEqual(await post(a.api, { extensions: ext(hash), variables: { n: 1 } }), { status: 200, body: { data: { tags: [{ label: 'alpha' }] } } });
    // An unknown operationName is the executor's usual answer, not a persisted-query one.
    const unknownOperation = await get(a.api, { extensions: ext(hash), operationName: 'Nope' });
    assert.notEqual(unknownOperation.body.errors?.[0]?.extensions?.code, 'PERSISTED_QUERY_NOT_FOUND');
  });

  it('a GET may register too (hash + query in the URL), and a query sent with its hash still runs as usual', async () => {
    const query = '{ tags(sort: "label:desc") { label } }';
    const hash = sha(query);
    assert.deepEqual(await get(a.api, { query, extensions: ext(hash) }), { status: 200, body: { data: { tags: [{ label: 'beta' }, { label: 'alpha' }] } } });
    assert.deepEqual(await get(a.api, { extensions: ext(hash) }), { status: 200, body: { data: { tags: [{ label: 'beta' }, { label: 'alpha' }] } } });
    // Other extensions without persistedQuery: an ordinary request.
    assert.deepEqual(await post(a.api, { query, extensions: { tracing: true } }), { status: 200, body: { data: { tags: [{ label: 'beta' }, { label: 'alpha' }] } } });
  });

  it('a hash that is not the query\'s own is refused (400) and nothing is registered under it', async () => {
    const other = sha('{ tags { slug } }');
    assert.deepEqual(await post(a.api, { query: '{ tags { label } }', extensions: ext(other) }), { status: 400, body: MISMATCH });
    assert.deepEqual(await get(a.api, { query: '{ tags { label } }', extensions: ext(other.toUpperCase()) }), { status: 400, body: MISMATCH });
    assert.deepEqual(await post(a.api, { query: '{ tags { label } }', extensions: { persistedQuery: { version: 1 } } }), { status: 400, body: MISMATCH });
    assert.deepEqual(await get(a.api, { extensions: ext(other) }), { status: 200, body: NOT_FOUND });
  });

  it('a version other than 1 is refused (400)', async () => {
    const hash = sha(TAGS);
    for (const persistedQuery of [{ version: 2, sha256Hash: hash }, { version: '1', sha256Hash: hash }, { version: null, sha256Hash: hash }, { sha256Hash: hash }, true]) {
      const what = JSON.stringify(persistedQuery);
      assert.deepEqual(await post(a.api, { extensions: { persistedQuery } }), { status: 400, body: BAD_VERSION }, what);
      assert.deepEqual(await get(a.api, { query: TAGS, extensions: { persistedQuery } }), { status: 400, body: BAD_VERSION }, what);
    }
  });

  it('malformed extensions are a 400 in the route\'s envelope, never a 500', async () => {
    assert.deepEqual(await get(a.api, { extensions: '{"persistedQuery":' }), { status: 400, body: badRequest('The extensions search parameter contains invalid JSON.') });
    for (const raw of ['[1]', '"x"', '42', 'null']) {
      const res = await get(a.api, { query: '{ tags { label } }', extensions: raw });
      assert.deepEqual(res, { status: 400, body: badRequest('The extensions search parameter should contain a JSON-encoded object.') }, raw);
    }
    const twice = await a.api.get(`/graphql?extensions=${encodeURIComponent(JSON.stringify(ext(sha(TAGS))))}&extensions=%7B%7D`, JSON_HEADERS);
    assert.deepEqual(answer(twice), { status: 400, body: badRequest("The 'extensions' search parameter may only be specified once.") });
    const nested = await a.api.get(`/graphql?extensions[persistedQuery][version]=1`, JSON_HEADERS);
    assert.deepEqual(answer(nested), { status: 400, body: badRequest('The extensions search parameter should contain a JSON-encoded object.') });
    assert.deepEqual(await post(a.api, { query: TAGS, extensions: JSON.stringify(ext(sha(TAGS))) }),
      { status: 400, body: badRequest('`extensions` in a POST body should be provided as an object, not a recursively JSON-encoded string.') });
    for (const extensions of [[ext(sha(TAGS))], 7, true]) {
      assert.deepEqual(await post(a.api, { query: TAGS, extensions }), { status: 400, body: badRequest('`extensions` in a POST body must be an object if provided.') });
    }
    // Bad variables are refused before any lookup, as before.
    assert.deepEqual(await get(a.api, { extensions: ext(sha(TAGS)) }).then((r) => r.status), 200);
    const badVars = await a.api.get(`${getUrl({ extensions: ext(sha(TAGS)) })}&variables=%7Bnope`, JSON_HEADERS);
    assert.deepEqual(answer(badVars), { status: 400, body: badRequest('`variables` in a GET request must be JSON-encoded.') });
  });

  it('a query over the size limit is refused when registered, with a clear message', async () => {
    const query = `{ tags(sort: "label") { label } }\n#${'x'.repeat(PERSISTED_QUERY_DEFAULTS.maxQueryBytes)}`;
    const res = await post(a.api, { query, extensions: ext(sha(query)) });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, badRequest(`Persisted query too large: ${Buffer.byteLength(query)} bytes, the limit is ${PERSISTED_QUERY_DEFAULTS.maxQueryBytes}. Send it without the persistedQuery extension.`));
    assert.deepEqual(await post(a.api, { extensions: ext(sha(query)) }), { status: 200, body: NOT_FOUND });
    // Sent as an ordinary query, the same text runs.
    assert.deepEqual(await post(a.api, { query }), { status: 200, body: TAGS_DATA });
  });

  it('a GET with a hash is held to the CSRF rule like any GET', async () => {
    const hash = sha(TAGS);
    const blocked = await a.api.get(getUrl({ extensions: ext(hash) }));
    assert.equal(blocked.statusCode, 400);
    assert.match(blocked.json().errors[0].message, /Cross-Site Request Forgery/);
    assert.deepEqual(answer(await a.api.get(getUrl({ extensions: ext(hash) }), { 'apollo-require-preflight': 'true' })), { status: 200, body: TAGS_DATA });
    // A browser's GET of a hash is not a GraphiQL page request.
    const browser = await a.api.get(getUrl({ extensions: ext(hash) }), { accept: 'text/html', 'x-apollo-operation-name': 'Tags' });
    assert.deepEqual(answer(browser), { status: 200, body: TAGS_DATA });
  });

  it("a hash registered in one project is never found through another", async () => {
    const hash = sha(TAGS);
    assert.deepEqual(await get(a.api, { extensions: ext(hash) }), { status: 200, body: TAGS_DATA });
    assert.deepEqual(await get(b.api, { extensions: ext(hash) }), { status: 200, body: NOT_FOUND });
    assert.deepEqual(await post(b.api, { extensions: ext(hash) }), { status: 200, body: NOT_FOUND });
    // B registers the same text: it runs on B's data.
    assert.deepEqual(await post(b.api, { query: TAGS, extensions: ext(hash) }), { status: 200, body: { data: { tags: [{ label: 'only-b' }] } } });
    assert.deepEqual(await get(b.api, { extensions: ext(hash) }), { status: 200, body: { data: { tags: [{ label: 'only-b' }] } } });
    assert.deepEqual(await get(a.api, { extensions: ext(hash) }), { status: 200, body: TAGS_DATA });
  });

  it('mutations: registered and run by POST; a persisted mutation sent as GET is refused like any GET mutation', async () => {
    const mutation = 'mutation Add($label: String!) { createTag(data: { label: $label }) { label } }';
    const hash = sha(mutation);
    assert.deepEqual(await post(a.api, { extensions: ext(hash), variables: { label: 'gamma' } }), { status: 200, body: NOT_FOUND });
    assert.deepEqual(await post(a.api, { query: mutation, extensions: ext(hash), variables: { label: 'gamma' } }),
      { status: 200, body: { data: { createTag: { label: 'gamma' } } } });
    assert.deepEqual(await post(a.api, { extensions: ext(hash), variables: { label: 'delta' } }), { status: 200, body: { data: { createTag: { label: 'delta' } } } });
    const viaGet = await get(a.api, { extensions: ext(hash), variables: { label: 'epsilon' } });
    assert.equal(viaGet.status, 405, JSON.stringify(viaGet.body));
    const registerViaGet = await get(a.api, { query: mutation, extensions: ext(hash), variables: { label: 'epsilon' } });
    assert.equal(registerViaGet.status, 405, JSON.stringify(registerViaGet.body));
    const labels = (await a.api.get('/api/tags?sort=label&pagination[limit]=100')).json().data.map((tag: Json) => tag.label);
    assert.deepEqual(labels, ['alpha', 'beta', 'delta', 'gamma']);
    for (const label of ['gamma', 'delta']) {
      const tag = (await a.api.get(`/api/tags?filters[label][$eq]=${label}`)).json().data[0];
      assert.equal((await a.api.del(`/api/tags/${tag.documentId}`)).statusCode, 204);
    }
  });

  it('stores in Redis under the project, with a TTL pushed back on use; a second gateway finds what the first stored', async () => {
    const query = '{ tags(sort: "label") { label } } # shared';
    const hash = sha(query);
    const redis = new Redis(TEST_REDIS_URL);
    const t2 = await startTestApp({ share: t });
    try {
      const key = `${t.env.REDIS_PREFIX}apq:${a.id}:${hash}`;
      assert.equal(await redis.exists(key), 0);
      const token = await a.token('read-only');
      const second = { ...a.api, get: (url: string, headers?: Record<string, string>) =>
        t2.inject({ method: 'GET', url: `/p/${a.slug}${url}`, headers: { authorization: `Bearer ${token}`, ...headers } }) };
      assert.deepEqual(await get(second, { extensions: ext(hash) }), { status: 200, body: NOT_FOUND });
      assert.deepEqual(await post(a.api, { query, extensions: ext(hash) }), { status: 200, body: TAGS_DATA });
      assert.equal(await redis.get(key), query);
      const ttl = PERSISTED_QUERY_DEFAULTS.ttlSeconds;
      assert.ok((await redis.ttl(key)) > ttl - 60);
      await redis.expire(key, 100);
      // Read on the second gateway: from Redis (its own LRU never saw it), the expiry pushed back.
      assert.deepEqual(await get(second, { extensions: ext(hash) }), { status: 200, body: TAGS_DATA });
      assert.ok((await redis.ttl(key)) > ttl - 60);
      assert.equal(await redis.exists(`${t.env.REDIS_PREFIX}apq:${b.id}:${hash}`), 0);
      // Gone from Redis (expired, flushed): the second gateway keeps it in its LRU; a third would re-register.
      await redis.del(key);
      assert.deepEqual(await get(second, { extensions: ext(hash) }), { status: 200, body: TAGS_DATA });
    } finally {
      await t2.close();
      redis.disconnect();
    }
  });
});
