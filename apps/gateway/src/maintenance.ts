// The platform's periodic work, one round a minute (MAINTENANCE_INTERVAL_MS) for the whole
// deployment: purge deleted projects past their restore window, drop backups past their plan's
// retention, start the daily backups that are due, delete content history past the plan's
// retention, live stream events and audit log entries past theirs (each project once a day). With Redis the rounds are a BullMQ job scheduler (one round per interval
// whatever the number of gateways, run by one of them); without, a timer in this process. Each
// round also holds a Postgres advisory lock, so two rounds never overlap: what a round does is
// read from Postgres (what is due at its clock), never from memory.
// The purge, expiry and history prune are safe to repeat; a backup's record is created under the lock.
import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { detached, withTryLock } from '@cms/db';
import { ACCOUNT_AUDIT_RETENTION_DAYS, auditRetentionDays, pruneAccountAuditEntries, pruneAuditEntries } from '@cms/audit';
import { backupRetentionDays, effectivePlan, historyRetentionDays } from '@cms/billing';
import type { Config } from '@cms/config';
import { dueHistoryPrunes, markHistoryPruned, pruneHistory } from '@cms/documents';
import { pruneLiveEvents } from '@cms/live';
import { bullPrefix, type MediaLibrary } from '@cms/media';
import type { Logger } from '@cms/telemetry';
import type { ArchiveRecord, ArchiveRunner, ArchiveStore } from '@cms/transfer';
import type { ProjectRecord, ProjectRegistry } from '@cms/tenancy';
import type { DatabasePool } from 'slonik';
import { purgeProject, type ProjectDeletion } from './management/project-deletion.ts';

/** What the rounds use of the platform. */
export interface MaintenanceDeps extends ProjectDeletion {
  config: Config;
  logger: Logger;
  db: { pool: DatabasePool; poolOf(cluster: string): DatabasePool };
  registry: ProjectRegistry;
  media: MediaLibrary;
  archiveStore: ArchiveStore;
  archives: ArchiveRunner<ProjectRecord>;
}

export const MAINTENANCE_QUEUE = 'maintenance';
/** Daily backups started per round (each is written in the background by the round's process). */
const BACKUPS_PER_ROUND = 4;
/** Projects whose history a round prunes at most, and for how long at most (the rest stay due). */
const HISTORY_PROJECTS_PER_ROUND = 20;
const HISTORY_ROUND_MS = 10_000;
const DAY_MS = 86_400_000;
/** Live stream events kept per project beyond a day (management API § Delivery: the live stream). */
const LIVE_EVENTS_KEPT = 10_000;
/** `pg_try_advisory_lock` key of a round. */
const ROUND_LOCK = 0x636d73_01;

/** A round's work: purge deleted projects, expire backups, start due daily backups, prune content history (and the live log). */
export const MAINTENANCE_TASKS = ['purge', 'expire', 'backup', 'history'] as const;
export type MaintenanceTask = (typeof MAINTENANCE_TASKS)[number];

export interface RoundReport {
  /** false: another round held the lock; nothing was done. */
  ran: boolean;
  purged: string[];
  expiredBackups: number;
  backupsStarted: string[];
  /** Projects whose history was pruned, and the versions deleted. */
  historyPruned: string[];
  historyVersionsDeleted: number;
  /** Live stream events past retention (kept: a day and the last 10,000 per project), of the same projects. */
  liveEventsDeleted: number;
  /** Audit log entries past their plan's retention, of the same projects, and of accounts' own logs. */
  auditEntriesDeleted: number;
}

export class Maintenance {
  private timer: NodeJS.Timeout | null = null;
  private queue: Queue | null = null;
  private worker: Worker | null = null;
  private connections: Redis[] = [];
  private current: Promise<unknown> = Promise.resolve();

  constructor(private readonly platform: MaintenanceDeps) {}

  /** Rounds from now on (the scheduler with Redis, else a timer). */
  async start(): Promise<void> {
    const { config, logger } = this.platform;
    const round = () => {
      this.current = detached(() => this.round()).catch((err: unknown) => logger.error({ err }, 'maintenance round failed'));
      return this.current;
    };
    if (!config.redisUrl) {
      this.timer = setInterval(round, config.maintenance.intervalMs);
      this.timer.unref();
      return;
    }
    const connection = () => {
      const redis = new Redis(config.redisUrl!, { maxRetriesPerRequest: null, enableReadyCheck: false });
      this.connections.push(redis);
      return redis as unknown as ConnectionOptions;
    };
    const prefix = bullPrefix(config);
    this.queue = new Queue(MAINTENANCE_QUEUE, { connection: connection(), prefix });
    // The same scheduler id from every gateway: one schedule, upserted.
    await this.queue.upsertJobScheduler('round', { every: config.maintenance.intervalMs }, { name: 'round', opts: { removeOnComplete: { count: 10 }, removeOnFail: { count: 100 } } });
    this.worker = new Worker(MAINTENANCE_QUEUE, async () => { await round(); }, { connection: connection(), prefix, concurrency: 1 });
    this.worker.on('error', (err) => logger.warn({ err }, 'maintenance worker error'));
  }

