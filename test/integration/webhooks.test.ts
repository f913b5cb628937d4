// Webhooks end to end against real Postgres and Redis: the management routes (exact bodies, bad
// input, other tenants), delivery of Strapi's payloads signed as documented, retries, the dead
// letter and replay, media events, SSRF refusal, the in-process mode without Redis, and a
// gateway killed between the commit and the delivery.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { isPrivateAddress, retryDelay } from '@cms/webhooks';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { createTestDatabase, TEST_REDIS_URL } from '../helpers/db.ts';
import { as, signup } from '../helpers/management.ts';
import { multipart } from '../helpers/multipart.ts';
import { call, spawnGateway, type GatewayProcess } from '../helpers/process.ts';
import { startReceiver, verifyDocumented, type Receiver } from '../helpers/webhook-receiver.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const MODEL = {
  contentTypes: {
    'api::article.article': {
      kind: 'collectionType', collectionName: 'articles',
      info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true }, attributes: { title: { type: 'string' }, secret: { type: 'string', private: true } },
    },
    'api::note.note': {
      kind: 'collectionType', collectionName: 'notes',
      info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      options: { draftAndPublish: false }, attributes: { body: { type: 'text' } },
    },
  },
  components: {},
};

/** Fast retries for tests: 3 attempts, 50 ms then 100 ms apart. */
const FAST = {
  WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_BACKOFF_MS: '50', WEBHOOKS_MAX_ATTEMPTS: '3', WEBHOOKS_RETRY_WINDOW_MS: '0',
  WEBHOOKS_RELAY_INTERVAL_MS: '100', WEBHOOKS_TIMEOUT_MS: '3000',
};

const ALL_EVENTS = ['entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish', 'media.create', 'media.update', 'media.delete'];

