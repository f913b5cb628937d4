// GraphQL subscriptions (docs/graphql.md § Subscriptions): `{singularName}Changed` over
// WebSocket (graphql-transport-ws, the real `graphql-ws` client) on two gateways sharing Postgres
// and Redis, fed by the live hub like the SSE stream: create/update/delete with the document as
// the subscriber reads it, filters (documentId, other fields, locale, status), permissions,
// cross-gateway delivery, resume with `after` and `restart`, credentials (connection_init and
// the upgrade's header; a bad one refused with 4403), the host form, upgrades of other paths
// closed, two subscriptions on one socket, only subscriptions over the socket, a clean close on
// shutdown that a client resumes from elsewhere, the plan's limit shared with SSE, and slow
// consumers dropped.
import assert from 'node:assert/strict';
import { connect as tcp } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createClient, type Client, type FormattedExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { hasUnsequencedEvents, liveHead, pruneLiveEvents } from '@cms/live';
import { startTestApp, TEST_BASE_DOMAIN, type TestApp } from '../helpers/app.ts';
import { GraphqlSubscriber, MAX_BUFFERED_BYTES, TRY_AGAIN_LATER } from '../../apps/gateway/src/live/graphql-subscriber.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { LIVE_MODEL as MODEL, ARTICLE, listenOn } from '../helpers/live-model.ts';

type Json = Record<string, any>;
const listen = (t: TestApp) => listenOn(t, 'ws');

/** One subscription's messages as they come. */
class Subscription {
  readonly results: FormattedExecutionResult<Json, unknown>[] = [];
  error: unknown = null;
  completed = false;
  private readonly dispose: () => void;

  constructor(client: Client, query: string, variables?: Json) {
    this.dispose = client.subscribe<Json>({ query, variables }, {
      next: (value) => void this.results.push(value),
      error: (err) => void (this.error = err),
      complete: () => void (this.completed = true),
    });
  }

  /** The events' data (`field` of each result). */
  events(field: string): Json[] {
    return this.results.map((r) => r.data?.[field]);
  }

  async waitFor(n: number, ms = 10_000): Promise<FormattedExecutionResult<Json, unknown>[]> {
    await until(() => this.results.length >= n || this.error !== null || this.completed, ms, `${n} results (have ${this.results.length})`);
    assert.ok(this.results.length >= n, `expected ${n} results, got ${JSON.stringify(this.results)} / ${String(this.error)}`);
    return this.results;
  }

  async ended(ms = 10_000): Promise<void> {
    await until(() => this.error !== null || this.completed, ms, 'the subscription to end');
  }

  stop(): void {
    this.dispose();
  }
}

