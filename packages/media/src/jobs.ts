// Media jobs: making an image's formats after its upload. With Redis they go through a BullMQ
// queue (retried with backoff; a job whose worker dies is taken over once its lock expires);
// without Redis (the embedded default) they run in this process with the same retries.
import { Queue, QueueEvents, Worker, type ConnectionOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { detached } from '@cms/db';
import { bullmqTelemetry, getMeter, instruments, telemetryState, traced, type Logger } from '@cms/telemetry';

export const MEDIA_QUEUE = 'media';

const QUEUE_ATTRS = Object.freeze({ queue: MEDIA_QUEUE });
const OK_ATTRS = Object.freeze({ queue: MEDIA_QUEUE, outcome: 'ok' });
const FAILED_ATTRS = Object.freeze({ queue: MEDIA_QUEUE, outcome: 'failed' });

/** `cms.queue.depth` (queue, state=waiting|active|delayed), read at each metrics collection. */
function observeDepth(read: () => Promise<{ waiting: number; active: number; delayed: number }>): void {
  if (!telemetryState.metrics) return;
  getMeter().createObservableGauge('cms.queue.depth', { description: 'Jobs in a queue by state.' }).addCallback(async (result) => {
    const counts = await read().catch(() => null);
    if (!counts) return;
    for (const state of ['waiting', 'active', 'delayed'] as const) result.observe(counts[state], { queue: MEDIA_QUEUE, state });
  });
}

/** One job attempt timed for `cms.queue.job.duration`. */
async function timedAttempt(run: () => Promise<void>): Promise<void> {
  const started = performance.now();
  try {
    await run();
    instruments.jobDuration.record((performance.now() - started) / 1000, OK_ATTRS);
  } catch (err) {
    instruments.jobDuration.record((performance.now() - started) / 1000, FAILED_ATTRS);
    throw err;
  }
}

/** Everything a worker needs to process one uploaded image; no lookups in the control plane. */
export interface ImageJob {
  projectId: number;
  schema: string;
  fileId: string;
  name: string;
  hash: string;
  ext: string;
  mime: string;
  /** kB, as recorded: with hash and ext it identifies the content the job was made for. */
  size: number;
}

export type ImageJobProcessor = (job: ImageJob) => Promise<void>;

export interface JobHandle {
  /** Resolves true once the job has finished, false if it has not within `ms` (never rejects). */
  finished(ms: number): Promise<boolean>;
}

export interface MediaJobQueue {
  add(job: ImageJob): Promise<JobHandle>;
  close(): Promise<void>;
}

const ATTEMPTS = 5;
const BACKOFF_MS = 1000;

const within = (promise: Promise<unknown>, ms: number): Promise<boolean> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    promise.then(() => resolve(true), () => resolve(true)).finally(() => clearTimeout(timer));
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** Jobs run in this process, a few at a time, retried with exponential backoff. */
export class InProcessJobQueue implements MediaJobQueue {
  private readonly running = new Set<Promise<void>>();
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private closed = false;

  constructor(private readonly processor: ImageJobProcessor, private readonly logger: Logger, private readonly concurrency = 2) {
    observeDepth(async () => ({ waiting: this.waiting.length, active: this.active, delayed: 0 }));
  }

  async add(job: ImageJob): Promise<JobHandle> {
    // The job outlives the upload that added it: outside that request's database scope.
    const run = detached(() => (telemetryState.tracing ? this.runTraced(job) : this.run(job)));
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
    return { finished: (ms) => within(run, ms) };
  }

  /** The job in a consumer span of the request's trace (what BullMQ's telemetry does with Redis). */
  private runTraced(job: ImageJob): Promise<void> {
    return traced(`process ${MEDIA_QUEUE}`, () => this.run(job), { 'messaging.destination.name': MEDIA_QUEUE, 'project.id': job.projectId });
  }

  private async run(job: ImageJob): Promise<void> {
    const enqueued = performance.now();
    if (this.active >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    instruments.jobWait.record((performance.now() - enqueued) / 1000, QUEUE_ATTRS);
    this.active++;
    try {
      for (let attempt = 1; !this.closed; attempt++) {
        try {
          return await timedAttempt(() => this.processor(job));
        } catch (err) {
          if (attempt >= ATTEMPTS) return this.logger.error({ err, job }, 'media job failed');
          await sleep(BACKOFF_MS * 2 ** (attempt - 1));
        }
      }
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.running]);
  }
}

export interface RedisQueueOptions {
  redisUrl: string;
  /** Key prefix of the queue in Redis (e.g. REDIS_PREFIX + 'bull'). */
  prefix: string;
}

/** How long an upload waits for its job to reach the queue (Redis away: not longer). */
const ENQUEUE_WAIT_MS = 2_000;

// BullMQ needs blocking connections that retry forever instead of failing commands.
const connectionFor = (url: string): Redis => new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: false });

