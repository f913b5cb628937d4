// SQL statistics of the request being served (statement count and time, for its span, the
// per-request metrics) and the pool's gauges. Installed only with telemetry on: with it off the
// pool runs no interceptor at all.
import { currentRequestStats, getMeter } from '@cms/telemetry';
import type { DatabasePool, Interceptor } from 'slonik';

/** Counts every statement of the current request and adds up its time (from slonik receiving it to its result). */
export const requestStatsInterceptor: Interceptor = {
  name: 'cms-request-stats',
  afterQueryExecution(queryContext) {
    const stats = currentRequestStats();
    if (stats) {
      stats.statements++;
      const start = queryContext.queryInputTime;
      stats.dbMs += typeof start === 'bigint' ? Number(process.hrtime.bigint() - start) / 1e6 : performance.now() - start;
    }
    return null;
  },
  queryExecutionError() {
    const stats = currentRequestStats();
    if (stats) stats.statements++;
    return null;
  },
};

/** `cms.db.pool.connections` (state=acquired|idle) and `cms.db.pool.waiting`, read at each collection. */
export function observePool(pool: DatabasePool): void {
  const meter = getMeter();
  const connections = meter.createObservableGauge('cms.db.pool.connections', { description: 'Pool connections by state (acquired = in use).' });
  const waiting = meter.createObservableGauge('cms.db.pool.waiting', { description: 'Callers waiting for a pool connection.' });
  meter.addBatchObservableCallback((result) => {
    const state = pool.state();
    if (state.state !== 'ACTIVE') return;
    result.observe(connections, state.acquiredConnections, { state: 'acquired' });
    result.observe(connections, state.idleConnections, { state: 'idle' });
    result.observe(waiting, state.waitingClients);
  }, [connections, waiting]);
}
