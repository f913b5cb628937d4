// Requests a project has made this month, for its plan's monthly quota: the database's count
// (read at most every few seconds per project) plus this instance's requests not yet written.
import { LRUCache } from 'lru-cache';
import { compiledQuery, type Db } from '@cms/db';
import { currentPeriod, type UsageMeter } from './usage-meter.ts';

// Other instances' requests reach the database within the meter's flush interval; a quota
// check may miss them for about this much longer.
const STORED_COUNT_TTL_MS = 5_000;

export class MonthlyRequests {
  private readonly stored: LRUCache<string, number, { projectId: number; monthStart: string }>;

  constructor(db: Db, private readonly meter: UsageMeter) {
    this.stored = new LRUCache({
      // 100,000 projects, counted as a size: with `max` the cache would allocate its 100,000
      // slots up front (4.4 MB of every process, however few projects it serves).
      maxSize: 100_000,
      sizeCalculation: () => 1,
      ttl: STORED_COUNT_TTL_MS,
      // Concurrent misses of one project share a single read.
      fetchMethod: async (_key, _stale, { context }) => Number(await db.oneFirst(compiledQuery({
        text: `SELECT COALESCE((SELECT requests FROM platform.usage_counters WHERE project_id = $1 AND period = $2::date), 0)`,
        values: [context.projectId, context.monthStart],
      }))),
    });
  }

  async used(projectId: number): Promise<number> {
    const { monthStart } = currentPeriod();
    const stored = await this.stored.fetch(`${projectId}:${monthStart}`, { context: { projectId, monthStart } });
    return (stored ?? 0) + this.meter.unflushed(projectId);
  }
}

/** Whole seconds until the next usage period (the next calendar month, UTC) begins. */
export function secondsUntilNextPeriod(now = new Date()): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}
