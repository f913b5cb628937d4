// One tenant never starves the others: each project holds at most its share of the pool (its
// further statements wait in its own queue, 503 + Retry-After past DB_PROJECT_QUEUE_MS), every
// statement of a project's requests runs under its plan's statement timeout (503 in the envelope),
// and a client that goes away has its running query cancelled. Measured on a real gateway process
// (its own event loop and pool) against a project with 200,000 rows whose filtered reads are
// expensive in Postgres, not in Node; A's flooding clients run in a process of their own, so this
// one only times B.
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { setPriority } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { compiledQuery, sql } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { spawnGateway, type GatewayProcess } from '../helpers/process.ts';
import type { FloodOptions, FloodReport } from '../helpers/flood-client.ts';

type Json = Record<string, any>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const noteModel = () => ({
  contentTypes: {
    'api::note.note': {
      kind: 'collectionType', info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      options: { draftAndPublish: false }, attributes: { title: { type: 'string' }, body: { type: 'text' } },
    },
  },
  components: {},
});

const ROWS = 200_000;
const POOL_SIZE = 6;
// A project's share: max(1, floor(6 × 20 %)) = 1 connection.
const SHARE_PERCENT = 20;
const QUEUE_MS = 1000;
// Enough for p99 to be the 30th worst answer, not a few stray scheduling hiccups (on 2 cores, where
// A's statement takes one, a few answers of either sample wait 20–40 ms for the CPU); taken in rounds.
const SAMPLES = 3000;
const ROUNDS = 6;

// A's expensive read: a case-insensitive substring match over every row's text (no index can
// help), twice per request (the page and its count). B's read: a small page of a small table.
const EXPENSIVE = '/api/notes?filters[body][$containsi]=no-such-words&pagination[pageSize]=1';
// Heavier still (one statement for a second or more): what the cancellation and timeout tests run.
const VERY_EXPENSIVE = `/api/notes?${[0, 1, 2, 3, 4, 5].map((i) => `filters[$or][${i}][body][$containsi]=nothing-${i}`).join('&')}&pagination[pageSize]=1`;
const CHEAP = '/api/notes?pagination[pageSize]=5';

