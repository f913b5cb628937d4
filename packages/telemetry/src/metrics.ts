// Metric instruments, created through @opentelemetry/api's global meter: no-ops until the process
// edge (sdk.ts) installs a MeterProvider. Names follow OpenTelemetry's dotted style; the
// Prometheus text at /metrics turns the dots into underscores and appends the unit (see
// docs/operations.md for the exported names).
import { AsyncLocalStorage } from 'node:async_hooks';
import { metrics, ValueType } from '@opentelemetry/api';
import { telemetryState } from './state.ts';

/** The platform's meter, from the MeterProvider installed now (the metrics API has no proxy: ask after the SDK starts). */
export const getMeter = () => metrics.getMeter('@cms/platform');

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const createInstruments = (meter = getMeter()) => ({
  /** Every HTTP answer: rate, latency and status per route and project. */
  requestDuration: meter.createHistogram('http.server.request.duration', {
    unit: 's', description: 'Duration of HTTP requests (by route, method, status code and project).',
    advice: { explicitBucketBoundaries: SECONDS },
  }),
  requestErrors: meter.createCounter('cms.http.server.errors', {
    description: 'HTTP answers with a 5xx status (by route and project).', valueType: ValueType.INT,
  }),
  rateLimitRejections: meter.createCounter('cms.rate_limit.rejections', {
    description: 'Requests refused with 429 by a rate limit (plan or auth limits, by route and project).', valueType: ValueType.INT,
  }),
  sqlStatements: meter.createHistogram('cms.db.request.statements', {
    description: 'SQL statements run by one request.', valueType: ValueType.INT,
    advice: { explicitBucketBoundaries: [0, 1, 2, 3, 5, 8, 13, 21, 50, 100] },
  }),
  sqlDuration: meter.createHistogram('cms.db.request.duration', {
    unit: 's', description: 'Time one request spent in SQL statements.', advice: { explicitBucketBoundaries: SECONDS },
  }),
  planCache: meter.createCounter('cms.plan_cache.lookups', {
    description: 'Compiled read plan lookups (result=hit|miss).', valueType: ValueType.INT,
  }),
  runtimeCache: meter.createCounter('cms.runtime_cache.lookups', {
    description: 'Project runtime (compiled model) lookups (result=hit|miss).', valueType: ValueType.INT,
  }),
  runtimeBuilds: meter.createCounter('cms.runtime.builds', {
    description: 'Project runtimes built (a model loaded and compiled).', valueType: ValueType.INT,
  }),
  jobWait: meter.createHistogram('cms.queue.job.wait', {
    unit: 's', description: 'Time from enqueueing a job to a worker starting it (by queue).',
    advice: { explicitBucketBoundaries: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300] },
  }),
  jobDuration: meter.createHistogram('cms.queue.job.duration', {
    unit: 's', description: 'Time a worker spent on one job attempt (by queue and outcome).',
    advice: { explicitBucketBoundaries: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] },
  }),
  cdnPurges: meter.createCounter('cms.cdn.purges', {
    description: 'Purge requests sent to CDN_PURGE_URL (result=ok|failed; failed = given up after retries).', valueType: ValueType.INT,
  }),
  cdnPurgeKeys: meter.createCounter('cms.cdn.purge_keys', {
    description: 'Surrogate keys in purge requests (result=ok|failed), or dropped before sending (result=dropped: pending keys over the cap).', valueType: ValueType.INT,
  }),
});

/** The platform's instruments: no-ops until `bindInstruments()` runs once a MeterProvider is installed. */
export const instruments: ReturnType<typeof createInstruments> = createInstruments();

/** Recreate every instrument on the MeterProvider just installed (sdk.ts). */
export function bindInstruments(): void {
  Object.assign(instruments, createInstruments());
}

// Shared attribute objects: recording a hit or a miss allocates nothing.
export const HIT = Object.freeze({ result: 'hit' });
export const MISS = Object.freeze({ result: 'miss' });

/** SQL statements and time of the request being served (gathered only with telemetry on). */
export interface RequestStats {
  statements: number;
  dbMs: number;
}

let storage: AsyncLocalStorage<RequestStats> | undefined;

/** Run the rest of a request with fresh statistics (the gateway's onRequest hook, telemetry on only). */
export function runWithRequestStats(stats: RequestStats, fn: () => void): void {
  (storage ??= new AsyncLocalStorage()).run(stats, fn);
}

/** The statistics of the current request, if telemetry gathers them and a request is being served. */
export function currentRequestStats(): RequestStats | undefined {
  return storage?.getStore();
}

/**
 * Bounded project label values: the `size` projects with the most requests keep their slug,
 * the rest read `other`. Counts decay by half at every refresh, so the set follows traffic;
 * until the first refresh the first `size` projects seen are kept.
 */
export class ProjectLabels {
  private readonly counts = new Map<string, number>();
  private kept = new Set<string>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly size = 20, refreshMs = 60_000) {
    this.timer = setInterval(() => this.refresh(), refreshMs);
    this.timer.unref();
  }

  /** Count one request of `slug` and answer its label value. */
  label(slug: string): string {
    this.counts.set(slug, (this.counts.get(slug) ?? 0) + 1);
    if (this.kept.has(slug)) return slug;
    if (this.kept.size < this.size) {
      this.kept.add(slug);
      return slug;
    }
    return 'other';
  }

  refresh(): void {
    const ranked = [...this.counts].sort((a, b) => b[1] - a[1]);
    this.kept = new Set(ranked.slice(0, this.size).map(([slug]) => slug));
    this.counts.clear();
    for (const [slug, n] of ranked.slice(0, this.size * 10)) if (n >= 2) this.counts.set(slug, Math.floor(n / 2));
  }

  close(): void {
    clearInterval(this.timer);
  }
}

/** Prometheus text of this process's metrics, or null when /metrics is not set up (no METRICS_TOKEN reader). */
export async function prometheusText(): Promise<string | null> {
  return telemetryState.renderPrometheus ? telemetryState.renderPrometheus() : null;
}
