// Content history retention (docs/history.md § Retention and storage): the maintenance round
// deletes each live project's versions older than its plan's retention, then the attribute sets
// (`history_schemas`) only those versions used. Each project is pruned once a day, at a minute of
// its own (spread by a hash of its id, half a day from its daily backup), and in batches that are
// statements of their own, so a project with a large backlog never holds its rows' locks long
// and a round that runs out of time leaves the rest for the next one.
import { exec, qualify, rows, type Db } from '@cms/db';

/** A live project whose history prune is due: what pruning it needs (the plan decides the retention). */
export interface HistoryPruneTarget {
  id: number;
  slug: string;
  schemaName: string;
  cluster: string;
  plan: string;
  planGraceUntil: string | null;
}

export interface HistoryPruneResult {
  /** Versions deleted. */
  versions: number;
  /** `history_schemas` rows deleted (no version uses them any more). */
  schemas: number;
  /** false: stopped at the deadline with versions past retention left (the project stays due). */
  done: boolean;
}

export interface HistoryPruneOptions {
  /** Versions deleted per statement. */
  batchSize?: number;
  /** Stop starting batches after this time (ms since the epoch). */
  deadline?: number;
}

const BATCH_SIZE = 1000;

/**
 * Live projects whose daily prune is due at `now`, longest due first: their minute of the day has
 * passed since their last prune (or they were never pruned). A project younger than its slot is
 * not due: it has nothing past any plan's retention yet.
 */
export async function dueHistoryPrunes(control: Db, now: Date, limit: number): Promise<HistoryPruneTarget[]> {
  return rows<HistoryPruneTarget>(control,
    `SELECT id::int AS id, slug, schema_name AS "schemaName", cluster, plan, plan_grace_until AS "planGraceUntil" FROM (
       SELECT *, slot - CASE WHEN slot > $1::timestamptz THEN interval '1 day' ELSE interval '0' END AS last_slot
       FROM (SELECT id, slug, schema_name, cluster, plan, plan_grace_until, created_at, history_pruned_at,
                    date_trunc('day', $1::timestamptz, 'UTC') + make_interval(mins => ((((id * 2654435761) % 4294967296) + 720) % 1440)::int) AS slot
             FROM platform.projects WHERE deleted_at IS NULL) s
     ) p
     WHERE p.created_at < p.last_slot AND (p.history_pruned_at IS NULL OR p.history_pruned_at < p.last_slot)
     ORDER BY p.last_slot, p.id LIMIT $2`,
    [now.toISOString(), limit]);
}

/** Record that the project's history was pruned at `at` (the round's clock): not due again before its next slot. */
export async function markHistoryPruned(control: Db, projectId: number, at: Date): Promise<void> {
  await exec(control, 'UPDATE platform.projects SET history_pruned_at = $2 WHERE id = $1', [projectId, at.toISOString()]);
}

/**
 * Delete the versions of schema `schema` created before `before`, oldest first, `batchSize` at a
 * time (each batch its own statement: it walks the `created_at` index), then the attribute sets
 * no version uses any more among those the deleted versions used.
 */
export async function pruneHistory(db: Db, schema: string, before: Date, options: HistoryPruneOptions = {}): Promise<HistoryPruneResult> {
  const versions = qualify(schema, 'history_versions');
  const batchSize = options.batchSize ?? BATCH_SIZE;
  const hashes = new Set<string>();
  const result: HistoryPruneResult = { versions: 0, schemas: 0, done: false };
  for (;;) {
    const deleted = await rows<{ hash: string; n: number }>(db,
      `WITH d AS (DELETE FROM ${versions} WHERE "id" IN (SELECT "id" FROM ${versions} WHERE "created_at" < $1::timestamptz ORDER BY "created_at", "id" LIMIT $2) RETURNING "schema_hash")
       SELECT "schema_hash" AS hash, count(*)::int AS n FROM d GROUP BY "schema_hash"`,
      [before.toISOString(), batchSize]);
    let n = 0;
    for (const row of deleted) {
      hashes.add(row.hash);
      n += row.n;
    }
    result.versions += n;
    if (n < batchSize) {
      result.done = true;
      break;
    }
    if (options.deadline !== undefined && Date.now() >= options.deadline) break;
  }
  // One statement per attribute set: the uncorrelated NOT EXISTS runs once and stops at the first
  // version still using the set. Deleting an unused one has its foreign key scan the versions
  // (no index on `schema_hash`: it would cost every write), which happens once, the day a set's
  // last version goes. A write using that set meanwhile waits for this statement and inserts the
  // set again; only a write whose own statement began before this one and ends after it commits
  // would fail its foreign key (and roll back whole).
  for (const hash of hashes) {
    const gone = await rows(db,
      `DELETE FROM ${qualify(schema, 'history_schemas')} WHERE "hash" = $1 AND NOT EXISTS (SELECT 1 FROM ${versions} WHERE "schema_hash" = $1) RETURNING 1`,
      [hash]);
    result.schemas += gone.length;
  }
  return result;
}
