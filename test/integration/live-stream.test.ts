// The live stream (management-api.md § Delivery: the live stream, docs/live.md): Server-Sent
// Events of a project's committed document changes, on two gateways sharing Postgres and Redis:
// the events and their entries, delivery across gateways, resume after a drop with exactly the
// missed events, `restart` past retention, permissions (a type without `find` is never streamed,
// private attributes never sent), nothing for a rolled-back write, filters, 1,000 streams given one
// change, a slow consumer dropped without harming the others, the plan's limit, and a clean close.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hasUnsequencedEvents, pruneLiveEvents } from '@cms/live';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { openSse, type SseClient } from '../helpers/sse-client.ts';
import { LIVE_MODEL as MODEL, ARTICLE, CATEGORY, listenOn } from '../helpers/live-model.ts';

type Json = Record<string, any>;
const listen = (t: TestApp) => listenOn(t, 'http');

describe('live stream', () => {
  let t: TestApp;
  let t2: TestApp;
  let url1: string;
  let url2: string;
  let p: ContentProject;
  const open: SseClient[] = [];
  const sse = async (base: string, query = '', headers: Record<string, string> = {}) => {
    const client = await openSse(`${base}/p/${p.slug}/api/live${query}`, headers);
    open.push(client);
    return client;
  };
  /** Every committed event has its position (they get it just after the write's answer). */
  const settled = async () => {
    while (await hasUnsequencedEvents(t.platform.db.pool, p.schema)) await new Promise((r) => setTimeout(r, 10));
  };
  const create = async (url: string, data: Json, query = '') => {
    const res = await p.api.post(`${url}${query}`, { data });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.documentId as string;
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
    for (const c of open) c.close();
    await t2?.close();
    await t?.close();
  });

  it('streams create, update, publish and delete with the entry as the public role reads it, across gateways', async () => {
    const here = await sse(url1);
    const there = await sse(url2);
    assert.equal(here.status, 200);
    assert.match(String(here.headers['content-type']), /^text\/event-stream/);
    const id = await create('/api/articles', { title: 'Hello', body: 'First', secret: 'hidden' });
    const put = await p.api.put(`/api/articles/${id}`, { data: { title: 'Hello again' } });
    assert.equal(put.statusCode, 200);
    const del = await p.api.del(`/api/articles/${id}`);
    assert.equal(del.statusCode, 204);
    for (const client of [here, there]) {
      const events = await client.waitFor(5);
      // A published create: entry.create and entry.publish; an update of the published version; the delete.
      assert.deepEqual(events.map((e) => e.event), ['entry.create', 'entry.publish', 'entry.update', 'entry.publish', 'entry.delete']);
      const positions = events.map((e) => Number(e.id));
      assert.deepEqual(positions, [...positions].sort((a, b) => a - b));
      assert.equal(new Set(positions).size, 5);
      const [created] = events;
      assert.equal(created!.data.event, 'entry.create');
      assert.equal(created!.data.uid, ARTICLE);
      assert.equal(created!.data.model, 'article');
      assert.equal(created!.data.documentId, id);
      assert.equal(created!.data.locale, 'en');
      assert.equal(created!.data.entry.documentId, id);
      assert.ok(['Hello', 'Hello again'].includes(created!.data.entry.title));
      assert.equal('secret' in created!.data.entry, false, 'a private attribute is never streamed');
      assert.equal(events[4]!.data.entry, undefined);
    }
  });

  it('resumes after a dropped connection with exactly the missed events, in order (either gateway)', async () => {
    await settled();
    const first = await sse(url1);
    await create('/api/articles', { title: 'Before the drop' });
    const seen = await first.waitFor(2);
    first.close();
    const missed = [await create('/api/articles', { title: 'Missed 1' }), await create('/api/articles', { title: 'Missed 2' })];
    await p.api.put(`/api/articles/${missed[0]}`, { data: { title: 'Missed 1, edited' } });
    const resumed = await sse(url2, '', { 'last-event-id': seen[1]!.id! });
    const events = await resumed.waitFor(6);
    assert.deepEqual(events.map((e) => `${e.event} ${e.data.documentId}`), [
      `entry.create ${missed[0]}`, `entry.publish ${missed[0]}`, `entry.create ${missed[1]}`, `entry.publish ${missed[1]}`,
      `entry.update ${missed[0]}`, `entry.publish ${missed[0]}`,
    ]);
    assert.equal(Number(events[0]!.id), Number(seen[1]!.id) + 1);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(resumed.events.length, 6, 'nothing twice');
  });

  it('says restart when the position is older than the log keeps (or not of this log)', async () => {
    await settled();
    await create('/api/articles', { title: 'Kept?' });
    await settled();
    await pruneLiveEvents(t.platform.db.pool, p.schema, 0, 0);
    const stale = await sse(url1, '', { 'last-event-id': '1' });
    const [restart] = await stale.waitFor(1);
    assert.equal(restart!.event, 'restart');
    assert.ok(Number(restart!.id) >= 1);
    // …and goes on from the head.
    const next = await create('/api/articles', { title: 'After the restart' });
    const events = await stale.waitFor(3);
    assert.equal(events[1]!.data.documentId, next);
    const ahead = await sse(url1, '', { 'last-event-id': '999999' });
    assert.equal((await ahead.waitFor(1))[0]!.event, 'restart');
  });

  it('never streams a type the credential may not find, and refuses to stream it by name', async () => {
    await settled();
    const publicStream = await sse(url1);
    const tokenStream = await sse(url1, '', { authorization: `Bearer ${await p.token('read-only')}` });
    const categoryId = await create('/api/categories', { name: 'Hidden from the public' });
    const articleId = await create('/api/articles', { title: 'Visible' });
    const events = await publicStream.waitFor(2);
    assert.deepEqual(events.map((e) => e.data.documentId), [articleId, articleId]);
    const all = await tokenStream.waitFor(3);
    assert.equal(all[0]!.data.documentId, categoryId);
    assert.equal(all[0]!.data.entry.name, 'Hidden from the public');
    const refused = await sse(url1, `?types=${CATEGORY}`);
    assert.equal(refused.status, 403);
    assert.equal(JSON.parse(refused.body).error.name, 'ForbiddenError');
    const bad = await sse(url1, '?types=api::nope.nope');
    assert.equal(bad.status, 400);
    assert.equal((await sse(url1, '?status=everything')).status, 400);
    assert.equal((await sse(url1, '', { 'last-event-id': 'abc' })).status, 400);
    assert.equal((await sse(url1, '', { authorization: 'Bearer not-a-token' })).status, 401);
  });

  it('a rolled-back write sends nothing', async () => {
    await settled();
    const stream = await sse(url1, `?types=${ARTICLE}`, { authorization: `Bearer ${await p.token('full-access')}` });
    const failed = await p.api.post('/api/articles', { data: { title: 'x'.repeat(10), unknown: true } });
    assert.equal(failed.statusCode, 400);
    const failedPut = await p.api.put('/api/articles/nope0000000000000000000', { data: { title: 'y' } });
    assert.equal(failedPut.statusCode, 404);
    const ok = await create('/api/articles', { title: 'After the failures' });
    const [first] = await stream.waitFor(1);
    assert.equal(first!.data.documentId, ok);
  });

  it('filters by type, locale and status', async () => {
    await settled();
    const token = { authorization: `Bearer ${await p.token('full-access')}` };
    const fr = await sse(url1, `?types=${ARTICLE}&locale=fr`, token);
    const drafts = await sse(url1, `?types=${ARTICLE}&status=draft`, token);
    const categories = await sse(url1, `?types=${CATEGORY}`, token);
    const id = await create('/api/articles', { title: 'Brouillon' }, '?status=draft');
    await create('/api/articles', { title: 'En français' }, '?locale=fr');
    const cat = await create('/api/categories', { name: 'Filtered' });
    const [draftEvent] = await drafts.waitFor(1);
    assert.equal(draftEvent!.data.documentId, id);
    assert.equal(draftEvent!.data.entry.title, 'Brouillon');
    const frEvents = await fr.waitFor(2);
    assert.ok(frEvents.every((e) => e.data.locale === 'fr'));
    assert.equal(frEvents[0]!.data.entry.title, 'En français');
    const [category] = await categories.waitFor(1);
    assert.equal(category!.data.documentId, cat);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(categories.events.length, 1);
  });

  it('1,000 streams each receive one change', async () => {
    await settled();
    const clients = await Promise.all(Array.from({ length: 1_000 }, (_, i) => openSse(`${i % 2 ? url1 : url2}/p/${p.slug}/api/live?types=${ARTICLE}`)));
    open.push(...clients);
    assert.ok(clients.every((c) => c.status === 200));
    const id = await create('/api/articles', { title: 'For everyone' });
    await Promise.all(clients.map((c) => c.waitFor(2, 20_000)));
    assert.ok(clients.every((c) => c.events[0]!.data.documentId === id && c.events.length === 2));
    for (const c of clients) c.close();
  });

  it('drops a slow consumer without holding up the others', async () => {
    await settled();
    for (const c of open) c.close();
    while (t.platform.live.countOf(p.id) > 0) await new Promise((r) => setTimeout(r, 20));
    const slow = await sse(url1, `?types=${ARTICLE}`);
    const fast = await sse(url1, `?types=${ARTICLE}`);
    slow.pause();
    // More than the loopback socket's buffers and the gateway's 1 MiB allowance hold.
    const big = 'z'.repeat(500_000);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await create('/api/articles', { title: `Big ${i}`, body: big }));
    const events = await fast.waitFor(60, 30_000);
    assert.deepEqual(events.filter((e) => e.event === 'entry.create').map((e) => e.data.documentId), ids);
    // The slow one was dropped (its socket closed by the gateway), the fast one is still held.
    const deadline = Date.now() + 5_000;
    while (t.platform.live.countOf(p.id) > 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(t.platform.live.countOf(p.id), 1);
    assert.equal(fast.closed, false);
    assert.ok(slow.events.length < 60);
  });

  it('closes its streams when the gateway shuts down (clients resume elsewhere)', async () => {
    await settled();
    const extra = await startTestApp({ share: t });
    const base = await listen(extra);
    const stream = await openSse(`${base}/p/${p.slug}/api/live`);
    assert.equal(stream.status, 200);
    await extra.close();
    assert.equal(stream.closed, true);
  });
});

