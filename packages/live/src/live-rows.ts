// The statements on a project's live change log (base migration 0010: `live_events`,
// `live_head`), and nothing else. A write records its document events in its own transaction
// (`liveEventsStatement`), positioned one of two ways, both under the head's row lock:
// - by the statement itself, when it is its transaction's last (a document write's own): it
//   moves the head on and holds the head's lock until the commit that follows it in the same round
//   trip, so positions are given in commit order — a position is visible only once every one
//   before it is;
// - or not yet: after commit, `sequenceLiveEvents` gives the committed rows without a position
//   the next positions, in one statement holding the head's row lock — whichever process runs it,
//   concurrently or late (a process killed after its commit).
// Either way positions are gap-free and every row gets exactly one. Readers only ever see
// positioned rows, so a client that saw position n and resumes after it misses nothing.
import { exec, isoTimestamp, qualify, rows, type CarriedStatement, type Db } from '@cms/db';

export type LiveEventName = 'entry.create' | 'entry.update' | 'entry.delete' | 'entry.publish' | 'entry.unpublish';

export interface LiveEventInput {
  event: LiveEventName;
  uid: string;
  documentId: string;
  /** null: a type without i18n, or every locale (a delete of `*`) */
  locale: string | null;
  status: 'draft' | 'published';
}

export interface LiveEvent extends LiveEventInput {
  position: number;
  createdAt: string;
}

const events = (schema: string) => qualify(schema, 'live_events');
const head = (schema: string) => qualify(schema, 'live_head');

const COLUMNS = `e."position"::text AS position, e."event", e."content_type" AS uid, e."document_id" AS "documentId", e."locale", e."status", ${isoTimestamp('e."created_at"')} AS "createdAt"`;
type Raw = Omit<LiveEvent, 'position'> & { position: string };
const eventOf = (r: Raw): LiveEvent => ({ ...r, position: Number(r.position) });

/**
 * The statement recording a write's document events, carried by the write's last statement in
 * its transaction (@cms/db carried.ts: with the change's audit entries and history versions, one
 * round trip for all); null without events. `positioned`: the carrying statement is its
 * transaction's last, committed with it — the events are positioned in it, and handed to
 * `positioned` (in position order) once it has run; without it they wait for `sequenceLiveEvents`.
 */
export function liveEventsStatement(schema: string, evs: readonly LiveEventInput[], positioned?: (events: LiveEvent[]) => void): CarriedStatement | null {
  if (evs.length === 0) return null;
  const values: unknown[] = [];
  const tuples = evs.map((ev, i) => {
    const at = values.push(ev.event, ev.uid, ev.documentId, ev.locale, ev.status) - 5;
    return `($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}${positioned ? `, ${i + 1}` : ''})`;
  });
  const columns = '"event", "content_type", "document_id", "locale", "status"';
  if (!positioned) return { ctes: [`INSERT INTO ${events(schema)} (${columns}) VALUES ${tuples.join(', ')}`], values };
  const n = evs.length;
  return {
    ctes: [
      // The head's row lock, held until the commit: positions in commit order.
      `UPDATE ${head(schema)} SET "position" = "position" + ${n} RETURNING "position"`,
      `INSERT INTO ${events(schema)} ("position", ${columns}) SELECT h."position" - ${n} + v.o, v.e, v.t, v.d, v.l, v.s ` +
      `FROM $cte0 h, (VALUES ${tuples.join(', ')}) AS v (e, t, d, l, s, o) RETURNING *`,
    ],
    values,
    output: {
      // The rows as every read of the log answers them (COLUMNS), in position order.
      expression: `SELECT json_agg(r ORDER BY r.position::bigint)::text FROM (SELECT ${COLUMNS} FROM $cte1 e) r`,
      deliver: (json) => positioned((JSON.parse(String(json)) as Raw[]).map(eventOf)),
    },
  };
}

