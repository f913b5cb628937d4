// The live log's positions on the real Postgres: the sequencer (platform.sequence_live_events)
// positions what is pending in id order, once, and its read of pending events does not slow down
// with the events positioned before it (it passes their partial-index entries once, marking them
// dead); writes that position their own events in their last statement (committed with it) and
// writes that leave theirs to the sequencer, concurrently, give gap-free positions, each once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout } from 'node:timers/promises';
import { CONTROL_SCHEMA, clusterMigrations, compiledQuery, runCarried, runMigrations } from '@cms/db';
import { baseMigrationsFor } from '@cms/ddl';
import { liveEventsStatement, sequenceLiveEvents, type LiveEvent, type LiveEventInput } from '@cms/live';
import type { DatabasePool } from 'slonik';
import { createSessionsPool, createTestDatabase, type TestDatabase } from '../helpers/db.ts';

const SCHEMA = 't_live_seq';
const q = (text: string, values: unknown[] = []) => compiledQuery({ text, values });

describe('live event sequencing', () => {
  let test: TestDatabase;
  before(async () => {
    test = await createTestDatabase('cms_live_seq');
    await runMigrations(test.pool, CONTROL_SCHEMA, clusterMigrations);
    await runMigrations(test.pool, SCHEMA, baseMigrationsFor(SCHEMA));
  });
  after(async () => {
    await sessionsPool?.end();
    await test.drop();
  });
  let sessionsPool: DatabasePool | undefined;

  const addEvents = (n: number) => test.pool.query(q(
    `INSERT INTO "${SCHEMA}".live_events (event, content_type, document_id, locale, status)
     SELECT 'entry.create', 'api::a.a', 'doc' || i, NULL, 'published' FROM generate_series(1, $1::int) AS i`, [n]));

  /** Entries the scans of the unsequenced-events index returned so far. */
  const indexReads = async () => {
    await test.pool.query(q('SELECT pg_stat_force_next_flush()'));
    return Number(await test.pool.oneFirst(q(
      `SELECT idx_tup_read FROM pg_stat_user_indexes WHERE schemaname = $1 AND indexrelname = 'live_events$unsequenced'`, [SCHEMA])));
  };

  it('positions pending events once, in id order, and moves the head', async () => {
    await addEvents(3);
    const events = await sequenceLiveEvents(test.pool, SCHEMA, { probe: false });
    assert.deepEqual(events.map((e) => [e.position, e.documentId]), [[1, 'doc1'], [2, 'doc2'], [3, 'doc3']]);
    assert.deepEqual(await sequenceLiveEvents(test.pool, SCHEMA, { probe: false }), []);
    assert.equal(Number(await test.pool.oneFirst(q(`SELECT position FROM "${SCHEMA}".live_head`))), 3);
  });

  it('passes the entries of events positioned earlier once, not at every call', async () => {
    await addEvents(2_000);
    assert.equal((await sequenceLiveEvents(test.pool, SCHEMA, { probe: false })).length, 1_000);
    assert.equal((await sequenceLiveEvents(test.pool, SCHEMA, { probe: false })).length, 1_000);
    // 2,003 positioned events, whose partial-index entries stay until a vacuum. A plain index scan
    // marks each dead once no transaction can see its row any more — a moment later on a busy
    // server, where a backend starting up or copying a database holds that horizon back — and
    // then passes it; a bitmap scan returns every one of them again at each call (10,015 here).
    let read = Number.POSITIVE_INFINITY;
    for (let attempt = 0; attempt < 50 && read >= 100; attempt++) {
      if (attempt > 0) await setTimeout(100);
      await sequenceLiveEvents(test.pool, SCHEMA, { probe: false });
      const before = await indexReads();
      for (let i = 0; i < 5; i++) assert.deepEqual(await sequenceLiveEvents(test.pool, SCHEMA, { probe: false }), []);
      read = (await indexReads()) - before;
    }
    assert.ok(read < 100, `index entries read by 5 calls with nothing pending: ${read}`);
  });

  it('gives writes that position their own events and writes that leave them to the sequencer gap-free positions, each once', async () => {
    // The gateway's pool: a write's last statement commits it in the same round trip.
    sessionsPool = await createSessionsPool(test.url, 8);
    const pool = sessionsPool;
    const headBefore = Number(await test.pool.oneFirst(q(`SELECT position FROM "${SCHEMA}".live_head`)));
    const pair = (documentId: string): LiveEventInput[] => [
      { event: 'entry.create', uid: 'api::a.a', documentId, locale: null, status: 'published' },
      { event: 'entry.publish', uid: 'api::a.a', documentId, locale: 'en', status: 'published' },
    ];
    const delivered: LiveEvent[][] = [];
    const positioning = Array.from({ length: 40 }, (_, i) => pool.transaction(async (tx) => {
      await tx.query(q(`SELECT pg_sleep($1::float8 / 1000)`, [i % 3]));
      await runCarried(tx, [liveEventsStatement(SCHEMA, pair(`own${i}`), (events) => delivered.push(events))!], undefined, true);
    }));
    const leaving = Array.from({ length: 20 }, (_, i) => pool.transaction(async (tx) => {
      await runCarried(tx, [liveEventsStatement(SCHEMA, pair(`left${i}`))!]);
    }));
    const sequencing = Array.from({ length: 10 }, async () => {
      for (let i = 0; i < 5; i++) await sequenceLiveEvents(pool, SCHEMA);
    });
    await Promise.all([...positioning, ...leaving, ...sequencing]);
    await sequenceLiveEvents(pool, SCHEMA);

    const stored = await test.pool.any(q(
      `SELECT position::int AS position, document_id AS "documentId", event FROM "${SCHEMA}".live_events WHERE position > $1 OR position IS NULL ORDER BY position`, [headBefore])) as Array<{ position: number | null; documentId: string; event: string }>;
    assert.equal(stored.length, 120);
    assert.deepEqual(stored.map((r) => r.position), Array.from({ length: 120 }, (_, i) => headBefore + i + 1));
    assert.equal(Number(await test.pool.oneFirst(q(`SELECT position FROM "${SCHEMA}".live_head`))), headBefore + 120);
    // Each positioning write was handed its own two events, consecutive, as stored.
    assert.equal(delivered.length, 40);
    const byPosition = new Map(stored.map((r) => [r.position, r]));
    for (const events of delivered) {
      assert.equal(events.length, 2);
      assert.equal(events[1]!.position, events[0]!.position + 1);
      assert.deepEqual(events.map((e) => [e.event, e.status, e.uid]), [['entry.create', 'published', 'api::a.a'], ['entry.publish', 'published', 'api::a.a']]);
      assert.deepEqual(events.map((e) => e.locale), [null, 'en']);
      for (const e of events) {
        assert.equal(byPosition.get(e.position)?.documentId, e.documentId);
        assert.match(e.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      }
    }
  });

  it('takes no position for a write that rolls back after positioning its events', async () => {
    const headBefore = Number(await test.pool.oneFirst(q(`SELECT position FROM "${SCHEMA}".live_head`)));
    // Not committed with the statement (as on the embedded Postgres): the transaction fails after it.
    await assert.rejects(sessionsPool!.transaction(async (tx) => {
      await runCarried(tx, [liveEventsStatement(SCHEMA, [{ event: 'entry.update', uid: 'api::a.a', documentId: 'y', locale: null, status: 'draft' }], () => {})!]);
      await tx.query(q('SELECT 1 / 0'));
    }));
    assert.equal(Number(await test.pool.oneFirst(q(`SELECT position FROM "${SCHEMA}".live_head`))), headBefore);
    assert.equal(await test.pool.oneFirst(q(`SELECT count(*)::int FROM "${SCHEMA}".live_events WHERE document_id = 'y'`)), 0);
  });
});
