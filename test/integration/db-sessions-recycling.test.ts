// Pooled connections are recycled (DB_CONNECTION_MAX_USES / _MAX_AGE_MS: closed at release, never
// inside a transaction) and keep their prepared statements as an LRU (evicted names deallocated on
// the same connection), on the real Postgres: the backend pid, pg_prepared_statements.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout } from 'node:timers/promises';
import { loadConfig } from '@cms/config';
import { compiledQuery, createDatabase, sql, type Database } from '@cms/db';
import { silentLogger } from '@cms/telemetry';
import type { CommonQueryMethods, DatabasePool } from 'slonik';
import { createSessionsPool, createTestDatabase, type TestDatabase } from '../helpers/db.ts';

const backendPid = (db: CommonQueryMethods) => db.oneFirst(sql.unsafe`SELECT pg_backend_pid() AS pid`) as Promise<number>;

describe('pooled connection recycling and prepared statements', () => {
  let test: TestDatabase;
  before(async () => {
    test = await createTestDatabase('cms_recycling');
  });
  after(async () => {
    await test.drop();
  });

  describe('with DB_CONNECTION_MAX_USES=5 (createDatabase)', () => {
    let db: Database;
    before(async () => {
      const config = loadConfig({ DATABASE_URL: test.url, APP_SECRET: 'recycling-test-secret', DB_POOL_SIZE: '1', DB_CONNECTION_MAX_USES: '5' });
      assert.equal(config.dbConnectionMaxUses, 5);
      db = await createDatabase(config, silentLogger());
    });
    after(async () => {
      await db.close();
    });

    it('closes a connection after its 5th statement and opens a new backend', async () => {
      const pids: number[] = [];
      for (let i = 0; i < 11; i++) pids.push(await backendPid(db.pool));
      assert.equal(new Set(pids.slice(0, 5)).size, 1, `first five on one backend: ${pids}`);
      assert.equal(new Set(pids.slice(5, 10)).size, 1, `next five on one backend: ${pids}`);
      assert.notEqual(pids[5], pids[4]);
      assert.notEqual(pids[10], pids[9]);
      // The old backends are gone, not left idle (a backend leaves pg_stat_activity as it exits).
      const alive = () => test.pool.anyFirst(sql.unsafe`SELECT pid FROM pg_stat_activity WHERE pid = ANY(${sql.array([pids[0]!, pids[5]!], 'int4')})`);
      for (let i = 0; i < 50 && (await alive()).length > 0; i++) await setTimeout(20);
      assert.deepEqual(await alive(), []);
    });

    it('hands waiting clients the new connection', async () => {
      const pids = await Promise.all(Array.from({ length: 12 }, () => backendPid(db.pool)));
      const counts = [...pids.reduce((m, pid) => m.set(pid, (m.get(pid) ?? 0) + 1), new Map<number, number>()).values()];
      assert.ok(counts.length >= 3 && counts.every((n) => n <= 5), `statements per backend: ${counts}`);
    });

    it('runs a transaction longer than the limit on one backend, then recycles it', async () => {
      const inside = await db.pool.transaction(async (t) => {
        const pids: number[] = [];
        for (let i = 0; i < 8; i++) pids.push(await backendPid(t));
        await t.query(sql.unsafe`CREATE TABLE recycled_tx (id int)`);
        return pids;
      });
      assert.equal(new Set(inside).size, 1, `one backend in the transaction: ${inside}`);
      assert.notEqual(await backendPid(db.pool), inside[0]);
      assert.equal(await db.pool.oneFirst(sql.unsafe`SELECT count(*)::int FROM recycled_tx`), 0, 'committed');
    });
  });

  it('closes a connection at its first release past its maximum age', async () => {
    const pool = await createSessionsPool(test.url, 1, { maxAgeMs: 300 });
    try {
      const first = await backendPid(pool);
      assert.equal(await backendPid(pool), first);
      await setTimeout(320);
      // Past its age while acquired: this statement still runs on it, the next one does not.
      assert.equal(await backendPid(pool), first);
      assert.notEqual(await backendPid(pool), first);
    } finally {
      await pool.end();
    }
  });

  describe('with a limit of 3 prepared statements per connection', () => {
    let pool: DatabasePool;
    const read = (n: number) => compiledQuery({ text: `SELECT v FROM lru_${n} WHERE id = $1`, values: [1] });
    /** The connection's prepared statements (a text of its own each time: seen once, so run unnamed). */
    const prepared = async (db: CommonQueryMethods, tag: string) =>
      (await db.any(compiledQuery({ text: `SELECT name, statement FROM pg_prepared_statements /* ${tag} */ ORDER BY prepare_time, name`, values: [] }))) as unknown as { name: string; statement: string }[];

    before(async () => {
      pool = await createSessionsPool(test.url, 1, { maxPrepared: 3 });
      for (let n = 1; n <= 6; n++) await test.pool.query(compiledQuery({ text: `CREATE TABLE lru_${n} AS SELECT 1 AS id, ${n} AS v`, values: [] }));
    });
    after(async () => {
      await pool.end();
    });

    it('prepares statements beyond the limit, deallocating the least recently used', async () => {
      await pool.connect(async (c) => {
        const pid = await backendPid(c);
        // Each text twice: named (prepared) at its second run.
        for (let n = 1; n <= 6; n++) for (let i = 0; i < 2; i++) assert.equal(await c.oneFirst(read(n)), n);
        let now = await prepared(c, 'a');
        assert.deepEqual(now.map((s) => s.statement), [4, 5, 6].map((n) => read(n).sql));
        assert.deepEqual(now.map((s) => s.name), ['cms_4', 'cms_5', 'cms_6']);

        // An evicted statement still runs, and is prepared again under a new name.
        for (let i = 0; i < 2; i++) assert.equal(await c.oneFirst(read(1)), 1);
        now = await prepared(c, 'b');
        assert.deepEqual(now.map((s) => s.name), ['cms_5', 'cms_6', 'cms_7']);
        assert.equal(now[2]!.statement, read(1).sql);
        assert.equal(await backendPid(c), pid, 'all on one connection');
      });
    });

    it('deallocates a statement whose plan went stale with the next named statement', async () => {
      await pool.connect(async (c) => {
        // Both prepared (again, if they were evicted) and the most recently used.
        for (const n of [5, 6]) for (let i = 0; i < 2; i++) await c.oneFirst(read(n));
        const nameOf = (all: { name: string; statement: string }[], n: number) => all.find((s) => s.statement === read(n).sql)?.name;
        const before = await prepared(c, 'c');
        const [name5, name6] = [nameOf(before, 5), nameOf(before, 6)];
        assert.ok(name5 && name6, JSON.stringify(before));
        await c.query(sql.unsafe`ALTER TABLE lru_5 ALTER COLUMN v TYPE text`);
        // The named statement fails (cached plan must not change result type) and runs again unnamed.
        assert.equal(await c.oneFirst(read(5)), '5');
        assert.equal(await c.oneFirst(read(6)), 6);
        const names = (await prepared(c, 'd')).map((s) => s.name);
        assert.ok(!names.includes(name5) && names.includes(name6), `${name5} gone, ${name6} kept: ${names}`);
        assert.ok(names.length <= 3);
      });
    });
  });
});