/** Whether committed events wait for their position (a cheap check for a sweep). */
export async function hasUnsequencedEvents(db: Db, schema: string): Promise<boolean> {
  return (await rows<{ n: number }>(db, `SELECT 1 AS n FROM ${events(schema)} WHERE "position" IS NULL LIMIT 1`, [])).length > 0;
}

/**
 * Give the committed events without a position the next ones, in the order they were recorded;
 * answers them (in position order). One statement: `platform.sequence_live_events` (@cms/db
 * live-sequencing.ts) takes the head's lock and positions them. `probe`: look first whether any
 * wait (one index probe, no lock when none do); a writer that knows it recorded some skips it.
 */
export async function sequenceLiveEvents(db: Db, schema: string, options: { limit?: number; probe?: boolean } = {}): Promise<LiveEvent[]> {
  const { limit = 1_000, probe = true } = options;
  if (probe && !(await hasUnsequencedEvents(db, schema))) return [];
  const sequenced = await rows<Raw>(db, 'SELECT * FROM platform.sequence_live_events($1, $2)', [schema, limit]);
  return sequenced.map(eventOf);
}

export interface EventsAfter {
  events: LiveEvent[];
  /**
   * False when events after `position` were already dropped (retention), or `position` is ahead
   * of the log (another project's, a restored log): the client must start again.
   */
  continuous: boolean;
  /** The log's last position. */
  head: number;
}

/** The sequenced events after `position` (at most `limit`), and whether the log still holds all of them. */
export async function liveEventsAfter(db: Db, schema: string, position: number, limit: number): Promise<EventsAfter> {
  const [state] = await rows<{ head: string; oldest: string | null }>(db,
    `SELECT h."position"::text AS head, (SELECT min("position")::text FROM ${events(schema)} WHERE "position" IS NOT NULL) AS oldest FROM ${head(schema)} h`, []);
  const headPosition = Number(state!.head);
  const oldest = state!.oldest === null ? headPosition + 1 : Number(state!.oldest);
  if (position > headPosition || position < oldest - 1) return { events: [], continuous: false, head: headPosition };
  const found = await rows<Raw>(db, `SELECT ${COLUMNS} FROM ${events(schema)} e WHERE e."position" > $1 ORDER BY e."position" LIMIT $2`, [position, limit]);
  return { events: found.map(eventOf), continuous: true, head: headPosition };
}

/** The log's last position (a new stream starts after it). */
export async function liveHead(db: Db, schema: string): Promise<number> {
  const [row] = await rows<{ position: string }>(db, `SELECT "position"::text AS position FROM ${head(schema)}`, []);
  return Number(row!.position);
}

/**
 * Retention: drop sequenced events older than `maxAgeMs` beyond the newest `keep` (at least a
 * day or 10,000 events by default, whichever keeps more). Answers how many went.
 */
export async function pruneLiveEvents(db: Db, schema: string, keep = 10_000, maxAgeMs = 24 * 3600_000): Promise<number> {
  const deleted = await rows<{ n: string }>(db,
    `WITH gone AS (
       DELETE FROM ${events(schema)} WHERE "position" IS NOT NULL
         AND "position" <= (SELECT "position" FROM ${head(schema)}) - $1
         AND "created_at" < now() - make_interval(secs => $2::double precision / 1000)
       RETURNING 1)
     SELECT count(*)::text AS n FROM gone`, [keep, maxAgeMs]);
  return Number(deleted[0]!.n);
}

/**
 * A restore in place swaps in schema `to` for `from`: its log continues `from`'s positions past a
 * gap (the restore's own imports are not streamed), so every client's position is older than the
 * new log holds and it is told to start again. Answers the new head.
 */
export async function continueLiveLog(tx: Db, from: string, to: string): Promise<number> {
  await exec(tx, `DELETE FROM ${events(to)}`, []);
  const [row] = await rows<{ position: string }>(tx,
    `UPDATE ${head(to)} SET "position" = (SELECT "position" FROM ${head(from)}) + 1 RETURNING "position"::text AS position`, []);
  return Number(row!.position);
}