/** Jobs added to the BullMQ queue; finished ones are awaited through its events stream. */
export class BullmqJobQueue implements MediaJobQueue {
  private readonly connection: Redis;
  private readonly eventsConnection: Redis;
  private readonly queue: Queue<ImageJob>;
  private readonly events: QueueEvents;

  constructor(options: RedisQueueOptions, private readonly logger: Logger) {
    this.connection = connectionFor(options.redisUrl);
    this.eventsConnection = connectionFor(options.redisUrl);
    // With tracing, BullMQ's own spans (bullmq-otel): the job carries the request's trace context.
    this.queue = new Queue<ImageJob>(MEDIA_QUEUE, { connection: this.connection as ConnectionOptions, prefix: options.prefix, telemetry: bullmqTelemetry() });
    observeDepth(async () => {
      const counts = await this.queue.getJobCounts('waiting', 'active', 'delayed');
      return { waiting: counts.waiting ?? 0, active: counts.active ?? 0, delayed: counts.delayed ?? 0 };
    });
    this.events = new QueueEvents(MEDIA_QUEUE, { connection: this.eventsConnection as ConnectionOptions, prefix: options.prefix });
  }

  async add(data: ImageJob): Promise<JobHandle> {
    const adding = this.queue.add('image', data, {
      attempts: ATTEMPTS,
      backoff: { type: 'exponential', delay: BACKOFF_MS },
      removeOnComplete: { count: 1000 },
      removeOnFail: { count: 10_000 },
    });
    // Redis away: the upload is answered without waiting, and the add, kept in the connection's
    // offline queue (no retry limit), is sent when Redis is back.
    const job = await Promise.race([adding, new Promise<null>((r) => setTimeout(r, ENQUEUE_WAIT_MS, null).unref())]);
    if (!job) {
      this.logger.warn({ fileId: data.fileId, projectId: data.projectId }, 'media queue unreachable: the job is sent when it is back');
      adding.catch((err: unknown) => this.logger.error({ err, fileId: data.fileId, projectId: data.projectId }, 'media job not queued'));
      return { finished: async () => false };
    }
    return { finished: (ms) => within(job.waitUntilFinished(this.events, ms), ms) };
  }

  async close(): Promise<void> {
    await this.events.close();
    await this.queue.close();
    this.connection.disconnect();
    this.eventsConnection.disconnect();
  }
}

export interface MediaWorkerOptions extends RedisQueueOptions {
  concurrency?: number;
  /** How long a job stays locked to a worker without renewal (a dead worker's job is retaken after it). */
  lockDurationMs?: number;
  /** How often workers look for jobs whose lock expired. */
  stalledIntervalMs?: number;
}

/** A BullMQ worker processing the media queue (apps/worker, or the gateway itself). */
export function startMediaWorker(processor: ImageJobProcessor, options: MediaWorkerOptions, logger: Logger): { close(): Promise<void> } {
  const connection = connectionFor(options.redisUrl);
  const worker = new Worker<ImageJob>(MEDIA_QUEUE, async (job) => {
    // Enqueued → started (retries count from their own delay's end, BullMQ's processedOn).
    if (job.attemptsMade === 0) instruments.jobWait.record(Math.max(0, (job.processedOn ?? Date.now()) - job.timestamp) / 1000, QUEUE_ATTRS);
    await timedAttempt(() => processor(job.data));
  }, {
    connection: connection as ConnectionOptions,
    prefix: options.prefix,
    telemetry: bullmqTelemetry(),
    concurrency: options.concurrency ?? 2,
    lockDuration: options.lockDurationMs ?? 30_000,
    stalledInterval: options.stalledIntervalMs ?? 30_000,
    maxStalledCount: 3,
  });
  worker.on('failed', (job, err) => logger.warn({ err, jobId: job?.id, attempt: job?.attemptsMade }, 'media job attempt failed'));
  worker.on('error', (err) => logger.error({ err }, 'media worker error'));
  return {
    async close() {
      await worker.close();
      connection.disconnect();
    },
  };
}