async function until(done: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const ARTICLE_CHANGED = `subscription($filters: ArticleFiltersInput, $locale: I18NLocaleCode, $status: PublicationStatus, $after: ID) {
  articleChanged(filters: $filters, locale: $locale, status: $status, after: $after) { event documentId locale position article { documentId title body locale } }
}`;

describe('GraphQL subscriptions', () => {
  let t: TestApp;
  let t2: TestApp;
  let url1: string;
  let url2: string;
  let p: ContentProject;
  const clients: Client[] = [];

  const connect = (base: string, authorization: string | null = null, options: Partial<Parameters<typeof createClient>[0]> = {}) => {
    const client = createClient({
      url: `${base}/p/${p.slug}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true,
      ...(authorization ? { connectionParams: { authorization } } : {}), ...options,
    });
    clients.push(client);
    return client;
  };
  /** Every committed event has its position. */
  const settled = async () => {
    while (await hasUnsequencedEvents(t.platform.db.pool, p.schema)) await new Promise((r) => setTimeout(r, 10));
  };
  /** The subscriptions asked for are held by the gateway (their first events are not missed). */
  const held = (app: TestApp, n: number) => until(() => app.platform.live.countOf(p.id) >= n, 10_000, `${n} streams`);
  const create = async (data: Json, query = '', url = '/api/articles') => {
    const res = await p.api.post(`${url}${query}`, { data });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.documentId as string;
  };
  const token = async (type: 'read-only' | 'full-access') => `Bearer ${await p.token(type)}`;
  /** Close every client and wait until no stream is held. */
  const reset = async () => {
    for (const c of clients.splice(0)) await c.dispose();
    await until(() => t.platform.live.countOf(p.id) === 0 && t2.platform.live.countOf(p.id) === 0, 10_000, 'no streams');
    await settled();
  };

  before(async () => {
    t = await startTestApp();
    t2 = await startTestApp({ share: t });
    url1 = await listen(t);
    url2 = await listen(t2);
    p = await setupContentProject(t, MODEL, ['fr']);
    await p.setPublic({ [ARTICLE]: ['find', 'findOne'] });
  });

  after(async () => {
    for (const c of clients) await c.dispose();
    await t2?.close();
    await t?.close();
  });

  it('receives create, update and delete with the document as each subscriber reads it, across gateways', async () => {
    await reset();
    const here = new Subscription(connect(url1), ARTICLE_CHANGED);
    const there = new Subscription(connect(url2, await token('read-only')), ARTICLE_CHANGED);
    await held(t, 1);
    await held(t2, 1);
    const id = await create({ title: 'Hello', body: 'First', secret: 'hidden' });
    const put = await p.api.put(`/api/articles/${id}`, { data: { title: 'Hello again' } });
    assert.equal(put.statusCode, 200);
    // Each document is read when its event is sent: deleted only once the others are out.
    for (const sub of [here, there]) await sub.waitFor(4);
    assert.equal((await p.api.del(`/api/articles/${id}`)).statusCode, 204);
    for (const sub of [here, there]) {
      await sub.waitFor(5);
      assert.ok(sub.results.every((r) => r.errors === undefined), JSON.stringify(sub.results));
      const events = sub.events('articleChanged');
      assert.deepEqual(events.map((e) => e.event), ['entry.create', 'entry.publish', 'entry.update', 'entry.publish', 'entry.delete']);
      const positions = events.map((e) => Number(e.position));
      assert.deepEqual(positions, [...positions].sort((a, b) => a - b));
      assert.equal(new Set(positions).size, 5);
      assert.ok(events.every((e) => e.documentId === id && e.locale === 'en'));
      // The document as it is read when the event is sent: the latest title.
      assert.equal(events[0]!.article.documentId, id);
      assert.ok(['Hello', 'Hello again'].includes(events[0]!.article.title));
      assert.equal(events[3]!.article.title, 'Hello again');
      assert.equal(events[3]!.article.locale, 'en');
      assert.equal(events[4]!.article, null, 'a deleted document is null');
    }
  });

  it('filters by documentId (eq, in), by other fields, by locale and by status', async () => {
    await reset();
    const full = await token('full-access');
    const kept = await create({ title: 'Kept' });
    const other = await create({ title: 'Other' });
    await settled();
    const client = connect(url1, full);
    const byId = new Subscription(client, ARTICLE_CHANGED, { filters: { documentId: { eq: kept } } });
    const byIds = new Subscription(client, ARTICLE_CHANGED, { filters: { or: [{ documentId: { in: [kept] } }, { title: { startsWith: 'Match' } }] } });
    const byTitle = new Subscription(client, ARTICLE_CHANGED, { filters: { title: { startsWith: 'Match' } } });
    const french = new Subscription(client, ARTICLE_CHANGED, { locale: 'fr' });
    const drafts = new Subscription(client, ARTICLE_CHANGED, { status: 'DRAFT' });
    await held(t, 5);
    await p.api.put(`/api/articles/${other}`, { data: { title: 'Other, edited' } });
    await p.api.put(`/api/articles/${kept}`, { data: { title: 'Kept, edited' } });
    const matching = await create({ title: 'Matches' });
    await create({ title: 'Does not match' });
    await create({ title: 'En français' }, '?locale=fr');
    const draft = await create({ title: 'Brouillon' }, '?status=draft');
    // Last: once a subscription has these, it has decided every event before them (one at a time, in order).
    await p.api.put(`/api/articles/${kept}`, { data: { title: 'Kept, at last' } });
    const last = await create({ title: 'Match, the end' });

    const seen = (sub: Subscription) => sub.events('articleChanged').map((e) => `${e.event} ${e.documentId}`);
    await byId.waitFor(4);
    assert.deepEqual(seen(byId), [`entry.update ${kept}`, `entry.publish ${kept}`, `entry.update ${kept}`, `entry.publish ${kept}`]);
    assert.ok(byId.events('articleChanged').every((e) => e.article.title.startsWith('Kept, ')));
    await byTitle.waitFor(4);
    assert.deepEqual(seen(byTitle), [`entry.create ${matching}`, `entry.publish ${matching}`, `entry.create ${last}`, `entry.publish ${last}`]);
    assert.equal(byTitle.events('articleChanged')[0]!.article.title, 'Matches');
    await byIds.waitFor(8);
    assert.deepEqual(byIds.events('articleChanged').map((e) => e.documentId), [kept, kept, matching, matching, kept, kept, last, last]);
    await french.waitFor(2);
    const fr = french.events('articleChanged');
    assert.ok(fr.every((e) => e.locale === 'fr'), JSON.stringify(fr));
    assert.equal(fr[0]!.article.title, 'En français');
    // A draft subscription sees draft changes, with the draft as the document.
    await until(() => drafts.events('articleChanged').some((e) => e.documentId === draft), 10_000, 'the draft');
    const created = drafts.events('articleChanged').find((e) => e.documentId === draft)!;
    assert.equal(created.event, 'entry.create');
    assert.equal(created.article.title, 'Brouillon');
    await until(() => drafts.events('articleChanged').some((e) => e.documentId === last), 10_000, 'the last draft event');
    assert.ok(![byId, byTitle, byIds, french].some((sub) => sub.events('articleChanged').some((e) => e.documentId === draft)));
  });

  it('resumes after a position with exactly the events after it, on either gateway; restart past retention', async () => {
    await reset();
    const first = new Subscription(connect(url1), ARTICLE_CHANGED);
    await held(t, 1);
    await create({ title: 'Before the drop' });
    const [, seen] = (await first.waitFor(2)).map((r) => r.data!.articleChanged);
    first.stop();
    const missed = [await create({ title: 'Missed 1' }), await create({ title: 'Missed 2' })];
    await settled();
    const resumed = new Subscription(connect(url2), ARTICLE_CHANGED, { after: seen.position });
    const events = (await resumed.waitFor(4)).map((r) => r.data!.articleChanged);
    assert.deepEqual(events.map((e) => `${e.event} ${e.documentId}`), [
      `entry.create ${missed[0]}`, `entry.publish ${missed[0]}`, `entry.create ${missed[1]}`, `entry.publish ${missed[1]}`,
    ]);
    assert.equal(Number(events[0]!.position), Number(seen.position) + 1);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(resumed.results.length, 4, 'nothing twice');

    await pruneLiveEvents(t.platform.db.pool, p.schema, 0, 0);
    const stale = new Subscription(connect(url1), ARTICLE_CHANGED, { after: '1' });
    const [restart] = (await stale.waitFor(1)).map((r) => r.data!.articleChanged);
    assert.equal(restart.event, 'restart');
    assert.equal(restart.documentId, null);
    assert.equal(Number(restart.position), await liveHead(t.platform.db.pool, p.schema));
    const next = await create({ title: 'After the restart' });
    assert.equal((await stale.waitFor(2))[1]!.data!.articleChanged.documentId, next);
  });

  it('is authorised like a query: FORBIDDEN without find or draft access, private attributes not in the type, bad arguments refused', async () => {
    await reset();
    const client = connect(url1);
    const categories = new Subscription(client, 'subscription { categoryChanged { event documentId category { name } } }');
    await categories.ended();
    assert.equal(categories.results[0]!.errors![0]!.extensions!.code, 'FORBIDDEN');
    assert.equal(categories.results[0]!.data, null);
    // Drafts as the project's draftAccess allows them: under "preview", not to the public role.
    const preview = async (draftAccess: string) => assert.equal((await p.admin.put(`/v1/projects/${p.slug}/settings/preview`, { draftAccess })).statusCode, 200);
    await preview('preview');
    try {
      const drafts = new Subscription(client, ARTICLE_CHANGED, { status: 'DRAFT' });
      await drafts.ended();
      assert.equal(drafts.results[0]!.errors![0]!.extensions!.code, 'FORBIDDEN');
    } finally {
      await preview('find');
    }
    const secret = new Subscription(client, 'subscription { articleChanged { article { secret } } }');
    await secret.ended();
    assert.equal((secret.error as Json[])[0]!.extensions.code, 'GRAPHQL_VALIDATION_FAILED');
    const locale = new Subscription(client, ARTICLE_CHANGED, { locale: 'de' });
    await locale.ended();
    assert.equal(locale.results[0]!.errors![0]!.extensions!.code, 'BAD_USER_INPUT');
    const position = new Subscription(client, ARTICLE_CHANGED, { after: 'abc' });
    await position.ended();
    assert.equal(position.results[0]!.errors![0]!.extensions!.code, 'BAD_USER_INPUT');
    // Queries and mutations are HTTP's; subscriptions the socket's.
    const query = new Subscription(client, '{ articles { documentId } }');
    await query.ended();
    assert.equal((query.error as Json[])[0]!.extensions.code, 'BAD_REQUEST');
    const overHttp = await p.client(null).post('/graphql', { query: 'subscription { articleChanged { event } }' });
    assert.equal(overHttp.statusCode, 400);
    assert.equal(overHttp.json().errors[0].extensions.code, 'BAD_REQUEST');
    // A token that may read categories gets them.
    const reader = new Subscription(connect(url1, await token('read-only')), 'subscription { categoryChanged { event category { name } } }');
    await held(t, 1);
    await create({ name: 'Visible' }, '', '/api/categories');
    const [created] = (await reader.waitFor(1)).map((r) => r.data!.categoryChanged);
    assert.deepEqual(created, { event: 'entry.create', category: { name: 'Visible' } });
  });

  it('refuses a bad token with 4403 (connection_init or the upgrade\'s header) and takes a good one from either', async () => {
    await reset();
    for (const bad of [
      connect(url1, 'Bearer not-a-token'),
      connect(url1, null, { webSocketImpl: withHeaders({ authorization: 'Bearer not-a-token' }) }),
    ]) {
      const refused = new Subscription(bad, ARTICLE_CHANGED);
      await refused.ended();
      assert.equal((refused.error as { code: number }).code, 4403);
      assert.equal(refused.results.length, 0);
    }
    const reader = await token('read-only');
    const byHeader = new Subscription(connect(url1, null, { webSocketImpl: withHeaders({ authorization: reader }) }), 'subscription { categoryChanged { event } }');
    await held(t, 1);
    await create({ name: 'Seen through the header' }, '', '/api/categories');
    await byHeader.waitFor(1);
    assert.equal(byHeader.results[0]!.errors, undefined);
  });

  it('is served on the host form too ({slug}.{BASE_DOMAIN}/graphql)', async () => {
    await reset();
    const client = createClient({
      url: `${url2}/graphql`, webSocketImpl: withHeaders({ host: `${p.slug}.${TEST_BASE_DOMAIN}` }), retryAttempts: 0, lazy: true,
    });
    clients.push(client);
    const sub = new Subscription(client, ARTICLE_CHANGED);
    await held(t2, 1);
    const id = await create({ title: 'By host name' });
    const [first] = (await sub.waitFor(1)).map((r) => r.data!.articleChanged);
    assert.equal(first.article.title, 'By host name');
    assert.equal(first.documentId, id);
  });

  it('answers an upgrade of any other path over HTTP, then closes the connection', async () => {
    const port = new URL(url1.replace('ws:', 'http:')).port;
    for (const path of [`/p/${p.slug}/api/articles`, '/p/no-such-project/graphql', '/v1/auth/me']) {
      const socket = tcp(Number(port), '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk) => void (answer += chunk));
      const closed = new Promise((resolve) => socket.on('close', resolve));
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`);
      await closed;
      assert.match(answer, /^HTTP\/1\.1 (200|401|404) /, path);
    }
  });

  it('carries two subscriptions on one socket', async () => {
    await reset();
    let connections = 0;
    const client = connect(url1, await token('full-access'));
    client.on('connected', () => void connections++);
    const articles = new Subscription(client, ARTICLE_CHANGED);
    const categories = new Subscription(client, 'subscription { categoryChanged { event documentId category { name } } }');
    await held(t, 2);
    const article = await create({ title: 'One' });
    const category = await create({ name: 'Two' }, '', '/api/categories');
    await articles.waitFor(2);
    await categories.waitFor(1);
    assert.equal(connections, 1);
    assert.ok(articles.events('articleChanged').every((e) => e.documentId === article));
    assert.deepEqual(categories.events('categoryChanged').map((e) => e.documentId), [category]);
    // Completing one leaves the other.
    categories.stop();
    await until(() => t.platform.live.countOf(p.id) === 1, 5_000, 'one stream');
    await create({ title: 'Three' });
    await articles.waitFor(4);
  });

  it('closes its sockets on shutdown (1001); a client keeping `after` current reconnects to another gateway and misses nothing', async () => {
    await reset();
    const extra = await startTestApp({ share: t });
    let target = await listen(extra);
    const closes: number[] = [];
    const client = createClient({
      url: () => `${target}/p/${p.slug}/graphql`, webSocketImpl: WebSocket, lazy: true, retryAttempts: 3, retryWait: async () => undefined,
      on: { closed: (event) => void closes.push((event as { code: number }).code) },
    });
    clients.push(client);
    // The documented recipe: the client sends this same payload again when it reconnects.
    const variables: Json = { after: null };
    const seen: Json[] = [];
    client.subscribe<Json>({ query: ARTICLE_CHANGED, variables }, {
      next: (result) => {
        const change = result.data!.articleChanged;
        variables.after = change.position;
        seen.push(change);
      },
      error: (err) => assert.fail(String(err)),
      complete: () => undefined,
    });
    await held(extra, 1);
    const before = await create({ title: 'Before the shutdown' });
    await until(() => seen.length >= 2, 10_000, 'the first events');
    target = url1;
    await extra.close();
    assert.deepEqual(closes, [1001]);
    assert.equal(extra.platform.live.countOf(p.id), 0);
    // Written while the client moves (before or after it is back: its `after` covers both).
    const during = await create({ title: 'During the move' });
    await until(() => seen.length >= 4, 10_000, 'the events missed while moving');
    assert.deepEqual(seen.map((e) => `${e.event} ${e.documentId}`), [
      `entry.create ${before}`, `entry.publish ${before}`, `entry.create ${during}`, `entry.publish ${during}`,
    ]);
    await held(t, 1);
  });
});

