// The live log's sequencer (platform.sequence_live_events) on the real Postgres: it positions
// what is pending in id order, once, and its read of pending events does not slow down with the
// events positioned before it (it passes their partial-index entries once, marking them dead).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONTROL_SCHEMA, clusterMigrations, compiledQuery, runMigrations } from '@cms/db';
import { baseMigrationsFor } from '@cms/ddl';
import { sequenceLiveEvents } from '@cms/live';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

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
    await test.drop();
  });

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
    // 2,003 positioned events, whose partial-index entries stay until a vacuum.
    await sequenceLiveEvents(test.pool, SCHEMA, { probe: false });
    const before = await indexReads();
    for (let i = 0; i < 5; i++) assert.deepEqual(await sequenceLiveEvents(test.pool, SCHEMA, { probe: false }), []);
    // A bitmap scan returns every one of them again at each call (10,000 here).
    const read = (await indexReads()) - before;
    assert.ok(read < 100, `index entries read by 5 calls with nothing pending: ${read}`);
  });
});
