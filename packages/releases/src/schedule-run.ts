// Running one due schedule, exactly once whatever the number of processes and wake-ups: in ONE
// transaction on the cluster of the due index's row, that row is claimed (FOR UPDATE SKIP LOCKED:
// another process running it skips it), then the schedule's own row in the project's schema is
// locked (SKIP LOCKED too — a member's change holding it is never waited for, so neither waits on
// the other) and its state decides: a release not published yet and due is published (publish.ts,
// its savepoints inside this transaction), a scheduled action still `scheduled` and due is applied
// and marked `succeeded` or `failed`; the index row goes in the same commit. A timer firing twice,
// late or for a time since changed finds nothing to do.
import type { Db, DbTransaction } from '@cms/db';
import { publishIn, unpublishIn, writeContext, type DocumentStore, type WriteOrigin } from '@cms/documents';
import { AppError, ValidationError } from '@cms/errors';
import type { ReleaseProject } from './context.ts';
import { markFailed, publishRelease, type PublishReleaseOptions } from './publish.ts';
import type { Release } from './release-json.ts';
import { tryLockRelease } from './release-rows.ts';
import { claimSchedule, postponeSchedule, setSchedule, type IndexedSchedule, type ScheduleKey } from './schedule-index.ts';
import { scheduledActionJson, type ScheduledAction } from './scheduled-actions.ts';
import { setScheduledActionStatus, tryLockScheduledAction } from './scheduled-action-rows.ts';

/** A project whose schedules run, as the scheduler's process sees it now. */
export interface ScheduledProject extends ReleaseProject {
  /** The Postgres cluster of the project's schema (the pool above is that cluster's). */
  cluster: string;
  emit?: DocumentStore['emit'];
  emitRelease?: PublishReleaseOptions['emitRelease'];
  /** Record content history (origin `schedule`, by the member who scheduled it). */
  history: boolean;
}

export type ProjectLookup =
  /** The project is gone for good: its rows are dropped. */
  | { state: 'gone' }
  /** Deleted but restorable: looked at again later. */
  | { state: 'paused' }
  | { state: 'live'; project: ScheduledProject };

export type ScheduleRun =
  /** No such row, or another process holds it. */
  | { outcome: 'none' }
  /** Not due yet by the database's clock (a wake-up early by a clock's skew). */
  | { outcome: 'early'; inMs: number }
  /** The schedule's row is held by a member's change or publish: try again in a moment. */
  | { outcome: 'busy' }
  /** Nothing to run: the target was gone, done, cancelled or moved to another time or cluster. */
  | { outcome: 'skipped' }
  | { outcome: 'published'; kind: 'release'; release: Release; createdBy: number | null }
  | { outcome: 'failed'; kind: 'release'; release: Release; error: ValidationError; createdBy: number | null }
  | { outcome: 'succeeded'; kind: 'action'; action: ScheduledAction; createdBy: number | null }
  | { outcome: 'failed'; kind: 'action'; action: ScheduledAction; error: string; createdBy: number | null };

/** How long a deleted (restorable) project's schedules wait before they are looked at again. */
const PAUSED_MS = 3_600_000;

/**
 * Run the schedule `key` of the due index of `cluster` (its pool: `pool`) if it is due; `found`
 * is where its project is now (looked up before: the transaction holds one connection only).
 * Database errors propagate with nothing changed (the row stays due).
 */
export async function runSchedule(
  pool: Db & { transaction<T>(fn: (tx: DbTransaction) => Promise<T>): Promise<T> }, cluster: string, key: ScheduleKey, found: ProjectLookup,
): Promise<ScheduleRun> {
  return pool.transaction(async (tx): Promise<ScheduleRun> => {
    const claim = await claimSchedule(tx, key);
    if (!claim) return { outcome: 'none' };
    if (claim.inMs > 0) return { outcome: 'early', inMs: claim.inMs };
    if (found.state === 'gone') {
      await setSchedule(tx, key, null);
      return { outcome: 'skipped' };
    }
    if (found.state === 'paused') {
      await postponeSchedule(tx, key, PAUSED_MS);
      return { outcome: 'skipped' };
    }
    const { project } = found;
    if (project.cluster !== cluster) {
      // The project moved to another cluster since: its row goes there (due, so run there next).
      await setSchedule(project.pool, key, claim.runAt);
      await setSchedule(tx, key, null);
      return { outcome: 'skipped' };
    }
    const on = { ...project, pool: tx };
    return key.kind === 'release' ? runRelease(tx, on, key, claim) : runAction(tx, on, key, claim);
  });
}

