// The records of a project's archives (exports and backups) in the control plane
// (`platform.project_archives`): what was asked, where it is stored, how it ended.
import { randomBytes } from 'node:crypto';
import { createId } from '@paralleldrive/cuid2';
import { compiledQuery, type Db } from '@cms/db';
import type { ArchiveCounts } from './project-archive.ts';

export type ArchiveKind = 'export' | 'manual' | 'scheduled';
export type ArchiveStatus = 'running' | 'done' | 'failed';

export interface ArchiveRecord {
  id: string;
  projectId: number;
  kind: ArchiveKind;
  status: ArchiveStatus;
  storageKey: string;
  size: number | null;
  counts: ArchiveCounts | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  expiresAt: string | null;
}

/** Attempts at a project's daily backup before the day is given up (a failure is retried at the next round). */
export const MAX_DAILY_ATTEMPTS = 3;

/** A running archive whose heartbeat is older than this was left by a process that stopped. */
export const HEARTBEAT_TIMEOUT_S = 60;
const INTERRUPTED = 'interrupted: the process writing it stopped; start it again';

const COLUMNS = `id, project_id::int AS "projectId", kind, status, storage_key AS "storageKey", size::float8 AS size, counts, error,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
  to_char(finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "finishedAt",
  to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "expiresAt"`;

export class ArchiveStore {
  constructor(private readonly db: Db) {}

  private async query<T>(text: string, values: unknown[]): Promise<T[]> {
    return (await this.db.any(compiledQuery({ text, values }))) as unknown as T[];
  }

  /**
   * A new running archive; `keyOf` names its object from the id and an unguessable part. Kept
   * `keepDays` from its creation (backups; exports are not expired). `createdAt` is the
   * maintenance round's clock for scheduled backups (now otherwise).
   */
  async create(projectId: number, kind: ArchiveKind, keyOf: (name: string) => string, times: { keepDays?: number; createdAt?: Date } = {}): Promise<ArchiveRecord> {
    const id = createId();
    const key = keyOf(`${id}-${randomBytes(16).toString('hex')}.tar.gz`);
    const [row] = await this.query<ArchiveRecord>(
      `WITH t AS (SELECT coalesce($5::timestamptz, now()) AS created)
       INSERT INTO platform.project_archives (id, project_id, kind, storage_key, created_at, expires_at)
       SELECT $1, $2, $3, $4, t.created, t.created + make_interval(days => $6::int) FROM t RETURNING ${COLUMNS}`,
      [id, projectId, kind, key, times.createdAt?.toISOString() ?? null, times.keepDays ?? null]);
    return row!;
  }

  /** Finished archives past their expiry at `now` (backups beyond their plan's retention). */
  async expired(now: Date, limit = 100): Promise<ArchiveRecord[]> {
    return this.query<ArchiveRecord>(
      `SELECT ${COLUMNS} FROM platform.project_archives WHERE expires_at < $1::timestamptz AND status <> 'running' ORDER BY expires_at LIMIT $2`,
      [now.toISOString(), limit]);
  }

  async remove(id: string): Promise<void> {
    await this.query('DELETE FROM platform.project_archives WHERE id = $1', [id]);
  }

  /**
   * Projects whose daily backup is due at `now`: each project has its minute of the day (spread
   * by a hash of its id, so a deployment's backups do not all start at midnight); one is due when
   * that minute has passed since its last scheduled backup, or since its last failed attempts
   * (up to MAX_DAILY_ATTEMPTS). Deleted projects, projects younger than their slot and
   * environments (copies of a project that has its own) are not.
   */
  async dueBackups(now: Date, limit: number): Promise<Array<{ id: number; slug: string }>> {
    return (await this.db.any(compiledQuery({
      text: `SELECT id::int AS id, slug FROM (
               SELECT id, slug, created_at, slot - CASE WHEN slot > $1::timestamptz THEN interval '1 day' ELSE interval '0' END AS last_slot
               FROM (SELECT id, slug, created_at, date_trunc('day', $1::timestamptz, 'UTC') + make_interval(mins => (((id * 2654435761) % 4294967296) % 1440)::int) AS slot
                     FROM platform.projects WHERE deleted_at IS NULL AND parent_id IS NULL) s
             ) p
             WHERE p.created_at < p.last_slot
               AND NOT EXISTS (SELECT 1 FROM platform.project_archives a WHERE a.project_id = p.id AND a.kind = 'scheduled' AND a.created_at >= p.last_slot AND a.status <> 'failed')
               AND (SELECT count(*) FROM platform.project_archives a WHERE a.project_id = p.id AND a.kind = 'scheduled' AND a.created_at >= p.last_slot) < $2
             ORDER BY p.last_slot, p.id LIMIT $3`,
      values: [now.toISOString(), MAX_DAILY_ATTEMPTS, limit],
    }))) as unknown as Array<{ id: number; slug: string }>;
  }

  async get(projectId: number, id: string): Promise<ArchiveRecord | null> {
    await this.failStale(projectId);
    const [row] = await this.query<ArchiveRecord>(`SELECT ${COLUMNS} FROM platform.project_archives WHERE project_id = $1 AND id = $2`, [projectId, id]);
    return row ?? null;
  }

  async list(projectId: number, kinds: readonly ArchiveKind[]): Promise<ArchiveRecord[]> {
    await this.failStale(projectId);
    return this.query<ArchiveRecord>(
      `SELECT ${COLUMNS} FROM platform.project_archives WHERE project_id = $1 AND kind = ANY($2::text[]) ORDER BY created_at DESC, id DESC`,
      [projectId, kinds]);
  }

  async heartbeat(id: string): Promise<void> {
    await this.query(`UPDATE platform.project_archives SET heartbeat_at = now() WHERE id = $1 AND status = 'running'`, [id]);
  }

  async finish(id: string, size: number, counts: ArchiveCounts): Promise<void> {
    await this.query(
      `UPDATE platform.project_archives SET status = 'done', size = $2, counts = $3::jsonb, finished_at = now() WHERE id = $1 AND status = 'running'`,
      [id, size, JSON.stringify(counts)]);
  }

  async fail(id: string, error: string): Promise<void> {
    await this.query(
      `UPDATE platform.project_archives SET status = 'failed', error = $2, finished_at = now() WHERE id = $1 AND status = 'running'`,
      [id, error.slice(0, 1000)]);
  }

  /** Running archives of the project whose process stopped are failed (read before every answer). */
  private async failStale(projectId: number): Promise<void> {
    await this.query(
      `UPDATE platform.project_archives SET status = 'failed', error = $2, finished_at = now()
       WHERE project_id = $1 AND status = 'running' AND heartbeat_at < now() - make_interval(secs => $3)`,
      [projectId, INTERRUPTED, HEARTBEAT_TIMEOUT_S]);
  }
}
