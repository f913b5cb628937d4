// Counts content-API requests per project in memory and writes them in one statement for all
// projects every few seconds (never one write per request).
import { compiledQuery, type Db } from '@cms/db';
import type { Logger } from '@cms/telemetry';

export function currentPeriod(now = new Date()): { period: string; monthStart: string } {
  const period = now.toISOString().slice(0, 7);
  return { period, monthStart: `${period}-01` };
}

export class UsageMeter {
  private pending = new Map<number, number>();
  /** The batch being written: still counted by `unflushed` until the write commits. */
  private writing = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly db: Db, private readonly logger: Logger, intervalMs = 5_000) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  record(projectId: number): void {
    this.pending.set(projectId, (this.pending.get(projectId) ?? 0) + 1);
  }

  /** Requests counted on this instance and not yet written. */
  unflushed(projectId: number): number {
    return (this.pending.get(projectId) ?? 0) + (this.writing.get(projectId) ?? 0);
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.writing = batch;
    const ids = [...batch.keys()];
    const counts = ids.map((id) => batch.get(id)!);
    try {
      await this.db.query(compiledQuery({
        text: `INSERT INTO platform.usage_counters (project_id, period, requests)
               SELECT u.project_id, $3::date, u.n FROM unnest($1::bigint[], $2::bigint[]) AS u(project_id, n)
               WHERE EXISTS (SELECT 1 FROM platform.projects p WHERE p.id = u.project_id)
               ON CONFLICT (project_id, period) DO UPDATE SET requests = platform.usage_counters.requests + EXCLUDED.requests`,
        values: [ids, counts, currentPeriod().monthStart],
      }));
    } catch (err) {
      // Keep the counts for the next attempt rather than losing them.
      for (const [id, n] of batch) this.pending.set(id, (this.pending.get(id) ?? 0) + n);
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
