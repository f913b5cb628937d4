// The records of a project's restores (`platform.project_restores`): which backup, into what, how
// it ended. Like archives, a running restore whose process stopped is reported failed.
import { createId } from '@paralleldrive/cuid2';
import { compiledQuery, type Db } from '@cms/db';
import { HEARTBEAT_TIMEOUT_S } from './archive-store.ts';

export type RestoreTarget = 'in-place' | 'new-project';

export interface RestoreRecord {
  id: string;
  projectId: number;
  archiveId: string;
  target: RestoreTarget;
  status: 'running' | 'done' | 'failed';
  /** The project being written: the staged one (in place) or the new one. */
  intoProjectId: number | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

const COLUMNS = `id, project_id::int AS "projectId", archive_id AS "archiveId", target, status, into_project_id::int AS "intoProjectId", error,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
  to_char(finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "finishedAt"`;

export class RestoreStore {
  constructor(private readonly db: Db) {}

  private async query<T>(text: string, values: unknown[]): Promise<T[]> {
    return (await this.db.any(compiledQuery({ text, values }))) as unknown as T[];
  }

  async create(projectId: number, archiveId: string, target: RestoreTarget): Promise<RestoreRecord> {
    const [row] = await this.query<RestoreRecord>(
      `INSERT INTO platform.project_restores (id, project_id, archive_id, target) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
      [createId(), projectId, archiveId, target]);
    return row!;
  }

  async get(projectId: number, id: string): Promise<RestoreRecord | null> {
    await this.query(
      `UPDATE platform.project_restores SET status = 'failed', error = 'interrupted: the process restoring it stopped; start it again', finished_at = now()
       WHERE project_id = $1 AND status = 'running' AND heartbeat_at < now() - make_interval(secs => $2)`, [projectId, HEARTBEAT_TIMEOUT_S]);
    const [row] = await this.query<RestoreRecord>(`SELECT ${COLUMNS} FROM platform.project_restores WHERE project_id = $1 AND id = $2`, [projectId, id]);
    return row ?? null;
  }

  /** Whether a restore of the project is running (one at a time). */
  async running(projectId: number): Promise<boolean> {
    const rows = await this.query(
      `SELECT 1 FROM platform.project_restores WHERE project_id = $1 AND status = 'running' AND heartbeat_at >= now() - make_interval(secs => $2)`,
      [projectId, HEARTBEAT_TIMEOUT_S]);
    return rows.length > 0;
  }

  async writingInto(id: string, projectId: number): Promise<void> {
    await this.query('UPDATE platform.project_restores SET into_project_id = $2 WHERE id = $1', [id, projectId]);
  }

  async heartbeat(id: string): Promise<void> {
    await this.query(`UPDATE platform.project_restores SET heartbeat_at = now() WHERE id = $1 AND status = 'running'`, [id]);
  }

  async finish(id: string): Promise<void> {
    await this.query(`UPDATE platform.project_restores SET status = 'done', finished_at = now() WHERE id = $1 AND status = 'running'`, [id]);
  }

  async fail(id: string, error: string): Promise<void> {
    await this.query(`UPDATE platform.project_restores SET status = 'failed', error = $2, finished_at = now() WHERE id = $1 AND status = 'running'`, [id, error.slice(0, 1000)]);
  }
}
