// Moving a project's schema to another Postgres cluster (docs/operations.md § More than one
// Postgres cluster). Reads go on throughout; writes wait for the length of one copy:
//
// 1. The project's control row is locked (schema pushes and locale deletes of the project wait).
// 2. On the source cluster, one transaction takes EXCLUSIVE locks on every table of the schema
//    (NOWAIT, retried: the mover never waits inside a lock queue, so it is never part of a
//    deadlock with a writer). Reads (ACCESS SHARE) go on; every write waits on the lock.
// 3. That transaction exports its snapshot; `pg_dump --snapshot` of the schema is piped into
//    `psql --single-transaction` on the target: tables, rows (COPY), sequences, then indexes,
//    constraints and triggers (so the copy does not fire the row-count triggers).
// 4. The target gets the copies of the project's control rows (roles, webhooks), then the control
//    row's `cluster` is switched and committed, and the project is invalidated on every gateway.
// 5. The source schema is dropped in the locking transaction. Writes that waited on its locks
//    then fail with "relation does not exist" (42P01) and rerun on the reloaded project, now on
//    the target (the gateway's rerun for a stale model); so do reads that queued behind the drop.
import { spawn } from 'node:child_process';
import { copyProjectAuditEntries, removeProjectAuditEntriesIn } from '@cms/audit';
import { CONTROL_CLUSTER } from '@cms/config';
import { column, exec, quoteIdent, rows, sqlState, type Db } from '@cms/db';
import { ApplicationError, NotFoundError } from '@cms/errors';
import { clusterOf, copyControlRows, type ClusterPools } from './clusters.ts';
import type { Invalidation } from './registry.ts';

export interface MovePools extends ClusterPools {
  urlOf(name: string): string;
}

export interface MoveOptions {
  /** How long to keep trying to lock the project's tables (busy writers), ms. */
  lockWaitMs?: number;
  /** `pg_dump` and `psql` (of the servers' major version), found on PATH by default. */
  pgDump?: string;
  psql?: string;
  /**
   * Told when writes start waiting (`paused`: the tables are locked, the copy starts) and when
   * the control row points at the target (`switched`); awaited (the command logs them).
   */
  onPhase?: (phase: 'paused' | 'switched') => void | Promise<void>;
}

export interface MoveReport {
  projectId: number;
  slug: string;
  from: string;
  to: string;
  /** Tables copied. */
  tables: number;
  /** How long writes waited: from the tables' lock to the source schema's drop, ms. */
  pausedMs: number;
  /** Of it, the copy (pg_dump | psql), ms. */
  copyMs: number;
  /** Bytes of the dump streamed from source to target. */
  bytes: number;
}

const LOCK_NOT_AVAILABLE = '55P03';

/** Move project `slug` to cluster `to`; `invalidate` tells every gateway (the registry's). */
export async function moveProject(
  pools: MovePools, invalidate: (inv: Invalidation) => Promise<void>, slug: string, to: string, options: MoveOptions = {},
): Promise<MoveReport> {
  if (!pools.clusters.includes(to)) throw new ApplicationError(`Unknown cluster "${to}": configured are ${pools.clusters.join(', ')}`, {}, 400);
  const [project] = await rows<{ id: number; schemaName: string; cluster: string }>(pools.pool,
    'SELECT id, schema_name AS "schemaName", cluster FROM platform.projects WHERE slug = $1', [slug]);
  if (!project) throw new NotFoundError(`No project "${slug}"`);
  const from = clusterOf(project);
  if (from === to) throw new ApplicationError(`Project "${slug}" is on cluster "${to}" already`, {}, 409);
  const source = pools.poolOf(from);
  const target = pools.poolOf(to);
  const deadline = Date.now() + (options.lockWaitMs ?? 30_000);
  for (;;) {
    // A schema of that name on the target is a failed attempt's leftover (the control row never
    // pointed there).
    await exec(target, `DROP SCHEMA IF EXISTS ${quoteIdent(project.schemaName)} CASCADE`);
    try {
      // Two transactions whose commit order matters (control first, then the source's drop that
      // releases the writers): run by hand on a connection each.
      const report = await pools.pool.connect((control) => source.connect((src) => switchOver(control, src)));
      // Every gateway is told once the writers that waited are let go and their connections are
      // back: the invalidation's hooks take connections of those pools (told while the writers
      // still waited, it would wait for them, and they for the move, until their statement timeout).
      await invalidate({ projectId: report.projectId, slug, scope: 'project' });
      return report;
    } catch (err) {
      if (sqlState(err) !== LOCK_NOT_AVAILABLE || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 80));
    }
  }

  async function switchOver(control: Db, src: Db): Promise<MoveReport> {
    let committed = false;
    let report: MoveReport;
    await exec(control, 'BEGIN');
    await exec(src, 'BEGIN');
    try {
      // NO KEY UPDATE: serialises with schema pushes (FOR UPDATE) and locale deletes (FOR SHARE),
      // not with writes whose foreign keys point at the row (FOR KEY SHARE).
      const [cluster] = await column(control, 'SELECT cluster FROM platform.projects WHERE id = $1 FOR NO KEY UPDATE', [project!.id]);
      if (cluster !== from) throw new ApplicationError(`Project "${slug}" moved meanwhile (it is on "${cluster ?? 'nothing'}")`, {}, 409);
      const tables = await column(src, `SELECT format('%I.%I', schemaname, tablename) FROM pg_tables WHERE schemaname = $1 ORDER BY tablename`, [project!.schemaName]);
      if (tables.length) await exec(src, `LOCK TABLE ${tables.join(', ')} IN EXCLUSIVE MODE NOWAIT`);
      const paused = performance.now();
      await options.onPhase?.('paused');
      const [snapshot] = await column(src, 'SELECT pg_export_snapshot()');
      const copyStart = performance.now();
      const bytes = await copySchema(pools.urlOf(from), pools.urlOf(to), project!.schemaName, snapshot!, options);
      const copyMs = performance.now() - copyStart;
      if (to !== CONTROL_CLUSTER) await target.transaction((t) => copyControlRows(control, t, project!.id));
      await copySchedules(src, target, project!.id);
      // The project's audit log lives on its cluster: it goes along (and leaves the source with its schema).
      await copyProjectAuditEntries(src, target, project!.id);
      await exec(control, 'UPDATE platform.projects SET cluster = $2 WHERE id = $1', [project!.id, to]);
      await exec(control, 'COMMIT');
      committed = true;
      await options.onPhase?.('switched');
      // The writers waiting here are let go into a dropped schema: they find the project on `to`
      // (the control row is committed) and rerun there; every gateway is told after (above).
      await dropSource(src, project!, from);
      await exec(src, 'COMMIT');
      report = { projectId: project!.id, slug, from, to, tables: tables.length, pausedMs: Math.round(performance.now() - paused), copyMs: Math.round(copyMs), bytes };
    } catch (err) {
      await exec(src, 'ROLLBACK').catch(() => {});
      if (!committed) await exec(control, 'ROLLBACK').catch(() => {});
      else await dropSource(source, project!, from).catch(() => {});
      if (!committed) await exec(target, `DROP SCHEMA IF EXISTS ${quoteIdent(project!.schemaName)} CASCADE`).catch(() => {});
      throw err;
    }
    return report;
  }
}

