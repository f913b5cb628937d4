// The due index of schedules, `platform.content_schedules` in the platform schema of the cluster
// holding the project (control migration 0011, cluster migration c0002): one row per pending
// scheduled release or scheduled action, written in the transaction that changes the schedule's
// own row in the project's schema (same cluster, so same transaction). The scheduler reads what
// is due with one indexed query per cluster, whatever the number of projects. The project's row
// stays the truth (its status, its time): a row here only says when to look.
import { exec, rows, type Db } from '@cms/db';

export type ScheduleKind = 'release' | 'action';

export interface ScheduleKey {
  projectId: number;
  kind: ScheduleKind;
  targetId: number;
}

/** The index row of release `id` / scheduled action `id` of a project. */
export const releaseKey = (project: { projectId: number }, id: number): ScheduleKey => ({ projectId: project.projectId, kind: 'release', targetId: id });
export const actionKey = (project: { projectId: number }, id: number): ScheduleKey => ({ projectId: project.projectId, kind: 'action', targetId: id });

/** A row of the index, with whether it is due by the database's clock. */
export interface IndexedSchedule extends ScheduleKey {
  /** ISO instant (UTC). */
  runAt: string;
  /** ms from the database's now to `runAt` (≤ 0: due). */
  inMs: number;
}

/** `runAt` (ISO) from now on; null: none (removed). */
export async function setSchedule(db: Db, key: ScheduleKey, runAt: string | null): Promise<void> {
  if (runAt === null) {
    await exec(db, 'DELETE FROM platform.content_schedules WHERE project_id = $1 AND kind = $2 AND target_id = $3', [key.projectId, key.kind, key.targetId]);
    return;
  }
  await exec(db,
    `INSERT INTO platform.content_schedules (project_id, kind, target_id, run_at) VALUES ($1, $2, $3, $4::timestamptz)
     ON CONFLICT (project_id, kind, target_id) DO UPDATE SET run_at = EXCLUDED.run_at`,
    [key.projectId, key.kind, key.targetId, runAt]);
}

const COLUMNS = `project_id::text AS "projectId", kind, target_id::text AS "targetId",
  to_char(run_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "runAt",
  (extract(epoch FROM run_at - now()) * 1000)::float8 AS "inMs"`;

type RawSchedule = { projectId: string; kind: ScheduleKind; targetId: string; runAt: string; inMs: number };
const scheduleOf = (r: RawSchedule): IndexedSchedule => ({ ...r, projectId: Number(r.projectId), targetId: Number(r.targetId), inMs: Number(r.inMs) });

/** Rows due now or within `withinMs`, soonest first (the sweep; the index on `run_at`). */
export async function dueSchedules(db: Db, withinMs: number, limit: number): Promise<IndexedSchedule[]> {
  const found = await rows<RawSchedule>(db,
    `SELECT ${COLUMNS} FROM platform.content_schedules
     WHERE run_at <= now() + $1 * interval '1 millisecond' ORDER BY run_at LIMIT $2`, [withinMs, limit]);
  return found.map(scheduleOf);
}

/**
 * The row of `key`, locked until `tx` ends — unless another transaction holds it (it is being run
 * or changed there): then null, as when there is none.
 */
export async function claimSchedule(tx: Db, key: ScheduleKey): Promise<IndexedSchedule | null> {
  const [row] = await rows<RawSchedule>(tx,
    `SELECT ${COLUMNS} FROM platform.content_schedules WHERE project_id = $1 AND kind = $2 AND target_id = $3
     FOR UPDATE SKIP LOCKED`, [key.projectId, key.kind, key.targetId]);
  return row ? scheduleOf(row) : null;
}

/** Look again in `ms` (a run that failed for a reason of its own, a project deleted but restorable). */
export async function postponeSchedule(db: Db, key: ScheduleKey, ms: number): Promise<void> {
  await exec(db,
    `UPDATE platform.content_schedules SET run_at = now() + $4 * interval '1 millisecond'
     WHERE project_id = $1 AND kind = $2 AND target_id = $3`, [key.projectId, key.kind, key.targetId, ms]);
}