/** A flood from its own process (test/helpers/flood-client.ts); `stop` ends it and reports. */
async function startFlood(options: FloodOptions): Promise<{ stop(): Promise<FloodReport> }> {
  const child = fork(new URL('../helpers/flood-client.ts', import.meta.url), { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  // A's clients stand for other machines: on this one they yield the CPU to the gateway, Postgres and B's client.
  setPriority(child.pid!, 10);
  const started = once(child, 'message');
  child.send(options);
  await started;
  return {
    async stop() {
      const report = once(child, 'message');
      child.send('stop');
      return (await report)[0] as FloodReport;
    },
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
const round = (ms: number) => Math.round(ms * 10) / 10;

describe('tenant fairness', () => {
  let t: TestApp;
  let gateway: GatewayProcess;
  let a: ContentProject;
  let b: ContentProject;
  const query = async (text: string, values: unknown[] = []) => (await t.db.pool.query(compiledQuery({ text, values }))).rows as Json[];
  /** Statements of project `p` running in Postgres now (seen from outside the gateway). */
  const activeOf = async (p: ContentProject) => Number((await query(
    `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid() AND query LIKE $1`,
    [`%"${p.schema}"%`],
  ))[0]!.n);

  before(async () => {
    t = await startTestApp();
    a = await setupContentProject(t, noteModel());
    b = await setupContentProject(t, noteModel());
    for (const p of [a, b]) await p.setPublic({ 'api::note.note': ['find'] });
    // ~30 MB of text in A; 50 notes in B.
    await query(`INSERT INTO ${a.schema}.ct_note (document_id, title, body, published_at)
      SELECT 'a' || lpad(g::text, 23, '0'), 'Note ' || g, repeat(md5(g::text) || ' ', 4), now() FROM generate_series(1, ${ROWS}) g`);
    await query(`INSERT INTO ${b.schema}.ct_note (document_id, title, body, published_at)
      SELECT 'b' || lpad(g::text, 23, '0'), 'Note ' || g, 'short', now() FROM generate_series(1, 50) g`);
    await query(`ANALYZE ${a.schema}.ct_note`);
    await query(`ANALYZE ${b.schema}.ct_note`);
    // A statement's cost in CPU is what the share bounds: keep Postgres from adding parallel
    // workers to it (operators bound them with max_parallel_workers_per_gather, docs/operations.md).
    await query(`ALTER DATABASE "${t.db.name}" SET max_parallel_workers_per_gather = 0`);
    // What is measured is the database's fairness: A's repeated reads must reach Postgres, not
    // the answer cache (which would answer them from memory).
    gateway = await spawnGateway({
      ...t.env, ANSWER_CACHE_MB: '0', LOG_LEVEL: 'warn', DB_POOL_SIZE: String(POOL_SIZE), DB_PROJECT_SHARE: String(SHARE_PERCENT), DB_PROJECT_QUEUE_MS: String(QUEUE_MS),
    });
  });
  after(async () => {
    await gateway?.stop();
    await t?.close();
  });

  const get = (p: ContentProject, path: string, signal?: AbortSignal) => fetch(`${gateway.url}/p/${p.slug}${path}`, { signal });

  /** `count` sequential reads of B: their latencies (ms), sorted; every one must be a 200. */
  async function sampleB(count: number): Promise<number[]> {
    const latencies: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const res = await get(b, CHEAP);
      const body = await res.text();
      latencies.push(performance.now() - started);
      assert.equal(res.status, 200, body);
    }
    return latencies.sort((x, y) => x - y);
  }

  it('keeps B within 2× its unloaded p99 while A floods expensive reads; A gets only 200s and clean 503s', async (tc) => {
    const single = performance.now();
    assert.equal((await get(a, EXPENSIVE)).status, 200);
    const expensiveMs = performance.now() - single;
    await sampleB(20); // warm-up: connections, compiled reads

    // A: 4× the pool size of clients, each sending the next request as soon as it has an answer,
    // from a process of their own (this one only times B). Their starts spread over one queue
    // timeout, so that their retries after a 503 do not all land in the same millisecond.
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    const busy = { data: null, error: { status: 503, name: 'ServiceUnavailableError', message: 'This project is running too many queries at once; please try again shortly.', details: {} } };
    const floodOptions: FloodOptions = {
      url: `${gateway.url}/p/${a.slug}${EXPENSIVE}`, clients: 4 * POOL_SIZE, spreadMs: QUEUE_MS,
      allowed: { 200: true, 503: { body: busy, retryAfter: '1' } },
    };
    let maxActiveA = 0;
    // B's reads without and with A's flood, in alternating rounds: whatever else loads the machine
    // meanwhile (other test files) weighs on both samples alike.
    const unloaded: number[] = [];
    const loaded: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      unloaded.push(...(await sampleB(SAMPLES / ROUNDS)));
      const flood = await startFlood(floodOptions);
      let stop = false;
      const watching = (async () => {
        while (!stop) {
          maxActiveA = Math.max(maxActiveA, await activeOf(a));
          // Every 100 ms: A's statements last over 0.5 s, so a second one at once cannot be missed, and the
          // watching (a pg_stat_activity query) adds little load to the very latencies being measured.
          await sleep(100);
        }
      })();
      await sleep(QUEUE_MS + 500); // every client of A sending, its share taken, its queue full
      loaded.push(...(await sampleB(SAMPLES / ROUNDS)));
      stop = true;
      const report = await flood.stop();
      await watching;
      for (const [status, n] of Object.entries(report.statuses)) statuses.set(Number(status), (statuses.get(Number(status)) ?? 0) + n);
      failures.push(...report.failures);
    }
    unloaded.sort((x, y) => x - y);
    loaded.sort((x, y) => x - y);

    const report = {
      expensiveReadMs: round(expensiveMs),
      unloaded: { p50: round(percentile(unloaded, 0.5)), p99: round(percentile(unloaded, 0.99)) },
      loaded: { p50: round(percentile(loaded, 0.5)), p99: round(percentile(loaded, 0.99)) },
      a: Object.fromEntries(statuses), maxActiveStatementsOfA: maxActiveA,
      tails: { unloaded: unloaded.slice(-8).map(round), loaded: loaded.slice(-8).map(round) },
    };
    tc.diagnostic(JSON.stringify(report));
    assert.deepEqual(failures, []);
    assert.ok((statuses.get(200) ?? 0) > 0 && (statuses.get(503) ?? 0) > 0, JSON.stringify(report));
    // A never ran more statements at once than its share (one connection).
    assert.ok(maxActiveA <= 1, JSON.stringify(report));
    assert.ok(percentile(loaded, 0.99) <= 2 * percentile(unloaded, 0.99), JSON.stringify(report));
  });

  it('tells GraphQL clients of a busy project when to retry: Retry-After beside the error, as on REST', async () => {
    const QUERY = '{ notes(filters: { body: { containsi: "no-such-words" } }, pagination: { pageSize: 1 }) { title } }';
    const operation = async () => {
      const res = await fetch(`${gateway.url}/p/${a.slug}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: QUERY }) });
      return { res, body: await res.json() as Json };
    };
    let busy = 0;
    let served = 0;
    const deadline = Date.now() + 30_000;
    while ((busy === 0 || served === 0) && Date.now() < deadline) {
      // 4× the pool at once against A's one connection: the later ones wait past the queue timeout.
      for (const { res, body } of await Promise.all(Array.from({ length: 4 * POOL_SIZE }, operation))) {
        assert.equal(res.status, 200, JSON.stringify(body));
        if (body.errors) {
          assert.deepEqual(body.errors.map((e: Json) => [e.extensions.code, e.message]), [['STRAPI_SERVICE_UNAVAILABLE_ERROR', 'This project is running too many queries at once; please try again shortly.']]);
          assert.equal(body.data, null); // `notes` is non-null, as Strapi's list fields
          assert.equal(res.headers.get('retry-after'), '1');
          busy++;
        } else {
          assert.deepEqual(body.data, { notes: [] });
          assert.equal(res.headers.get('retry-after'), null);
          served++;
        }
      }
    }
    assert.ok(busy > 0 && served > 0, `busy ${busy}, served ${served}`);
  });

  it('cancels the running query of a client that goes away', async (tc) => {
    // A request refused while waiting leaves its sibling statement to finish: let the flood settle.
    while ((await activeOf(a)) > 0) await sleep(20);
    const controller = new AbortController();
    const answer = get(a, VERY_EXPENSIVE, controller.signal).then((res) => res.text()).catch((err: Error) => err.name);
    // Wait until Postgres runs it (about 100 ms), then let the client go.
    const deadline = Date.now() + 5000;
    while ((await activeOf(a)) === 0) {
      assert.ok(Date.now() < deadline, 'the query never started');
      await sleep(5);
    }
    const running = performance.now();
    await sleep(100);
    assert.equal(await activeOf(a), 1, 'still running 100 ms later');
    const aborted = performance.now();
    controller.abort();
    assert.equal(await answer, 'AbortError');
    while ((await activeOf(a)) > 0) {
      assert.ok(performance.now() - aborted < 2000, 'the query still runs 2 s after its client left');
      await sleep(5);
    }
    const goneMs = performance.now() - aborted;
    tc.diagnostic(JSON.stringify({ ranBeforeAbortMs: round(aborted - running), goneAfterAbortMs: round(goneMs) }));
    assert.ok(goneMs < 500, `gone after ${goneMs} ms`);
    // Both projects are served as before.
    assert.equal((await get(b, CHEAP)).status, 200);
    assert.equal((await get(a, CHEAP)).status, 200);
  });

  describe('with a tiny statement timeout for the free plan', () => {
    let tiny: TestApp;
    before(async () => {
      // Another gateway of the same deployment, with plan limits on and free statements cut at 200 ms.
      tiny = await startTestApp({ share: t, env: { PLAN_LIMITS: 'true', STATEMENT_TIMEOUT_FREE_MS: '200' } });
    });
    after(async () => {
      await tiny?.close();
    });

    it('answers a statement past the plan timeout with 503 in the envelope, and serves cheap reads', async () => {
      const started = performance.now();
      const res = await tiny.inject({ method: 'GET', url: `/p/${a.slug}${VERY_EXPENSIVE}` });
      const elapsed = performance.now() - started;
      assert.deepEqual([res.statusCode, res.json()], [503, {
        data: null,
        error: {
          status: 503, name: 'ServiceUnavailableError', details: {},
          message: 'The query took too long and was cancelled: one database statement of this project may run for 0.2 s. Narrow its filters or ask for fewer documents.',
        },
      }]);
      assert.ok(elapsed < 2000, `answered after ${elapsed} ms`);
      const cheap = await tiny.inject({ method: 'GET', url: `/p/${b.slug}${CHEAP}` });
      assert.equal(cheap.statusCode, 200, cheap.body);
      assert.equal(cheap.json().data.length, 5);
    });

    it('answers GraphQL with the same error in `errors`', async () => {
      const res = await tiny.inject({
        method: 'POST', url: `/p/${a.slug}/graphql`, headers: { 'content-type': 'application/json' },
        payload: { query: `{ notes(filters: { or: [${[0, 1, 2, 3, 4, 5].map((i) => `{ body: { containsi: "nothing-${i}" } }`).join(', ')}] }, pagination: { pageSize: 1 }) { title } }` },
      });
      assert.equal(res.statusCode, 200);
      const error = res.json().errors[0];
      assert.equal(error.extensions.code, 'STRAPI_SERVICE_UNAVAILABLE_ERROR');
      assert.match(error.message, /^The query took too long and was cancelled/);
    });

    it('runs a scope\'s statements and transactions under its timeout, and others under the default', async () => {
      const { pool, scopes } = tiny.platform.db;
      const show = sql.unsafe`SHOW statement_timeout`;
      const scope = scopes.create(a.id, 200);
      const inScope = await new Promise<unknown[]>((resolve, reject) => scopes.run(scope, () => {
        Promise.all([pool.oneFirst(show), pool.transaction((tx) => tx.oneFirst(show))]).then(resolve, reject);
      }));
      assert.deepEqual(inScope, ['200ms', '200ms']);
      assert.equal(await pool.oneFirst(show), '10s');
      assert.equal(await pool.transaction((tx) => tx.oneFirst(show)), '10s');
    });
  });
});