/** A WebSocket class sending these headers with its upgrade request (browsers cannot; Node clients can). */
function withHeaders(headers: Record<string, string>): typeof WebSocket {
  return class extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  } as typeof WebSocket;
}

describe('GraphQL subscriptions: the plan\'s limit of live streams, shared with SSE', () => {
  let a: TestApp;
  let p: ContentProject;
  let client: Client;
  before(async () => {
    a = await startTestApp({ env: { PLAN_LIMITS: 'true' } });
    p = await setupContentProject(a, MODEL);
    await p.setPublic({ [ARTICLE]: ['find', 'findOne'] });
  });
  after(async () => {
    await client?.dispose();
    await a?.close();
  });

  it('free: 100 streams; the 101st subscription is refused (STRAPI_RATE_LIMIT_ERROR), and so is an SSE stream', async () => {
    const base = await listen(a);
    client = createClient({ url: `${base}/p/${p.slug}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
    const subs = Array.from({ length: 100 }, () => new Subscription(client, 'subscription { articleChanged { event } }'));
    await until(() => a.platform.live.countOf(p.id) === 100, 20_000, '100 streams');
    const refused = new Subscription(client, 'subscription { articleChanged { event } }');
    await refused.ended();
    assert.equal(refused.results[0]!.errors![0]!.extensions!.code, 'STRAPI_RATE_LIMIT_ERROR');
    const sse = await p.client(null).get('/api/live');
    assert.equal(sse.statusCode, 429);
    subs[0]!.stop();
    await until(() => a.platform.live.countOf(p.id) === 99, 5_000, '99 streams');
    const again = new Subscription(client, 'subscription { articleChanged { event } }');
    await until(() => a.platform.live.countOf(p.id) === 100, 5_000, 'the stream taken again');
    assert.equal(again.error, null);
  });
});

describe('GraphQL subscriber (live hub side)', () => {
  const event = (position: number) => ({ position, event: 'entry.update' as const, uid: ARTICLE, documentId: 'd', locale: null, status: 'published' as const, createdAt: '' });

  it('hands its events over one at a time, and drops a client that reads too slowly (1013: it reconnects and resumes with after)', async () => {
    const closed: number[] = [];
    const stopped: boolean[] = [];
    const socket = { bufferedAmount: 0, close: (code: number) => void closed.push(code), ping: () => undefined };
    const request = { uid: ARTICLE, status: 'published' as const, locale: null, after: null, decide: () => true, matches: async () => true };
    const subscriber = new GraphqlSubscriber({ id: 1, cluster: 'main', schemaName: 's' }, 0, () => true, request, socket, (_s, dropped) => void stopped.push(dropped));
    await subscriber.deliver([event(1), event(2)]);
    assert.deepEqual((await subscriber.next()).value?.position, '1');
    assert.deepEqual((await subscriber.next()).value?.position, '2');
    socket.bufferedAmount = MAX_BUFFERED_BYTES + 1;
    await subscriber.deliver([event(3)]);
    assert.deepEqual(closed, [TRY_AGAIN_LATER]);
    assert.deepEqual(stopped, [true]);
    assert.equal((await subscriber.next()).done, true);
  });

  it('leaves the hub when a filter\'s read fails (the subscription ends with the error)', async () => {
    const stopped: boolean[] = [];
    const socket = { bufferedAmount: 0, close: () => undefined, ping: () => undefined };
    const request = { uid: ARTICLE, status: 'published' as const, locale: null, after: null, decide: () => null, matches: async () => Promise.reject(new Error('read failed')) };
    const subscriber = new GraphqlSubscriber({ id: 1, cluster: 'main', schemaName: 's' }, 0, () => true, request, socket, (_s, dropped) => void stopped.push(dropped));
    await subscriber.deliver([event(1)]);
    await assert.rejects(subscriber.next(), /read failed/);
    assert.deepEqual(stopped, [false]);
  });
});