async function waitUntil<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('webhooks', () => {
  let t: TestApp;
  let p: ContentProject;
  let q: ContentProject;
  let rx: Receiver;
  let rxB: Receiver;
  const base = () => `/v1/projects/${p.slug}/webhooks`;

  before(async () => {
    t = await startTestApp({ env: FAST });
    p = await setupContentProject(t, MODEL);
    q = await setupContentProject(t, MODEL);
    rx = await startReceiver();
    rxB = await startReceiver();
  });
  after(async () => {
    await rx?.close();
    await rxB?.close();
    await t?.close();
  });

  const createHook = async (project: ContentProject, body: Record<string, unknown>) => {
    const res = await project.admin.post(`/v1/projects/${project.slug}/webhooks`, body);
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as { webhook: { id: number }; secret: string };
  };
  const deliveries = async (project: ContentProject, id: number) => {
    const res = await project.admin.get(`/v1/projects/${project.slug}/webhooks/${id}/deliveries`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().deliveries as Array<Record<string, any>>;
  };

  describe('management routes', () => {
    it('creates (201, the secret once), lists, reads, updates and deletes', async () => {
      const res = await p.admin.post(base(), { name: 'Build', url: 'https://hooks.example.com/x', events: ['entry.update', 'entry.create'], headers: { Authorization: 'Bearer abc' } });
      assert.equal(res.statusCode, 201, res.body);
      const { webhook, secret } = res.json();
      assert.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/);
      assert.deepEqual(webhook, {
        id: webhook.id, name: 'Build', url: 'https://hooks.example.com/x', events: ['entry.create', 'entry.update'],
        headers: { Authorization: 'Bearer abc' }, enabled: true, createdAt: webhook.createdAt, updatedAt: webhook.updatedAt,
      });
      assert.equal(typeof webhook.id, 'number');
      assert.match(webhook.createdAt, ISO);

      const list = await p.admin.get(base());
      assert.equal(list.statusCode, 200);
      assert.deepEqual(list.json(), { webhooks: [webhook] });
      assert.ok(!list.body.includes(secret));
      const stored = await t.platform.db.pool.oneFirst(compiledQuery({ text: 'SELECT secret_box FROM platform.webhooks WHERE id = $1', values: [webhook.id] }));
      assert.ok(!String(stored).includes(secret.slice(6)), 'the secret is stored encrypted');

      const put = await p.admin.put(`${base()}/${webhook.id}`, { enabled: false, events: ['media.delete'] });
      assert.equal(put.statusCode, 200, put.body);
      assert.deepEqual({ ...put.json().webhook, updatedAt: null }, { ...webhook, enabled: false, events: ['media.delete'], updatedAt: null });
      assert.deepEqual((await p.admin.get(`${base()}/${webhook.id}`)).json().webhook.enabled, false);

      assert.equal((await p.admin.del(`${base()}/${webhook.id}`)).statusCode, 204);
      assert.equal((await p.admin.get(`${base()}/${webhook.id}`)).statusCode, 404);
      assert.equal((await p.admin.del(`${base()}/${webhook.id}`)).statusCode, 404);
    });

    it('refuses bad input with 400 ValidationError naming the path, never 500', async () => {
      const cases: Array<[unknown, string[]]> = [
        [{ url: 'https://x.example', events: ['entry.create'] }, ['name']],
        [{ name: 'x', url: 'ftp://x.example', events: ['entry.create'] }, ['url']],
        [{ name: 'x', url: 'not a url', events: ['entry.create'] }, ['url']],
        [{ name: 'x', url: 'https://x.example', events: [] }, ['events']],
        [{ name: 'x', url: 'https://x.example', events: ['entry.create', 'entry.explode'] }, ['events', '1']],
        [{ name: 'x', url: 'https://x.example', events: 'entry.create' }, ['events']],
        [{ name: 'x', url: 'https://x.example', events: ['entry.create'], headers: { 'X-Signature': 'ok', 'bad name': 'v' } }, ['headers', 'bad name']],
        [{ name: 'x', url: 'https://x.example', events: ['entry.create'], headers: { 'X-Webhook-Signature': 'forged' } }, ['headers', 'X-Webhook-Signature']],
        [{ name: 'x', url: 'https://x.example', events: ['entry.create'], headers: { 'X-A': 'line\r\nInjected: 1' } }, ['headers', 'X-A']],
        [{ name: 'x', url: 'https://x.example', events: ['entry.create'], headers: ['a'] }, ['headers']],
        [{ name: 'x', url: 'https://x.example', events: ['entry.create'], enabled: 'yes' }, ['enabled']],
        [{ name: 'x', url: 'https://x.example', events: ['entry.create'], secret: 'mine' }, ['secret']],
      ];
      for (const [body, path] of cases) {
        const res = await p.admin.post(base(), body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body)} → ${res.body}`);
        const error = res.json().error;
        assert.equal(error.name, 'ValidationError');
        assert.deepEqual(error.details.errors.map((e: { path: string[] }) => e.path), [path], res.body);
      }
      for (const body of ['[]', 'null', '"x"', '{']) {
        const res = await t.inject({ method: 'POST', url: base(), payload: body, headers: { authorization: `Bearer ${p.owner.token}`, 'content-type': 'application/json' } });
        assert.equal(res.statusCode, 400, `${body} → ${res.body}`);
      }
      const { webhook } = await createHook(p, { name: 'ok', url: 'https://x.example', events: ['entry.create'] });
      assert.equal((await p.admin.put(`${base()}/${webhook.id}`, { url: 'javascript:alert(1)' })).statusCode, 400);
      assert.equal((await p.admin.put(`${base()}/${webhook.id}`, { events: ['nope'] })).statusCode, 400);
      for (const id of ['abc', '0', '-1', '99999999', '1e3', '9'.repeat(30)]) {
        assert.equal((await p.admin.get(`${base()}/${id}`)).statusCode, 404, id);
        assert.equal((await p.admin.post(`${base()}/${id}/test`)).statusCode, 404, id);
        assert.equal((await p.admin.post(`${base()}/${webhook.id}/deliveries/${id}/replay`)).statusCode, 404, id);
      }
      await p.admin.del(`${base()}/${webhook.id}`);
    });

    it('keeps projects apart: another project\'s webhooks answer 404, to non-members and by id', async () => {
      const { webhook } = await createHook(q, { name: 'B', url: rxB.url, events: ['entry.create'] });
      const bBase = `/v1/projects/${q.slug}/webhooks`;
      // p's owner is no member of q.
      assert.equal((await p.admin.get(bBase)).statusCode, 404);
      assert.equal((await p.admin.get(`${bBase}/${webhook.id}`)).statusCode, 404);
      assert.equal((await p.admin.put(`${bBase}/${webhook.id}`, { enabled: false })).statusCode, 404);
      assert.equal((await p.admin.del(`${bBase}/${webhook.id}`)).statusCode, 404);
      assert.equal((await p.admin.post(`${bBase}/${webhook.id}/test`)).statusCode, 404);
      assert.equal((await p.admin.get(`${bBase}/${webhook.id}/deliveries`)).statusCode, 404);
      // q's webhook id under p's slug does not exist either.
      assert.equal((await p.admin.get(`${base()}/${webhook.id}`)).statusCode, 404);
      assert.equal((await p.admin.put(`${base()}/${webhook.id}`, { enabled: false })).statusCode, 404);
      assert.equal((await p.admin.get(`${base()}/${webhook.id}/deliveries`)).statusCode, 404);
      assert.equal(rxB.received.length, 0);
      assert.equal((await q.admin.del(`${bBase}/${webhook.id}`)).statusCode, 204);
    });

    it('lets viewers read only', async () => {
      const viewer = await signup(t);
      await t.platform.db.pool.query(compiledQuery({ text: `INSERT INTO platform.project_members (project_id, account_id, role) VALUES ($1, $2, 'viewer')`, values: [p.id, viewer.account.id] }));
      const { webhook } = await createHook(p, { name: 'seen', url: 'https://x.example', events: ['entry.create'] });
      const v = as(t, viewer);
      assert.equal((await v.get(base())).statusCode, 200);
      assert.equal((await v.get(`${base()}/${webhook.id}/deliveries`)).statusCode, 200);
      assert.equal((await v.post(base(), { name: 'x', url: 'https://x.example', events: ['entry.create'] })).statusCode, 403);
      assert.equal((await v.put(`${base()}/${webhook.id}`, { enabled: false })).statusCode, 403);
      assert.equal((await v.del(`${base()}/${webhook.id}`)).statusCode, 403);
      assert.equal((await v.post(`${base()}/${webhook.id}/test`)).statusCode, 403);
      await p.admin.del(`${base()}/${webhook.id}`);
    });
  });

  describe('delivery', () => {
    let hook: { webhook: { id: number }; secret: string };
    let bHook: { webhook: { id: number } };

    before(async () => {
      hook = await createHook(p, { name: 'all', url: rx.url, events: ALL_EVENTS, headers: { 'X-Custom': 'yes' } });
      bHook = await createHook(q, { name: 'B all', url: rxB.url, events: ALL_EVENTS });
    });

    it('sends Strapi\'s payload for a published create (create, then publish), signed as documented', async () => {
      rx.received.length = 0;
      const res = await p.api.post('/api/articles', { data: { title: 'Hello', secret: 'hidden' } });
      assert.equal(res.statusCode, 201, res.body);
      const written = res.json().data;
      // Deliveries are independent (sent concurrently, retried apart): either may arrive first.
      const got = await rx.waitFor(2);
      assert.deepEqual(got.map((r) => r.json.event).sort(), ['entry.create', 'entry.publish']);
      for (const r of got) {
        assert.deepEqual(Object.keys(r.json), ['event', 'createdAt', 'model', 'uid', 'entry']);
        assert.match(r.json.createdAt, ISO);
        assert.equal(r.json.model, 'article');
        assert.equal(r.json.uid, 'api::article.article');
        // The entry as the content API returns it (private attributes left out).
        assert.deepEqual(r.json.entry, written);
        assert.equal(r.headers['content-type'], 'application/json');
        assert.equal(r.headers['x-strapi-event'], r.json.event);
        assert.equal(r.headers['x-custom'], 'yes');
        assert.ok(verifyDocumented(hook.secret, r.headers['x-webhook-signature'] as string, r.body), 'signature verifies');
        assert.ok(!verifyDocumented('whsec_wrong', r.headers['x-webhook-signature'] as string, r.body));
        assert.ok(!verifyDocumented(hook.secret, r.headers['x-webhook-signature'] as string, r.body.replace('Hello', 'Hellp')));
      }
      // A timestamp older than the tolerance is a replay.
      const t0 = Math.floor(Date.now() / 1000) - 600;
      const { createHmac } = await import('node:crypto');
      const old = `t=${t0},v1=${createHmac('sha256', hook.secret).update(`${t0}.${got[0]!.body}`).digest('hex')}`;
      assert.equal(verifyDocumented(hook.secret, old, got[0]!.body), false);

      const log = await waitUntil(() => deliveries(p, hook.webhook.id), (d) => d.length >= 2 && d.every((x) => x.status === 'delivered'));
      assert.deepEqual(Object.keys(log[0]!).slice(0, 7), ['id', 'webhookId', 'event', 'status', 'attempts', 'durationMs', 'responseStatus']);
      assert.equal(log[0]!.attempts, 1);
      assert.equal(log[0]!.responseStatus, 200);
      assert.equal(log[0]!.log[0].responseExcerpt, 'ok');
      assert.equal(typeof log[0]!.durationMs, 'number');
    });

    it('sends only entry.create for a draft, entry.update, entry.unpublish and entry.delete; no publish on types without draft & publish', async () => {
      rx.received.length = 0;
      const draft = (await p.api.post('/api/articles?status=draft', { data: { title: 'Draft' } })).json().data;
      assert.equal((await rx.waitFor(1))[0]!.json.entry.publishedAt, null);
      const updated = await p.api.put(`/api/articles/${draft.documentId}?status=draft`, { data: { title: 'Draft 2' } });
      assert.equal(updated.statusCode, 200);
      await rx.waitFor(2);
      const published = await p.api.put(`/api/articles/${draft.documentId}`, { data: { title: 'Live' } });
      assert.equal(published.statusCode, 200);
      await rx.waitFor(4);
      const unpublished = await p.admin.post(`/v1/projects/${p.slug}/content/api::article.article/${draft.documentId}/unpublish`, {});
      assert.equal(unpublished.statusCode, 204, unpublished.body);
      await rx.waitFor(5);
      assert.equal((await p.api.del(`/api/articles/${draft.documentId}`)).statusCode, 204);
      const note = await p.api.post('/api/notes', { data: { body: 'n' } });
      assert.equal(note.statusCode, 201);
      const got = await rx.waitFor(7);
      const seen = got.map((r) => [r.json.event, r.json.entry.title ?? r.json.entry.body] as [string, string]);
      // The publishing update's two events are delivered side by side: either may arrive first.
      const [first, second] = [seen[2]!, seen[3]!].sort(([a], [b]) => a.localeCompare(b));
      assert.deepEqual([...seen.slice(0, 2), first, second, ...seen.slice(4)], [
        ['entry.create', 'Draft'], ['entry.update', 'Draft 2'], ['entry.publish', 'Live'], ['entry.update', 'Live'],
        ['entry.unpublish', 'Live'], ['entry.delete', 'Live'], ['entry.create', 'n'],
      ]);
      assert.equal(got[4]!.json.entry.publishedAt, null);
      assert.equal(got[6]!.json.model, 'note');
    });

    it('sends media.create, media.update and media.delete with the file as `media`', async () => {
      rx.received.length = 0;
      const up = await p.api.raw('POST', '/api/upload', await multipart({ files: { name: 'notes.txt', content: 'hello', type: 'text/plain' } }));
      assert.equal(up.statusCode, 201, up.body);
      const file = up.json()[0];
      const created = (await rx.waitFor(1))[0]!;
      assert.deepEqual(Object.keys(created.json), ['event', 'createdAt', 'media']);
      assert.equal(created.json.event, 'media.create');
      assert.deepEqual(created.json.media, file);
      const info = await p.api.raw('POST', `/api/upload?id=${file.id}`, { payload: { fileInfo: { caption: 'c' } } });
      assert.equal(info.statusCode, 200, info.body);
      assert.equal((await rx.waitFor(2))[1]!.json.media.caption, 'c');
      assert.equal((await p.api.del(`/api/upload/files/${file.id}`)).statusCode, 200);
      const deleted = (await rx.waitFor(3))[2]!;
      assert.equal(deleted.json.event, 'media.delete');
      assert.equal(deleted.json.media.id, file.id);
    });

    it('never sends project A\'s events to project B\'s webhooks (and B\'s to B only)', async () => {
      rx.received.length = 0;
      rxB.received.length = 0;
      await p.api.post('/api/notes', { data: { body: 'A only' } });
      await rx.waitFor(1);
      await q.api.post('/api/notes', { data: { body: 'B only' } });
      const b = await rxB.waitFor(1);
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(rxB.received.map((r) => r.json.entry.body), ['B only']);
      assert.deepEqual(rx.received.map((r) => r.json.entry.body), ['A only']);
      assert.equal(b[0]!.json.event, 'entry.create');
      assert.ok((await deliveries(q, bHook.webhook.id)).every((d) => d.event === 'entry.create'));
    });

    it('retries a receiver that fails twice, then succeeds: delivered on attempt 3, every attempt logged', async () => {
      rx.received.length = 0;
      rx.respond = (_r, n) => (n <= 2 ? { status: 500, body: 'boom' } : { status: 200, body: 'ok' });
      try {
        await p.api.post('/api/notes', { data: { body: 'flaky' } });
        const got = await rx.waitFor(3);
        assert.equal(new Set(got.map((r) => r.json.createdAt)).size, 1, 'the same event each time');
        // Backoff: 50 ms then 100 ms (at least).
        assert.ok(got[1]!.at - got[0]!.at >= 45 && got[2]!.at - got[1]!.at >= 95, `${got[1]!.at - got[0]!.at} ${got[2]!.at - got[1]!.at}`);
        const [d] = await waitUntil(() => deliveries(p, hook.webhook.id), (list) => list[0]?.status === 'delivered');
        assert.equal(d!.attempts, 3);
        assert.equal(d!.responseStatus, 200);
        assert.deepEqual(d!.log.map((a: { attempt: number; responseStatus: number; responseExcerpt: string }) => [a.attempt, a.responseStatus, a.responseExcerpt]),
          [[3, 200, 'ok'], [2, 500, 'boom'], [1, 500, 'boom']]);
      } finally {
        rx.respond = () => ({ status: 200, body: 'ok' });
      }
    });

    it('dead-letters after the last attempt; replay delivers it again (202)', async () => {
      rx.received.length = 0;
      rx.respond = () => ({ status: 503, body: 'x'.repeat(5000) });
      let deliveryId: number;
      try {
        await p.api.post('/api/notes', { data: { body: 'doomed' } });
        await rx.waitFor(3);
        const [dead] = await waitUntil(() => deliveries(p, hook.webhook.id), (list) => list[0]?.status === 'dead');
        deliveryId = dead!.id;
        assert.equal(dead!.attempts, 3);
        assert.equal(dead!.responseStatus, 503);
        assert.equal(dead!.nextAttemptAt, null);
        assert.equal(dead!.log[0].responseExcerpt.length, 1024, 'response excerpts are cut at 1 KB');
        await new Promise((r) => setTimeout(r, 400));
        assert.equal(rx.received.length, 3, 'no attempt after the last');
      } finally {
        rx.respond = () => ({ status: 200, body: 'ok' });
      }
      const replay = await p.admin.post(`${base()}/${hook.webhook.id}/deliveries/${deliveryId}/replay`);
      assert.equal(replay.statusCode, 202, replay.body);
      assert.equal(replay.json().delivery.id, deliveryId);
      assert.equal(replay.json().delivery.status, 'pending');
      const got = await rx.waitFor(4);
      assert.equal(got[3]!.json.entry.body, 'doomed');
      assert.ok(verifyDocumented(hook.secret, got[3]!.headers['x-webhook-signature'] as string, got[3]!.body));
      const [d] = await waitUntil(() => deliveries(p, hook.webhook.id), (list) => list.find((x) => x.id === deliveryId)?.status === 'delivered');
      assert.equal(d!.id, deliveryId);
      assert.equal(d!.log.length, 4);
      // Another webhook's delivery id under this webhook is not found.
      const bDeliveries = await deliveries(q, bHook.webhook.id);
      assert.equal((await p.admin.post(`${base()}/${hook.webhook.id}/deliveries/${bDeliveries[0]!.id}/replay`)).statusCode, 404);
    });

    it('test-sends a trigger-test event now and answers 202 with the outcome', async () => {
      rx.received.length = 0;
      const res = await p.admin.post(`${base()}/${hook.webhook.id}/test`);
      assert.equal(res.statusCode, 202, res.body);
      const { delivery } = res.json();
      assert.equal(delivery.event, 'trigger-test');
      assert.equal(delivery.status, 'delivered');
      assert.equal(delivery.responseStatus, 200);
      assert.equal(delivery.attempts, 1);
      assert.equal(rx.received.length, 1);
      assert.deepEqual(Object.keys(rx.received[0]!.json), ['event', 'createdAt']);
      assert.equal(rx.received[0]!.json.event, 'trigger-test');
      assert.ok(verifyDocumented(hook.secret, rx.received[0]!.headers['x-webhook-signature'] as string, rx.received[0]!.body));
      rx.respond = () => ({ status: 410, body: 'gone' });
      const failed = (await p.admin.post(`${base()}/${hook.webhook.id}/test`)).json().delivery;
      rx.respond = () => ({ status: 200, body: 'ok' });
      assert.deepEqual([failed.status, failed.responseStatus, failed.attempts], ['dead', 410, 1]);
    });

    it('a slow receiver does not slow the API, nor another project\'s deliveries', async () => {
      rx.received.length = 0;
      rxB.received.length = 0;
      rx.respond = () => ({ status: 200, delayMs: 2000 });
      try {
        const started = Date.now();
        for (let i = 0; i < 6; i++) assert.equal((await p.api.post('/api/notes', { data: { body: `slow ${i}` } })).statusCode, 201);
        assert.ok(Date.now() - started < 1500, `writes took ${Date.now() - started} ms`);
        await q.api.post('/api/notes', { data: { body: 'B meanwhile' } });
        const b = await rxB.waitFor(1, undefined, 1500);
        assert.ok(b[0]!.at - started < 1800, 'B was not queued behind A');
        await rx.waitFor(6, undefined, 15_000);
      } finally {
        rx.respond = () => ({ status: 200, body: 'ok' });
      }
    });

    it('stops sending to a disabled webhook and to a deleted one', async () => {
      assert.equal((await p.admin.put(`${base()}/${hook.webhook.id}`, { enabled: false })).statusCode, 200);
      rx.received.length = 0;
      await p.api.post('/api/notes', { data: { body: 'quiet' } });
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(rx.received.length, 0);
      assert.equal((await p.admin.del(`${base()}/${hook.webhook.id}`)).statusCode, 204);
      const left = await t.platform.db.pool.oneFirst(compiledQuery({ text: 'SELECT count(*)::int FROM platform.webhook_deliveries WHERE webhook_id = $1', values: [hook.webhook.id] }));
      assert.equal(left, 0);
    });
  });
});

describe('webhooks: SSRF', () => {
  let t: TestApp;
  let p: ContentProject;
  let rx: Receiver;
  before(async () => {
    t = await startTestApp({ env: { ...FAST, WEBHOOKS_ALLOW_PRIVATE: 'false' } });
    p = await setupContentProject(t, MODEL);
    rx = await startReceiver();
  });
  after(async () => {
    await rx?.close();
    await t?.close();
  });

  it('refuses receivers on loopback and private addresses (checked on the resolved address) unless WEBHOOKS_ALLOW_PRIVATE', async () => {
    for (const url of [rx.url, rx.url.replace('127.0.0.1', 'localhost'), `http://[::1]:${rx.port}/`, `http://[::ffff:127.0.0.1]:${rx.port}/`, 'http://10.1.2.3/', 'http://169.254.169.254/latest/meta-data']) {
      const res = await p.admin.post(`/v1/projects/${p.slug}/webhooks`, { name: 'internal', url, events: ['entry.create'] });
      assert.equal(res.statusCode, 201);
      const test = await p.admin.post(`/v1/projects/${p.slug}/webhooks/${res.json().webhook.id}/test`);
      assert.equal(test.statusCode, 202);
      const { delivery } = test.json();
      assert.equal(delivery.status, 'dead', url);
      assert.equal(delivery.responseStatus, null);
      assert.match(delivery.error, /^Refused: .* resolves to a private or loopback address/, url);
    }
    assert.equal(rx.received.length, 0);
  });

  it('classifies addresses, IPv4-mapped forms included', () => {
    for (const a of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '172.31.255.255', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1',
      '::1', '::', 'fc00::1', 'fd12::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::127.0.0.1']) {
      assert.equal(isPrivateAddress(a), true, a);
    }
    for (const a of ['8.8.8.8', '172.32.0.1', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) assert.equal(isPrivateAddress(a), false, a);
  });

  it('schedules 12 attempts over 24 hours by default', () => {
    const config = { backoffMs: 60_000, maxAttempts: 12, retryWindowMs: 86_400_000 };
    const delays = Array.from({ length: 11 }, (_, i) => retryDelay(i + 1, config));
    assert.deepEqual(delays.slice(0, 3), [60_000, 120_000, 240_000]);
    assert.equal(delays.reduce((a, b) => a + b, 0), 86_400_000);
    assert.ok(delays.every((d, i) => i === 0 || d >= delays[0]!));
  });
});

describe('webhooks without Redis (in-process delivery from the outbox)', () => {
  let t: TestApp;
  let p: ContentProject;
  let rx: Receiver;
  before(async () => {
    t = await startTestApp({ env: { ...FAST, REDIS_URL: '' } });
    p = await setupContentProject(t, MODEL);
    rx = await startReceiver();
  });
  after(async () => {
    await rx?.close();
    await t?.close();
  });

  it('delivers, retries and dead-letters, and replays', async () => {
    const res = await p.admin.post(`/v1/projects/${p.slug}/webhooks`, { name: 'local', url: rx.url, events: ['entry.create'] });
    const { webhook, secret } = res.json();
    rx.respond = (_r, n) => (n <= 2 ? { status: 500 } : { status: 204 });
    await p.api.post('/api/notes', { data: { body: 'one' } });
    const got = await rx.waitFor(3);
    assert.ok(verifyDocumented(secret, got[2]!.headers['x-webhook-signature'] as string, got[2]!.body));
    const list = async () => (await p.admin.get(`/v1/projects/${p.slug}/webhooks/${webhook.id}/deliveries`)).json().deliveries;
    const [d] = await waitUntil(list, (l) => l[0]?.status === 'delivered');
    assert.equal(d.attempts, 3);
    rx.respond = () => ({ status: 500 });
    await p.api.post('/api/notes', { data: { body: 'two' } });
    const [dead] = await waitUntil(list, (l) => l[0]?.status === 'dead');
    assert.equal(dead.attempts, 3);
    rx.respond = () => ({ status: 200 });
    assert.equal((await p.admin.post(`/v1/projects/${p.slug}/webhooks/${webhook.id}/deliveries/${dead.id}/replay`)).statusCode, 202);
    await waitUntil(list, (l) => l[0]?.status === 'delivered');
  });
});

describe('webhooks: a gateway killed between the commit and the delivery', () => {
  let gateway: GatewayProcess | undefined;
  let rx: Receiver;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  before(async () => {
    db = await createTestDatabase();
    rx = await startReceiver();
  });
  after(async () => {
    if (gateway && gateway.child.exitCode === null) gateway.child.kill('SIGKILL');
    await rx?.close();
    await db?.drop();
  });

  it('delivers the committed event from another process', async () => {
    const env = {
      DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `test:${db.name}:`, APP_SECRET: randomBytes(24).toString('hex'),
      LOG_LEVEL: 'warn', ...FAST,
    };
    // The first process writes events but delivers nothing (as if it died right after the commit).
    gateway = await spawnGateway({ ...env, WEBHOOKS_WORKER: 'false' });
    const signupRes = await call(gateway.url, 'POST', '/v1/auth/signup', { email: 'crash@example.com', password: 'long enough pw' });
    const token = signupRes.body.token as string;
    assert.equal((await call(gateway.url, 'POST', '/v1/projects', { name: 'Crash', slug: 'crash' }, token)).status, 201);
    assert.equal((await call(gateway.url, 'PUT', '/v1/projects/crash/schema', MODEL, token)).status, 200);
    const hook = await call(gateway.url, 'POST', '/v1/projects/crash/webhooks', { name: 'c', url: rx.url, events: ['entry.create'] }, token);
    assert.equal(hook.status, 201);
    const key = (await call(gateway.url, 'POST', '/v1/projects/crash/api-tokens', { name: 'k', type: 'full-access' }, token)).body.accessKey;
    const written = await call(gateway.url, 'POST', '/p/crash/api/notes', { data: { body: 'survives' } }, key);
    assert.equal(written.status, 201);
    gateway.child.kill('SIGKILL');
    await new Promise((r) => gateway!.child.once('exit', r));
    assert.equal(rx.received.length, 0);

    gateway = await spawnGateway(env);
    const [got] = await rx.waitFor(1, undefined, 20_000);
    assert.equal(got!.json.event, 'entry.create');
    assert.equal(got!.json.entry.documentId, written.body.data.documentId);
    assert.ok(verifyDocumented(hook.body.secret, got!.headers['x-webhook-signature'] as string, got!.body));
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(rx.received.length, 1, 'delivered once');
    await gateway.stop();
  });
});
