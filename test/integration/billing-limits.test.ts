// Plan limits that hold, with billing on: the document limit under 200 concurrent creates on two
// gateways, a downgrade that deletes nothing and refuses growth with a 4xx naming the limit and
// the plan (documents, storage, upload size), the monthly quota's 429, and the RateLimit-*
// headers on every content API answer.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { PLANS, secondsUntilNextPeriod } from '@cms/billing';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { deliver, subscribe } from '../helpers/billing.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { startFakeStripe, stripeEnv, subscriptionInput, type FakeStripe } from '../helpers/fake-stripe.ts';
import { multipart } from '../helpers/multipart.ts';

type Json = Record<string, any>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const noteModel = () => ({
  contentTypes: {
    'api::note.note': {
      kind: 'collectionType', info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      options: { draftAndPublish: false }, attributes: { title: { type: 'string' } },
    },
  },
  components: {},
});
const DOCUMENT_LIMIT = (plan: string, max: number) => ({
  data: null,
  error: {
    status: 403, name: 'ForbiddenError', message: `This project has reached its ${plan} plan's limit of ${max} documents: upgrade the plan or delete documents`,
    details: { limit: 'documents', plan, max },
  },
});

describe('plan limits with billing on', () => {
  let fake: FakeStripe;
  let t: TestApp;
  let b: TestApp;
  const sql = async (text: string, values: unknown[] = []) => (await t.platform.db.pool.query(compiledQuery({ text, values }))).rows as Json[];
  const documents = async (p: ContentProject) => Number((await sql(`SELECT count(DISTINCT document_id) AS n FROM ${p.schema}.ct_note`))[0]!.n);
  /** Documents written straight into the table (a project that grew to its size over time). */
  const prefill = (p: ContentProject, count: number) =>
    sql(`INSERT INTO ${p.schema}.ct_note (document_id, title, published_at) SELECT 'prefill' || g, 'old ' || g, now() FROM generate_series(1, $1::int) g`, [count]);
  const create = (gateway: TestApp, p: ContentProject, key: string, title: string) =>
    gateway.inject({ method: 'POST', url: `/p/${p.slug}/api/notes`, payload: { data: { title } }, headers: { authorization: `Bearer ${key}` } });
  /**
   * A client that waits out Retry-After and tries again: the per-second rate limit (429), and a
   * project queue full for longer than DB_PROJECT_QUEUE_MS on a loaded machine (503, sent before
   * anything was written: a committed create is always answered).
   */
  const patiently = async (send: () => Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> => {
    for (;;) {
      const res = await send();
      if (res.statusCode !== 429 && !(res.statusCode === 503 && res.headers['retry-after'])) return res;
      await sleep(Number(res.headers['retry-after']) * 1000);
    }
  };

  before(async () => {
    fake = await startFakeStripe();
    t = await startTestApp({ env: stripeEnv(fake) });
    b = await startTestApp({ share: t });
  });
  after(async () => {
    await b?.close();
    await t?.close();
    await fake?.close();
  });

  it('200 concurrent creates on two gateways never pass the free plan\'s document limit', async () => {
    const p = await setupContentProject(t, noteModel());
    const key = await p.token('full-access');
    const max = PLANS.free.documents;
    await prefill(p, max - 50);
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => patiently(() => create(i % 2 ? b : t, p, key, `new ${i}`))));
    const statuses = answers.map((r) => r.statusCode);
    assert.equal(statuses.filter((s) => s === 201).length, 50, JSON.stringify(statuses));
    const refused = answers.filter((r) => r.statusCode === 403);
    assert.equal(refused.length, 150);
    assert.deepEqual(refused[0]!.json(), DOCUMENT_LIMIT('free', max));
    // Exactly at the limit: the check is atomic across gateways (see document-quota.ts).
    assert.equal(await documents(p), max);

    // At the limit, reads, updates and deletes work; a delete makes room for one create.
    const list = await p.api.get('/api/notes?pagination[pageSize]=1');
    assert.equal(list.statusCode, 200);
    assert.equal(list.json().meta.pagination.total, max);
    const someone = answers.find((r) => r.statusCode === 201)!.json().data.documentId;
    assert.equal((await p.api.put(`/api/notes/${someone}`, { data: { title: 'edited' } })).statusCode, 200);
    assert.equal((await p.api.del(`/api/notes/${someone}`)).statusCode, 204);
    assert.equal((await create(b, p, key, 'room for one')).statusCode, 201);
    assert.deepEqual((await create(t, p, key, 'one too many')).json(), DOCUMENT_LIMIT('free', max));
    // GraphQL creates are held to the same limit.
    const gql = await p.api.post('/graphql', { query: 'mutation { createNote(data: { title: "via GraphQL" }) { documentId } }' });
    assert.equal(gql.json().errors[0].message, DOCUMENT_LIMIT('free', max).error.message);
    assert.equal(gql.json().errors[0].extensions.code, 'FORBIDDEN');
    assert.equal(await documents(p), max);
  });

  it('downgrade: nothing is deleted; growth past the lower limit is refused, reads, updates and deletes go on', async () => {
    const p = await setupContentProject(t, noteModel());
    const { subscriptionId } = await subscribe(t, fake, p.owner, p.slug, 'pro');
    await prefill(p, PLANS.free.documents + 10);
    assert.equal((await p.api.post('/api/notes', { data: { title: 'on pro' } })).statusCode, 201);
    // The subscription ends: the project drops to free.
    const ended = fake.putSubscription({ ...subscriptionInput(fake.subscription(subscriptionId)!), status: 'canceled' });
    assert.equal((await deliver(t, { id: `evt_end_${subscriptionId}`, type: 'customer.subscription.deleted', object: ended })).json().outcome, 'applied');
    const list = await p.api.get('/api/notes?pagination[pageSize]=1');
    assert.equal(list.json().meta.pagination.total, PLANS.free.documents + 11);
    assert.deepEqual((await p.api.post('/api/notes', { data: { title: 'on free' } })).json(), DOCUMENT_LIMIT('free', PLANS.free.documents));
    const first = list.json().data[0].documentId;
    assert.equal((await p.api.put(`/api/notes/${first}`, { data: { title: 'still editable' } })).statusCode, 200);
    assert.equal((await p.api.del(`/api/notes/${first}`)).statusCode, 204);
    // Storage: a project holding its plan's quota is refused new files, naming the limit and the plan.
    await sql(`INSERT INTO ${p.schema}.files (document_id, name, hash, mime, size, url, provider) VALUES ('big', 'big.bin', 'big', 'application/octet-stream', $1, '/uploads/big.bin', 'local')`,
      [PLANS.free.storageBytes / 1000]);
    const upload = await multipart({ files: { name: 'small.txt', content: 'hello', type: 'text/plain' } });
    const refused = await p.api.raw('POST', '/api/upload', upload);
    assert.equal(refused.statusCode, 413, refused.body);
    assert.deepEqual(refused.json().error, {
      status: 413, name: 'PayloadTooLargeError',
      message: `This upload would take the project's files over the ${PLANS.free.storageBytes}-byte storage quota of its free plan (${PLANS.free.storageBytes} bytes are used)`,
      details: { storageQuotaBytes: PLANS.free.storageBytes, usedBytes: PLANS.free.storageBytes, limit: 'storageBytes', plan: 'free' },
    });
    // Reading the files goes on.
    assert.equal((await p.api.get('/api/upload/files')).statusCode, 200);
  });

  it('a file over the plan\'s upload size is refused, naming the limit and the plan', async () => {
    const p = await setupContentProject(t, noteModel());
    const upload = await multipart({ files: { name: 'huge.bin', content: Buffer.alloc(PLANS.free.maxUploadBytes + 1), type: 'application/octet-stream' } });
    const res = await p.api.raw('POST', '/api/upload', upload);
    assert.equal(res.statusCode, 413, res.body);
    assert.deepEqual(res.json().error, {
      status: 413, name: 'PayloadTooLargeError', message: 'FileTooBig',
      details: { maxFileSize: PLANS.free.maxUploadBytes, limit: 'maxUploadBytes', plan: 'free' },
    });
  });

  it('every content API answer carries the RateLimit-* headers of the monthly quota', async () => {
    const p = await setupContentProject(t, noteModel());
    await t.platform.usage.flush();
    const limit = String(PLANS.free.requestsPerMonth);
    const answers = [
      await p.api.get('/api/notes'),
      await p.api.post('/api/notes', { data: { title: 'x' } }),
      await p.api.get('/api/notes?filters[nope][$eq]=1'), // 400
      await p.client(null).get('/api/notes'), // 403
      await p.api.get('/api/no-such-type'), // 404
      await p.api.post('/graphql', { query: '{ notes { title } }' }),
    ];
    const reset = secondsUntilNextPeriod();
    for (const res of answers) {
      assert.equal(res.headers['ratelimit-limit'], limit, `${res.statusCode} ${res.body}`);
      assert.ok(Number(res.headers['ratelimit-remaining']) <= PLANS.free.requestsPerMonth - 1);
      assert.ok(Math.abs(Number(res.headers['ratelimit-reset']) - reset) < 5);
    }
    assert.deepEqual(answers.map((r) => r.statusCode), [200, 201, 400, 403, 404, 200]);
    // Remaining counts down with this instance's requests.
    const one = Number((await p.api.get('/api/notes')).headers['ratelimit-remaining']);
    const two = Number((await p.api.get('/api/notes')).headers['ratelimit-remaining']);
    assert.equal(one - two, 1);
    // The management API is not metered.
    assert.equal((await p.admin.get(`/v1/projects/${p.slug}`)).headers['ratelimit-limit'], undefined);
  });

  it('past the monthly quota: 429 with Retry-After and the quota in the headers; the per-second limit likewise', async () => {
    const p = await setupContentProject(t, noteModel());
    const month = new Date().toISOString().slice(0, 7);
    await sql(`INSERT INTO platform.usage_counters (project_id, period, requests) VALUES ($1, $2::date, $3)
               ON CONFLICT (project_id, period) DO UPDATE SET requests = EXCLUDED.requests`, [p.id, `${month}-01`, PLANS.free.requestsPerMonth]);
    // The stored count is cached for a few seconds: a fresh instance reads it at once.
    const c = await startTestApp({ share: t });
    try {
      const res = await c.inject({ method: 'GET', url: `/p/${p.slug}/api/notes` });
      assert.equal(res.statusCode, 429, res.body);
      assert.equal(res.json().error.message, `This project has used the ${PLANS.free.requestsPerMonth} requests a month of its free plan`);
      assert.equal(res.headers['ratelimit-limit'], String(PLANS.free.requestsPerMonth));
      assert.equal(res.headers['ratelimit-remaining'], '0');
      assert.equal(res.headers['ratelimit-reset'], res.headers['retry-after']);
      assert.ok(Math.abs(Number(res.headers['retry-after']) - secondsUntilNextPeriod()) < 5);
    } finally {
      await c.close();
    }
    const q = await setupContentProject(t, noteModel());
    await sleep(1000 - (Date.now() % 1000) + 5);
    const burst = await Promise.all(Array.from({ length: PLANS.free.requestsPerSecond + 10 }, () => q.api.get('/api/notes')));
    const throttled = burst.find((r) => r.statusCode === 429)!;
    assert.ok(throttled, 'the burst passed the per-second limit');
    assert.deepEqual([throttled.headers['ratelimit-limit'], throttled.headers['ratelimit-remaining'], throttled.headers['ratelimit-reset'], throttled.headers['retry-after']],
      [String(PLANS.free.requestsPerSecond), '0', '1', '1']);
  });
});

describe('plan limits off (no billing, no PLAN_LIMITS)', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => {
    await t?.close();
  });

  it('sends no RateLimit-* headers and refuses no create', async () => {
    const p = await setupContentProject(t, noteModel());
    const res = await p.api.post('/api/notes', { data: { title: 'unlimited' } });
    assert.equal(res.statusCode, 201);
    assert.equal(res.headers['ratelimit-limit'], undefined);
  });
});