describe('live stream: the plan\'s limit of concurrent streams, counted over every gateway', () => {
  let a: TestApp;
  let b: TestApp;
  let p: ContentProject;
  const clients: SseClient[] = [];
  before(async () => {
    a = await startTestApp({ env: { PLAN_LIMITS: 'true' } });
    b = await startTestApp({ share: a });
    p = await setupContentProject(a, MODEL);
    await p.setPublic({ [ARTICLE]: ['find', 'findOne'] });
  });
  after(async () => {
    for (const c of clients) c.close();
    await b?.close();
    await a?.close();
  });

  it('free: 100 streams; the 101st on either gateway is 429 with Retry-After, until one closes', async () => {
    const bases = [await listen(a), await listen(b)];
    // Opened 40 a second: the free plan's 50 requests a second are another limit.
    for (let i = 0; i < 100; i += 40) {
      const batch = await Promise.all(Array.from({ length: Math.min(40, 100 - i) }, (_, j) => openSse(`${bases[j % 2]}/p/${p.slug}/api/live`)));
      clients.push(...batch);
      assert.ok(batch.every((c) => c.status === 200), batch.map((c) => c.status).join());
      await new Promise((r) => setTimeout(r, 1_100));
    }
    for (const base of bases) {
      const refused = await openSse(`${base}/p/${p.slug}/api/live`);
      assert.equal(refused.status, 429, refused.body);
      assert.equal(refused.headers['retry-after'], '5');
      assert.equal(JSON.parse(refused.body).error.name, 'RateLimitError');
    }
    clients.pop()!.close();
    await new Promise((r) => setTimeout(r, 1_100));
    const again = await openSse(`${bases[0]}/p/${p.slug}/api/live`);
    clients.push(again);
    assert.equal(again.status, 200);
  });
});
