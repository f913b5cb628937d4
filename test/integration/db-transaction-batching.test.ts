// A pooled session sends a transaction's START with its first statement and, when the caller
// marks its last statement (lastInTransaction), its COMMIT with that one: counted on the wire by a
// proxy in front of the real Postgres, with what each failure leaves behind.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { compiledQuery, lastInTransaction, withGenericPlans } from '@cms/db';
import { UniqueIntegrityConstraintViolationError, type CommonQueryMethods, type DatabasePool } from 'slonik';
import { createSessionsPool, createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { CountingProxy } from '../helpers/pg-proxy.ts';

const q = (text: string, values: unknown[] = []) => compiledQuery({ text, values });
const insert = (db: CommonQueryMethods, id: number) => db.query(q('INSERT INTO items (id) VALUES ($1)', [id]));
const ids = (db: CommonQueryMethods) => db.anyFirst(q('SELECT id FROM items ORDER BY id')) as Promise<number[]>;

describe('transactions on pooled sessions: START and COMMIT ride with statements', () => {
  let test: TestDatabase;
  const proxy = new CountingProxy();
  let pool: DatabasePool;
  let baseline: Record<string, number>;

  /** Messages sent since the last reset, by type (S: extended-protocol round trips, Q: simple-protocol ones). */
  const sent = () => {
    const now = proxy.snapshot();
    return Object.fromEntries(Object.keys(now).map((k) => [k, now[k]! - (baseline[k] ?? 0)]).filter(([, v]) => v !== 0));
  };
  const roundTrips = () => {
    const s = sent();
    return (s.S ?? 0) + (s.Q ?? 0);
  };

  before(async () => {
    test = await createTestDatabase('cms_tx_batching');
    await test.pool.query(q('CREATE TABLE items (id integer PRIMARY KEY)'));
    await proxy.listen();
    const url = test.url.replace(':5432/', `:${proxy.port}/`);
    // One connection: every transaction on the same session.
    pool = await createSessionsPool(url, 1);
  });
  after(async () => {
    await pool.end();
    proxy.close();
    await test.drop();
  });
  beforeEach(async () => {
    await test.pool.query(q('TRUNCATE items'));
    // slonik closes a connection whose transaction failed: its successor's first statement (its
    // pid and settings) is run here, not counted in the test.
    await pool.query(q('SELECT 1'));
    baseline = proxy.snapshot();
  });

  it('runs a two-statement transaction, its last marked, in two round trips, committed', async () => {
    const answer = await pool.transaction(async (tx) => {
      await insert(tx, 1);
      return lastInTransaction(() => tx.oneFirst(q('INSERT INTO items (id) VALUES (2) RETURNING id * 10')));
    });
    assert.equal(answer, 20);
    assert.deepEqual(sent(), { P: 4, B: 4, D: 2, E: 4, S: 2 });
    // Committed: another connection sees both rows.
    assert.deepEqual(await ids(test.pool), [1, 2]);
  });

  it('without a mark, sends COMMIT on its own (three round trips)', async () => {
    await pool.transaction(async (tx) => {
      await insert(tx, 1);
      await insert(tx, 2);
    });
    assert.equal(roundTrips(), 3);
    assert.deepEqual(await ids(test.pool), [1, 2]);
  });

  it('keeps a first statement without values inside its transaction (a rollback undoes it)', async () => {
    await assert.rejects(pool.transaction(async (tx) => {
      await tx.query(q('INSERT INTO items (id) VALUES (7)'));
      throw new Error('then it fails');
    }), /then it fails/);
    // START with the INSERT, the ROLLBACK, the connection's end (slonik closes it after a failure).
    assert.deepEqual(sent(), { P: 2, B: 2, D: 1, E: 2, S: 1, Q: 1, X: 1 });
    assert.deepEqual(await ids(test.pool), []);
  });

  it('runs a transaction marked withGenericPlans with generic plans, set with its START (the session keeps its own)', async () => {
    const mode = (db: CommonQueryMethods) => db.oneFirst(q("SELECT current_setting('plan_cache_mode')"));
    const inside = await withGenericPlans(() => pool.transaction(async (tx) => lastInTransaction(() => mode(tx))));
    assert.equal(inside, 'force_generic_plan');
    // START, the setting and the statement with its COMMIT: one round trip.
    assert.deepEqual(sent(), { P: 4, B: 4, D: 1, E: 4, S: 1 });
    assert.equal(await pool.transaction(async (tx) => mode(tx)), 'auto');
    assert.equal(await mode(pool), 'auto');
  });

  it('sends nothing for a transaction that runs no statement', async () => {
    await pool.transaction(async () => 'nothing');
    await assert.rejects(pool.transaction(async () => {
      throw new Error('refused before any statement');
    }), /refused before any statement/);
    assert.deepEqual(sent(), { X: 1 });
  });

  it('rolls back when the first statement (sent with START) fails, and the session works after', async () => {
    await insert(test.pool, 1);
    baseline = proxy.snapshot();
    await assert.rejects(pool.transaction(async (tx) => {
      await insert(tx, 1); // duplicate key
    }), UniqueIntegrityConstraintViolationError);
    assert.equal(sent().Q, 1, 'the ROLLBACK');
    await pool.transaction(async (tx) => {
      await insert(tx, 2);
    });
    assert.deepEqual(await ids(test.pool), [1, 2]);
  });

  it('commits nothing when the marked last statement fails: its COMMIT is skipped, the transaction rolled back', async () => {
    await insert(test.pool, 5);
    await assert.rejects(pool.transaction(async (tx) => {
      await insert(tx, 1);
      await lastInTransaction(() => insert(tx, 5)); // duplicate key
    }), UniqueIntegrityConstraintViolationError);
    assert.deepEqual(await ids(test.pool), [5]);
    // The session is out of its transaction and reusable.
    await pool.transaction(async (tx) => {
      await lastInTransaction(() => insert(tx, 6));
    });
    assert.deepEqual(await ids(test.pool), [5, 6]);
    assert.equal(await pool.oneFirst(q('SELECT count(*)::int FROM items')), 2);
  });

  it('fails a marked statement whose COMMIT fails (a deferred check), and commits nothing', async () => {
    await test.pool.query(q('CREATE TABLE pairs (id integer PRIMARY KEY, other integer REFERENCES pairs (id) DEFERRABLE INITIALLY DEFERRED)'));
    try {
      await assert.rejects(pool.transaction(async (tx) => {
        await tx.query(q('INSERT INTO pairs VALUES (1, NULL)'));
        await lastInTransaction(() => tx.query(q('INSERT INTO pairs VALUES (2, 99)'))); // checked at COMMIT
      }), (err: Error) => /foreign key/.test(err.message));
      assert.equal(await test.pool.oneFirst(q('SELECT count(*)::int FROM pairs')), 0);
      await pool.transaction(async (tx) => {
        await lastInTransaction(() => tx.query(q('INSERT INTO pairs VALUES (3, NULL)')));
      });
      assert.equal(await test.pool.oneFirst(q('SELECT count(*)::int FROM pairs')), 1);
    } finally {
      await test.pool.query(q('DROP TABLE pairs'));
    }
  });

  it('never commits early inside a nested transaction (savepoint): the outer one still decides', async () => {
    await assert.rejects(pool.transaction(async (tx) => {
      await insert(tx, 1);
      await tx.transaction(async (nested) => {
        await lastInTransaction(() => insert(nested, 2));
      });
      await insert(tx, 3);
      throw new Error('the outer transaction fails');
    }), /the outer transaction fails/);
    assert.deepEqual(await ids(test.pool), []);
  });

  it('refuses a statement after the one that committed', async () => {
    await assert.rejects(pool.transaction(async (tx) => {
      await lastInTransaction(() => insert(tx, 1));
      await insert(tx, 2);
    }), /after its transaction was committed/);
    // The marked statement's transaction was committed; the one after it never ran.
    assert.deepEqual(await ids(test.pool), [1]);
    await pool.transaction(async (tx) => {
      await insert(tx, 3);
    });
    assert.deepEqual(await ids(test.pool), [1, 3]);
  });
});