  /**
   * One round at `now` (the clock tests move forward), doing `tasks` (all of them by default).
   * Resolves with what it did; `ran` is false when another process's round held the lock.
   */
  async round(now = new Date(), tasks: readonly MaintenanceTask[] = MAINTENANCE_TASKS): Promise<RoundReport> {
    const { platform } = this;
    const report: RoundReport = { ran: false, purged: [], expiredBackups: 0, backupsStarted: [], historyPruned: [], historyVersionsDeleted: 0, liveEventsDeleted: 0, auditEntriesDeleted: 0 };
    const started: Array<{ project: ProjectRecord; record: ArchiveRecord }> = [];
    const locked = await withTryLock(platform.db.pool, ROUND_LOCK, async () => {
      if (tasks.includes('purge')) for (const project of await platform.projects.expiredDeleted(now)) {
        await purgeProject(platform, project);
        report.purged.push(project.slug);
      }
      if (tasks.includes('expire')) for (const archive of await platform.archiveStore.expired(now)) {
        await platform.media.deleteArchive(archive.storageKey);
        await platform.archiveStore.remove(archive.id);
        report.expiredBackups++;
      }
      // Records are created under the lock: another round cannot find the same backups due.
      if (tasks.includes('backup')) for (const due of await platform.archiveStore.dueBackups(now, BACKUPS_PER_ROUND)) {
        const tenant = await platform.registry.resolve(due.slug);
        if (!tenant) continue;
        const project = tenant.project;
        const record = await platform.archiveStore.create(project.id, 'scheduled', (name) => platform.media.archiveKey(project.id, name),
          { keepDays: backupRetentionDays(project, now.getTime()), createdAt: now });
        started.push({ project, record });
      }
      if (tasks.includes('history')) await this.pruneHistory(now, report);
      return true;
    });
    report.ran = locked === true;
    for (const { project, record } of started) {
      platform.archives.write(project, record);
      report.backupsStarted.push(project.slug);
    }
    if (report.purged.length || report.expiredBackups || started.length || report.historyVersionsDeleted || report.liveEventsDeleted || report.auditEntriesDeleted) platform.logger.info(report, 'maintenance round');
    return report;
  }

  /**
   * Delete the versions past their plan's retention of the projects due at `now`, on each one's
   * cluster. A project left unfinished (the round's time ran out) or failing stays due.
   */
  private async pruneHistory(now: Date, report: RoundReport): Promise<void> {
    const { platform } = this;
    const deadline = Date.now() + HISTORY_ROUND_MS;
    // Accounts' own logs (sign-ins, security changes): one cutoff, an indexed delete.
    report.auditEntriesDeleted += await pruneAccountAuditEntries(platform.db.pool, new Date(now.getTime() - ACCOUNT_AUDIT_RETENTION_DAYS * DAY_MS));
    for (const project of await dueHistoryPrunes(platform.db.pool, now, HISTORY_PROJECTS_PER_ROUND)) {
      if (Date.now() >= deadline) break;
      const before = new Date(now.getTime() - historyRetentionDays(project, now.getTime()) * DAY_MS);
      try {
        const pool = platform.db.poolOf(project.cluster);
        report.liveEventsDeleted += await pruneLiveEvents(pool, project.schemaName, LIVE_EVENTS_KEPT, DAY_MS);
        // The audit log's entries past the plan's retention (7 / 90 / 365 days), on the project's cluster.
        const auditBefore = new Date(now.getTime() - auditRetentionDays(effectivePlan(project, now.getTime())) * DAY_MS);
        report.auditEntriesDeleted += await pruneAuditEntries(pool, { projectId: project.id, accountId: null }, auditBefore);
        const pruned = await pruneHistory(pool, project.schemaName, before, { deadline });
        report.historyVersionsDeleted += pruned.versions;
        if (pruned.versions) report.historyPruned.push(project.slug);
        if (pruned.done) await markHistoryPruned(platform.db.pool, project.id, now);
      } catch (err) {
        // A schema dropped or moved meanwhile (a purge, a restore, a move): tried again next round.
        platform.logger.warn({ err, projectId: project.id }, 'content history prune failed');
      }
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.worker?.close();
    await this.queue?.close();
    for (const redis of this.connections) redis.disconnect();
    await this.current;
  }
}
