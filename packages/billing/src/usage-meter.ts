// Counts content-API requests per project (by route) and the requests rate limits refused, in
// memory, and writes them in one statement for all projects every few seconds (never one write
// per request). Counts go to the month and the UTC day of the write.
import type { Db } from '@cms/db';
import type { Logger } from '@cms/telemetry';
import { ProjectCounts, type RejectionKind } from './usage-counts.ts';
import { writeUsage } from './usage-write.ts';

export function currentPeriod(now = new Date()): { period: string; monthStart: string } {
  const period = now.toISOString().slice(0, 7);
  return { period, monthStart: `${period}-01` };
}

/** The UTC day (`YYYY-MM-DD`) usage is written under now. */
export function currentDay(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

export class UsageMeter {
  private pending = new Map<number, ProjectCounts>();
  /** The batch being written: still counted by `unflushed` until the write commits. */
  private writing = new Map<number, ProjectCounts>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** The day old route rows were last pruned by this instance (once a day is enough). */
  private prunedDay = '';

  constructor(private readonly db: Db, private readonly logger: Logger, intervalMs = 5_000) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  /** One metered request of a project, under its route (`GET /api/articles`). */
  record(projectId: number, route: string): void {
    this.countsOf(projectId).request(route, 1);
  }

  /** One request a rate limit refused (429). */
  reject(projectId: number, kind: RejectionKind): void {
    this.countsOf(projectId).rejected[kind]++;
  }

  /** Requests counted on this instance and not yet written. */
  unflushed(projectId: number): number {
    return (this.pending.get(projectId)?.requests ?? 0) + (this.writing.get(projectId)?.requests ?? 0);
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private countsOf(projectId: number): ProjectCounts {
    let counts = this.pending.get(projectId);
    if (!counts) this.pending.set(projectId, (counts = new ProjectCounts()));
    return counts;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.writing = batch;
    const now = new Date();
    const day = currentDay(now);
    const prune = this.prunedDay !== day;
    try {
      await writeUsage(this.db, batch, { monthStart: currentPeriod(now).monthStart, day, prune });
      if (prune) this.prunedDay = day;
    } catch (err) {
      // Keep the counts for the next attempt rather than losing them.
      for (const [id, counts] of batch) this.countsOf(id).add(counts);
      this.logger.warn({ err }, 'usage flush failed');
    } finally {
      this.writing = new Map();
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
