// When scheduled releases and scheduled actions run. The rows are the truth (@cms/releases: each
// schedule's row in the project's schema, and its row of the due index `platform.content_schedules`
// on the project's cluster, written in the same transaction); what this module adds is only the
// wake-up, and `runSchedule` decides under a row lock, so a wake-up twice, late or for a time since
// changed does nothing more:
//
// - with Redis, one BullMQ delayed job per schedule and time (queue `schedules`, job id
//   `sch-{cluster}-{project}-{kind}-{id}-{ms}`: a changed time is a new job; the old one fires into
//   nothing), added after the change commits and processed by any gateway with SCHEDULER on;
// - without Redis, a timer in this process;
// - and in every process with SCHEDULER on, a sweep of the due index at start and every
//   SCHEDULER_SWEEP_MS (one indexed query per cluster): due rows are run at once — what a lost
//   wake-up missed (Redis flushed or down, a gateway killed past the time) runs within one sweep —
//   and rows due before the next sweep get their wake-up (again: the same job id adds nothing).
import { Queue, Worker, type ConnectionOptions, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { Config } from '@cms/config';
import { detached, type Database } from '@cms/db';
import { bullPrefix } from '@cms/media';
import { dueSchedules, postponeSchedule, runSchedule, type ProjectLookup, type ScheduleKey, type ScheduleRun } from '@cms/releases';
import type { Logger } from '@cms/telemetry';

export const SCHEDULE_QUEUE = 'schedules';
/** Rows the sweep reads per cluster and round (the next round reads on). */
const SWEEP_BATCH = 100;
/** Without Redis, a timer is set only this far ahead: the sweep sets later ones when they come near. */
const TIMER_HORIZON_MS = 3_600_000;
/** A schedule held by a member's change is tried again this often, this many times (then: the sweep). */
const BUSY_RETRY_MS = 200;
const BUSY_RETRIES = 25;
/** A wake-up this early by the database's clock waits for it (clocks' skew); earlier: the sweep. */
const EARLY_WAIT_MS = 10_000;
/** A run that failed on an error of its own (not a refused publish) is tried again after this. */
const ERROR_RETRY_MS = 10_000;

interface WakeJob extends ScheduleKey {
  cluster: string;
  runAt: string;
}

/** What running a schedule needs of the platform (schedule-hooks.ts), given at start. */
export interface ScheduleHooks {
  /** Where project `projectId` is now: its schema, model and hooks, or gone / deleted. */
  lookup(projectId: number): Promise<ProjectLookup>;
  /** After a run committed: e-mail the author of a failed one. */
  notify(run: ScheduleRun, projectId: number): Promise<void>;
}

export interface SchedulerDeps {
  config: Config;
  logger: Logger;
  db: Pick<Database, 'clusters' | 'poolOf'>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Scheduler {
  private queue: Queue<WakeJob> | null = null;
  private worker: Worker<WakeJob> | null = null;
  private connections: Redis[] = [];
  private hooks: ScheduleHooks | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Set<Promise<unknown>>();
  private sweeping: Promise<void> | null = null;
  private closed = false;
  /** Runs at once in this process (each holds a connection of its cluster's pool while it runs). */
  private readonly slots: number;
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly deps: SchedulerDeps) {
    this.slots = Math.max(1, Math.min(8, Math.floor(deps.config.dbPoolSize / 4)));
  }

  /** The queue (with Redis), made on first use: it adds wake-ups whether or not this process runs them (SCHEDULER off). */
  private queueOf(): Queue<WakeJob> | null {
    if (!this.deps.config.redisUrl) return null;
    this.queue ??= new Queue<WakeJob>(SCHEDULE_QUEUE, { connection: this.connection(), prefix: bullPrefix(this.deps.config) });
    return this.queue;
  }

  private connection(): ConnectionOptions {
    const redis = new Redis(this.deps.config.redisUrl!, { maxRetriesPerRequest: null, enableReadyCheck: false });
    this.connections.push(redis);
    return redis as unknown as ConnectionOptions;
  }

  /** Run schedules from now on (SCHEDULER on): the queue's worker or timers, and the sweep. */
  start(hooks: ScheduleHooks): void {
    const { config, logger } = this.deps;
    this.hooks = hooks;
    if (config.redisUrl) {
      this.worker = new Worker<WakeJob>(SCHEDULE_QUEUE, (job) => this.processJob(job), {
        connection: this.connection(), prefix: bullPrefix(config), concurrency: this.slots,
      });
      this.worker.on('error', (err) => logger.warn({ err }, 'schedule worker error'));
    }
    this.sweepTimer = setInterval(() => void this.sweep(), config.scheduler.sweepMs);
    this.sweepTimer.unref();
    void this.sweep();
  }

  /**
   * A schedule was written (committed): wake it at `runAt` (ISO). Never fails nor waits for the
   * caller (a request): with Redis down the sweep runs it when due.
   */
  wake(cluster: string, key: ScheduleKey, runAt: string | null): void {
    if (runAt === null || this.closed) return;
    const at = Date.parse(runAt);
    const id = `sch-${cluster}-${key.projectId}-${key.kind}-${key.targetId}-${at}`;
    // Outside the calling request's scope: the queue (made here on first use) outlives it.
    const queue = detached(() => this.queueOf());
    if (queue) {
      const added = detached(() => queue.add('run', { ...key, cluster, runAt }, {
        jobId: id, delay: Math.max(0, at - Date.now()), removeOnComplete: true, removeOnFail: { count: 100 },
      }));
      // Not awaited by close either: with Redis down it waits in the connection's queue.
      added.catch((err: unknown) => this.deps.logger.warn({ err, schedule: id }, 'could not add a schedule wake-up (the sweep will run it)'));
      return;
    }
    const delay = at - Date.now();
    if (!this.hooks || this.timers.has(id) || delay > TIMER_HORIZON_MS) return;
    const timer = detached(() => setTimeout(() => {
      this.timers.delete(id);
      void this.fire(cluster, key);
    }, Math.max(0, delay)));
    timer.unref();
    this.timers.set(id, timer);
  }

  private async processJob(job: Job<WakeJob>): Promise<void> {
    const { cluster, projectId, kind, targetId } = job.data;
    await this.fire(cluster, { projectId, kind, targetId });
  }

  /** One sweep of every cluster's due index (never two at once in this process). */
  sweep(): Promise<void> {
    this.sweeping ??= this.sweepClusters().finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  private async sweepClusters(): Promise<void> {
    const { db, config, logger } = this.deps;
    for (const cluster of db.clusters) {
      if (this.closed) return;
      try {
        const rows = await dueSchedules(db.poolOf(cluster), config.scheduler.sweepMs * 2, SWEEP_BATCH);
        const due = rows.filter((r) => r.inMs <= 0);
        for (const r of rows) if (r.inMs > 0) this.wake(cluster, { projectId: r.projectId, kind: r.kind, targetId: r.targetId }, r.runAt);
        await Promise.all(due.map((r) => this.fire(cluster, { projectId: r.projectId, kind: r.kind, targetId: r.targetId })));
      } catch (err) {
        logger.warn({ err, cluster }, 'schedule sweep failed');
      }
    }
  }

  /** Run `key` if due, in one of this process's slots; errors are logged (the row stays due). */
  async fire(cluster: string, key: ScheduleKey): Promise<ScheduleRun | null> {
    if (!this.hooks || this.closed) return null;
    const run = detached(() => this.inSlot(() => this.runWithRetries(cluster, key)));
    this.track(run);
    return run;
  }

  private async runWithRetries(cluster: string, key: ScheduleKey): Promise<ScheduleRun | null> {
    const { db, logger } = this.deps;
    const hooks = this.hooks!;
    let busy = 0;
    let early = 0;
    try {
      for (;;) {
        const pool = db.poolOf(cluster);
        const run = await runSchedule(pool, cluster, key, await hooks.lookup(key.projectId));
        if (run.outcome === 'busy' && ++busy <= BUSY_RETRIES && !this.closed) {
          await sleep(BUSY_RETRY_MS);
          continue;
        }
        if (run.outcome === 'early' && run.inMs <= EARLY_WAIT_MS && ++early <= 3 && !this.closed) {
          await sleep(Math.ceil(run.inMs) + 5);
          continue;
        }
        if ('kind' in run) {
          logger.info({ projectId: key.projectId, kind: key.kind, id: key.targetId, outcome: run.outcome }, 'schedule ran');
          await hooks.notify(run, key.projectId).catch((err: unknown) => logger.warn({ err, ...key }, 'could not notify of a schedule\'s outcome'));
        }
        return run;
      }
    } catch (err) {
      logger.error({ err, cluster, ...key }, 'schedule run failed; trying again later');
      await postponeSchedule(db.poolOf(cluster), key, ERROR_RETRY_MS).catch(() => {});
      return null;
    }
  }

  private async inSlot<T>(fn: () => Promise<T>): Promise<T> {
    while (this.active >= this.slots) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  private track(p: Promise<unknown>): void {
    const tracked = p.catch(() => {}).finally(() => this.running.delete(tracked));
    this.running.add(tracked);
  }

  /** Stop waking and running; waits for the runs in progress. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await this.worker?.close();
    await this.sweeping;
    while (this.running.size > 0) await Promise.all([...this.running]);
    await this.queue?.close();
    for (const redis of this.connections) redis.disconnect();
  }
}