/** The database's now, from the claim (its `inMs` was measured against it). */
const nowOf = (claim: IndexedSchedule) => Date.parse(claim.runAt) - claim.inMs;

const authorOf = (project: ScheduledProject, createdBy: number | null): WriteOrigin | null =>
  project.history ? { origin: 'schedule', createdBy: createdBy === null ? null : { type: 'account', id: createdBy } } : null;

async function runRelease(tx: DbTransaction, project: ScheduledProject, key: ScheduleKey, claim: IndexedSchedule): Promise<ScheduleRun> {
  const row = await tryLockRelease(tx, project.schema, key.targetId);
  if (row === 'busy') return { outcome: 'busy' };
  // Deleted, published, unscheduled or moved later: the index row was stale (it is kept in step
  // with the release; this is the safety net), so it follows the release.
  if (row === null || row.releasedAt !== null || row.scheduledAt === null) {
    await setSchedule(tx, key, null);
    return { outcome: 'skipped' };
  }
  if (Date.parse(row.scheduledAt) > nowOf(claim)) {
    await setSchedule(tx, key, row.scheduledAt);
    return { outcome: 'skipped' };
  }
  const options: PublishReleaseOptions = {
    ...project, releaseId: row.id, emit: project.emit, emitRelease: project.emitRelease, history: authorOf(project, row.createdBy),
  };
  let result;
  try {
    result = await publishRelease(options);
  } catch (error) {
    // Nothing to publish (no entries): the schedule fails as a publish would.
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    result = await markFailed(options, error instanceof ValidationError ? error : new ValidationError(error.message, error.details));
  }
  await setSchedule(tx, key, null);
  if (result.outcome === 'done') return { outcome: 'skipped' };
  if (result.outcome === 'failed') return { outcome: 'failed', kind: 'release', release: result.release, error: result.error, createdBy: row.createdBy };
  return { outcome: 'published', kind: 'release', release: result.release, createdBy: row.createdBy };
}

async function runAction(tx: DbTransaction, project: ScheduledProject, key: ScheduleKey, claim: IndexedSchedule): Promise<ScheduleRun> {
  const row = await tryLockScheduledAction(tx, project.schema, key.targetId);
  if (row === 'busy') return { outcome: 'busy' };
  if (row === null || row.status !== 'scheduled') {
    await setSchedule(tx, key, null);
    return { outcome: 'skipped' };
  }
  if (Date.parse(row.scheduledFor) > nowOf(claim)) {
    await setSchedule(tx, key, row.scheduledFor);
    return { outcome: 'skipped' };
  }
  const store = { model: project.model, physical: project.physical, emit: project.emit, history: authorOf(project, row.createdBy) };
  const req = { uid: row.contentType, documentId: row.documentId, locale: row.locale ?? project.defaultLocale };
  let error: string | null = null;
  try {
    // A savepoint: a refused publish leaves nothing behind, and the failure is recorded below.
    await tx.transaction(async (sp) => {
      const ctx = writeContext(project, sp);
      if (row.action === 'publish') await publishIn(ctx, store, req);
      else await unpublishIn(ctx, store, req);
    });
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    error = err.message.slice(0, 2000);
  }
  await setScheduledActionStatus(tx, project.schema, row.id, error === null ? 'succeeded' : 'failed', error);
  await setSchedule(tx, key, null);
  const action = scheduledActionJson({ ...row, status: error === null ? 'succeeded' : 'failed', error });
  return error === null
    ? { outcome: 'succeeded', kind: 'action', action, createdBy: row.createdBy }
    : { outcome: 'failed', kind: 'action', action, error, createdBy: row.createdBy };
}