/**
 * The project's rows of the due index of schedules (@cms/releases) follow its schema, so they run
 * on time there; rows left on the source are dropped by the scheduler when they come due.
 */
async function copySchedules(src: Db, target: Db, projectId: number): Promise<void> {
  const found = await rows<{ kind: string; targetId: string; runAt: string }>(src,
    'SELECT kind, target_id::text AS "targetId", run_at::text AS "runAt" FROM platform.content_schedules WHERE project_id = $1', [projectId]);
  for (const r of found) {
    await exec(target, `INSERT INTO platform.content_schedules (project_id, kind, target_id, run_at) VALUES ($1, $2, $3::bigint, $4::timestamptz)
      ON CONFLICT (project_id, kind, target_id) DO UPDATE SET run_at = EXCLUDED.run_at`, [projectId, r.kind, r.targetId, r.runAt]);
  }
}

async function dropSource(source: Db, project: { id: number; schemaName: string }, from: string): Promise<void> {
  await exec(source, `DROP SCHEMA IF EXISTS ${quoteIdent(project.schemaName)} CASCADE`);
  await removeProjectAuditEntriesIn(source, project.id);
  // Its copies of control rows go too, unless deliveries are still on their way from there.
  if (from !== CONTROL_CLUSTER) {
    await exec(source, `DELETE FROM platform.projects p WHERE p.id = $1
      AND NOT EXISTS (SELECT 1 FROM platform.webhook_deliveries d WHERE d.project_id = p.id AND d.status IN ('pending', 'retrying'))`, [project.id]);
  }
}

/** `pg_dump` of one schema in `snapshot`, streamed into `psql` on the target in one transaction; resolves with the bytes moved. */
function copySchema(fromUrl: string, toUrl: string, schema: string, snapshot: string, options: MoveOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    const dump = spawn(options.pgDump ?? 'pg_dump', ['--snapshot', snapshot, '--schema', schema, '--no-owner', '--no-privileges', '--dbname', fromUrl], { stdio: ['ignore', 'pipe', 'pipe'] });
    const load = spawn(options.psql ?? 'psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '--single-transaction', '--dbname', toUrl], { stdio: ['pipe', 'ignore', 'pipe'] });
    let bytes = 0;
    const errors: string[] = [];
    dump.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
    dump.stdout.pipe(load.stdin);
    dump.stderr.on('data', (d: Buffer) => errors.push(`pg_dump: ${d.toString().trim()}`));
    load.stderr.on('data', (d: Buffer) => errors.push(`psql: ${d.toString().trim()}`));
    let pending = 2;
    let failed = false;
    const done = (name: string) => (code: number | null) => {
      if (code !== 0) failed = true;
      if (code !== 0 && errors.length === 0) errors.push(`${name} exited with ${code}`);
      if (--pending > 0) return;
      if (failed) reject(new Error(`copying schema ${schema} failed: ${errors.join('; ')}`));
      else resolve(bytes);
    };
    dump.on('error', (err) => { errors.push(`pg_dump: ${err.message}`); });
    load.on('error', (err) => { errors.push(`psql: ${err.message}`); });
    dump.on('close', done('pg_dump'));
    load.on('close', done('psql'));
  });
}
