// A request's single-statement reads (`one`, `oneFirst`, `maybeOneFirst` on the pool, in a request's
// scope) run on an idle connection without slonik's per-statement machinery (@cms/db
// lean-statements.ts): the same results and errors as slonik's, its statement timeout and
// cancellation, the pool's accounting kept (a waiting client gets the connection), and never
// inside the request's transaction. On the real Postgres.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '@cms/config';
import { compiledQuery, createDatabase, sql, type Database, type DbScope } from '@cms/db';
import { ServiceUnavailableError } from '@cms/errors';
import { silentLogger } from '@cms/telemetry';
import { DataIntegrityError, InvalidInputError, NotFoundError } from 'slonik';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

describe('lean single-statement reads in a request scope', () => {
  let test: TestDatabase;
  let db: Database;
  before(async () => {
    test = await createTestDatabase('cms_lean');
    db = await createDatabase(loadConfig({ DATABASE_URL: test.url, APP_SECRET: 'lean-test-secret', DB_POOL_SIZE: '2' }), silentLogger());
  });
  after(async () => {
    await db.close();
    await test.drop();
  });

  /** `fn` in the scope of a request of project 1 whose statements may run `timeoutMs`. */
  function inRequest<T>(fn: (scope: DbScope) => Promise<T>, timeoutMs = 5_000): Promise<T> {
    const scope = db.scopes.create(1, timeoutMs);
    return new Promise<T>((resolve, reject) => db.scopes.run(scope, () => void fn(scope).then(resolve, reject)));
  }

  it('answers as slonik does: rows, first columns, null, and its errors', async () => {
    // Counts the statements that took the lean path.
    const sessions = db.scopes.sessions[0]!;
    const takeIdle = sessions.takeIdle.bind(sessions);
    let lean = 0;
    sessions.takeIdle = (home) => {
      const client = takeIdle(home);
      if (client) lean++;
      return client;
    };
    await inRequest(async () => {
      assert.deepEqual(await db.pool.one(sql.unsafe`SELECT 1 AS a, 'x' AS b`), { a: 1, b: 'x' });
      assert.equal(await db.pool.oneFirst(sql.unsafe`SELECT 42::int8 AS n`), 42);
      assert.equal(await db.pool.maybeOneFirst(sql.unsafe`SELECT 1 WHERE false`), null);
      assert.equal(await db.pool.maybeOneFirst(sql.unsafe`SELECT ${'v'}::text AS v`), 'v');
      assert.equal(await db.pool.oneFirst(sql.unsafe`SELECT '2026-11-27 10:00:00+00'::timestamptz AS t`), '2026-11-27T10:00:00.000Z');
      await assert.rejects(db.pool.one(sql.unsafe`SELECT 1 WHERE false`), NotFoundError);
      await assert.rejects(db.pool.maybeOneFirst(sql.unsafe`SELECT generate_series(1, 2)`), DataIntegrityError);
      // The driver's own error class (the gateway maps it to a 400, db/exec.ts).
      await assert.rejects(db.pool.oneFirst(sql.unsafe`SELECT 'x'::int`), InvalidInputError);
    });
    // The failed statements' connections were closed (as slonik does): the pool still serves.
    assert.equal(await inRequest(() => db.pool.oneFirst(sql.unsafe`SELECT 7 AS n`)), 7);
    sessions.takeIdle = takeIdle;
    // All but the first (no connection open yet: slonik's path opens it) ran lean.
    assert.ok(lean >= 7, `lean statements: ${lean}`);
  });

  it("keeps each project's reads on the connection it ranks first, and most of them there when a connection opens (project affinity)", async () => {
    const five = await createDatabase(loadConfig({ DATABASE_URL: test.url, APP_SECRET: 'lean-test-secret', DB_POOL_SIZE: '5' }), silentLogger());
    try {
      const read = (project: number, text = 'SELECT pg_backend_pid() AS pid') => {
        const scope = five.scopes.create(project, 5_000);
        return new Promise<number>((resolve, reject) => five.scopes.run(scope, () => void five.pool.oneFirst(compiledQuery({ text, values: [] })).then((v) => resolve(v as number), reject)));
      };
      /** Connections open at once (statements running together), then idle. */
      const open = (count: number) => Promise.all(Array.from({ length: count }, (_, i) => read(i + 1, 'SELECT pg_backend_pid() AS pid FROM pg_sleep(0.1)')));
      const PROJECTS = 40;
      /** Each project's connection, read one at a time (every connection idle): the same in every round. */
      const homes = async () => {
        const pids = new Map<number, Set<number>>();
        for (let round = 0; round < 3; round++) {
          for (let project = 1; project <= PROJECTS; project++) pids.set(project, (pids.get(project) ?? new Set()).add(await read(project)));
        }
        return new Map([...pids].map(([project, seen]) => {
          assert.equal(seen.size, 1, `project ${project} read on ${seen.size} connections`);
          return [project, [...seen][0]!];
        }));
      };
      await open(4);
      const onFour = await homes();
      // Spread over every connection (rendezvous hashing: about a quarter each).
      const share = (map: Map<number, number>, pid: number) => [...map.values()].filter((p) => p === pid).length;
      const fourPids = new Set(onFour.values());
      assert.equal(fourPids.size, 4);
      for (const pid of fourPids) assert.ok(share(onFour, pid) >= 4, `connection ${pid} serves ${share(onFour, pid)} of ${PROJECTS} projects`);
      // A fifth connection takes some projects; every other project stays where it was.
      await open(5);
      const onFive = await homes();
      const added = [...new Set(onFive.values())].filter((pid) => !fourPids.has(pid));
      assert.equal(added.length, 1);
      const moved = [...onFive].filter(([project, pid]) => pid !== onFour.get(project));
      assert.ok(moved.length > 0 && moved.length <= 16, `${moved.length} of ${PROJECTS} projects moved`);
      for (const [project, pid] of moved) assert.equal(pid, added[0], `project ${project} moved to another old connection`);
    } finally {
      await five.close();
    }
  });

  it('runs each statement on one core (DB_PARALLEL_WORKERS_PER_QUERY=0 by default), in and out of a request', async () => {
    assert.equal(await inRequest(() => db.pool.oneFirst(sql.unsafe`SELECT current_setting('max_parallel_workers_per_gather') AS v`)), '0');
    assert.equal(await db.pool.oneFirst(sql.unsafe`SELECT current_setting('max_parallel_workers_per_gather') AS v`), '0');
  });

  it("runs under the request's statement timeout (503 in the envelope)", async () => {
    await assert.rejects(inRequest(() => db.pool.oneFirst(sql.unsafe`SELECT pg_sleep(2) IS NULL AS x`), 200), (err: Error) => {
      assert.ok(err instanceof ServiceUnavailableError, String(err));
      assert.match(err.message, /took too long/);
      return true;
    });
  });

  it('is cancelled when the request goes away', async () => {
    const started = Date.now();
    await assert.rejects(inRequest(async (scope) => {
      setTimeout(() => scope.abort(), 150);
      return db.pool.oneFirst(sql.unsafe`SELECT pg_sleep(3) IS NULL AS x`);
    }));
    assert.ok(Date.now() - started < 2_000, `cancelled after ${Date.now() - started} ms`);
  });

  it('keeps the pool accounting: more reads than connections all complete, on at most 2 backends', async () => {
    const pids = await Promise.all(Array.from({ length: 30 }, (_, i) => inRequest(() => db.pool.oneFirst(sql.unsafe`SELECT pg_backend_pid() + ${i} * 0 AS pid`) as Promise<number>)));
    assert.equal(pids.length, 30);
    assert.ok(new Set(pids).size <= 2, `backends: ${[...new Set(pids)]}`);
    const state = db.pool.state();
    assert.equal(state.acquiredConnections, 0);
    assert.equal(state.waitingClients, 0);
  });

  it("inside the request's transaction, a pool statement is still refused as slonik refuses it", async () => {
    await inRequest(async () => {
      await db.pool.transaction(async (tx) => {
        await tx.query(sql.unsafe`SELECT 1`);
        await assert.rejects(db.pool.oneFirst(sql.unsafe`SELECT 1 AS n`), /foreign connection|UnexpectedForeignConnection/i);
      });
    });
  });
});
