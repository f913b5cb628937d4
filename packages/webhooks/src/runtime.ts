// Delivering webhooks. Events are rows of platform.webhook_deliveries written in the change's own
// transaction (the outbox, see store.ts). Then:
//
// - with Redis, a relay in every process with WEBHOOKS_WORKER on claims outbox rows
//   (`FOR UPDATE SKIP LOCKED`, so relays share the work), adds one BullMQ job per row to the
//   `webhooks` queue (job id `wd-{delivery}-{run}`: adding again after a crash is a no-op) and
//   takes them out of the outbox in the same transaction. BullMQ retries with our backoff
//   (`retryDelay`); the last failure marks the delivery dead.
// - without Redis (the embedded default), the same processes read due rows straight from the
//   outbox and attempt them, rescheduling failures with `next_attempt_at`.
//
// The relay runs on an interval and on the `cms_webhook_outbox` notification sent at commit.
// Fairness: at most WEBHOOKS_CONCURRENCY attempts in flight per process, of which
// WEBHOOKS_PROJECT_CONCURRENCY per project (a project's further jobs wait, without spending an
// attempt); each attempt is bounded by WEBHOOKS_TIMEOUT_MS. Nothing here runs in a request.
import { DelayedError, Queue, Worker, type ConnectionOptions, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { Config, WebhooksConfig } from '@cms/config';
import { exec, rows, type Db } from '@cms/db';
import type { Logger } from '@cms/telemetry';
import { TEST_EVENT, testPayload, type WebhookEvent } from './events.ts';
import { retryDelay } from './schedule.ts';
import { sendWebhook, type SendOutcome } from './send.ts';
import { signatureHeader } from './signature.ts';
import { OUTBOX_CHANNEL, WebhookStore, type Delivery, type DeliveryStatus, type DeliveryTarget } from './store.ts';

export const WEBHOOK_QUEUE = 'webhooks';
const RELAY_BATCH = 500;
const PRUNE_EVERY_MS = 60_000;
const REQUEUE_EVERY_MS = 60_000;
const REQUEUE_GRACE_S = 300;
// Projects whose webhook subscriptions are kept in memory (one small set each).
const SUBSCRIPTIONS_KEPT = 10_000;

interface DeliveryJob {
  deliveryId: string;
  projectId: number;
  run: number;
  /** Attempts the delivery had before this job (one put back after its job was lost). */
  before?: number;
}

type Pool = Db & { transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> };

export interface WebhookRuntimeOptions {
  /** This process relays the outbox and delivers (else it only writes events and serves the API). */
  runWorker: boolean;
  /** The database's connection URL, for LISTEN. */
  databaseUrl: string;
  /** LISTEN for the outbox's notification (off on the embedded PGlite, one shared session: polling only). */
  listen?: boolean;
  /**
   * The BullMQ queue's name (default `webhooks`): one per database cluster, whose outbox the
   * runtime relays (delivery ids are a cluster's own).
   */
  queue?: string;
}

/** The headers of every delivery; a webhook's own headers cannot replace these. */
export const RESERVED_HEADERS = new Set([
  'content-type', 'content-length', 'host', 'user-agent', 'x-webhook-signature', 'x-strapi-event', 'x-webhook-id',
  'x-webhook-delivery', 'transfer-encoding', 'connection',
]);

export class WebhookRuntime {
  readonly store: WebhookStore;
  private readonly settings: WebhooksConfig;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private listener: pg.Client | undefined;
  private listenRetry: NodeJS.Timeout | undefined;
  private relaying: Promise<void> | null = null;
  private again = false;
  private lastPrune = 0;
  private lastRequeue = Date.now();
  /** The queue's Redis connection came back after being lost: its jobs may be gone. */
  private queueReconnected = false;
  /** Attempts in flight in this process, in all and per project. */
  private active = 0;
  private readonly perProject = new Map<number, number>();
  private readonly running = new Set<Promise<void>>();
  private queue: Queue<DeliveryJob> | undefined;
  private worker: Worker<DeliveryJob> | undefined;
  private readonly connections: Redis[] = [];
  private readonly subscribed = new Map<number, ReadonlySet<string>>();
  private generation = 0;

  constructor(private readonly pool: Pool, private readonly config: Config, private readonly logger: Logger, private readonly options: WebhookRuntimeOptions) {
    this.store = new WebhookStore(pool, config.appSecret);
    this.settings = config.webhooks;
  }

  /** Write event `event` of project `projectId` in transaction `tx` for every webhook listening to it; `payload` is built only then. */
  async emit(tx: Db, projectId: number, event: WebhookEvent, payload: () => Promise<string | null>): Promise<void> {
    // Most projects have no webhook for most events: their writes cost no outbox statement.
    if (!(await this.subscriptions(tx, projectId)).has(event)) return;
    const hooks = await this.store.listening(tx, projectId, event);
    if (hooks.length === 0) return;
    const body = await payload();
    if (body !== null) await this.store.record(tx, projectId, hooks, event, body);
  }

  /**
   * Forget what a project's webhooks listen to (every project without an id): called on the
   * registry's invalidation, which webhook changes send to every instance.
   */
  forget(projectId?: number): void {
    this.generation++;
    if (projectId === undefined) this.subscribed.clear();
    else this.subscribed.delete(projectId);
  }

  /**
   * The events some enabled webhook of the project listens to, cached until `forget`. A miss reads
   * them in the write's own transaction (a pool query would be a second connection inside it) and
   * keeps them only if nothing was forgotten meanwhile.
   */
  private async subscriptions(tx: Db, projectId: number): Promise<ReadonlySet<string>> {
    const known = this.subscribed.get(projectId);
    if (known) return known;
    const generation = this.generation;
    const events = await this.store.subscribedEvents(tx, projectId);
    if (generation === this.generation) {
      if (this.subscribed.size >= SUBSCRIPTIONS_KEPT) this.subscribed.clear();
      this.subscribed.set(projectId, events);
    }
    return events;
  }

  start(): this {
    if (!this.options.runWorker) return this;
    if (this.config.redisUrl) this.startQueue(this.config.redisUrl);
    this.timer = setInterval(() => this.kick(), this.settings.relayIntervalMs);
    this.timer.unref();
    if (this.options.listen !== false) void this.listen();
    this.kick();
    return this;
  }

  /** Read the outbox now (coalesced: one pass at a time, one more if asked meanwhile). */
  kick(): void {
    if (this.closed || !this.options.runWorker) return;
    if (this.relaying) {
      this.again = true;
      return;
    }
    this.relaying = (async () => {
      do {
        this.again = false;
        try {
          if (this.queue) {
            await this.requeueOverdue();
            await this.relayToQueue();
          } else await this.deliverDue();
          if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
            this.lastPrune = Date.now();
            await this.store.prune();
          }
        } catch (err) {
          if (!this.closed) this.logger.error({ err }, 'webhook relay failed');
        }
      } while (this.again && !this.closed);
    })().finally(() => (this.relaying = null));
  }

  /** LISTEN for the commit-time notification (best effort: the interval covers its absence). */
  private async listen(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.options.databaseUrl });
    const retry = () => {
      if (this.listener === client) this.listener = undefined;
      client.end().catch(() => {});
      if (!this.closed && !this.listenRetry) {
        this.listenRetry = setTimeout(() => {
          this.listenRetry = undefined;
          void this.listen();
        }, 5000);
        this.listenRetry.unref();
      }
    };
    client.on('error', (err) => {
      this.logger.warn({ err }, 'webhook outbox listener lost its connection');
      retry();
    });
    client.on('notification', () => this.kick());
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
      if (this.closed) return void client.end().catch(() => {});
      this.listener = client;
    } catch (err) {
      this.logger.warn({ err }, 'webhook outbox listener could not start; polling only');
      retry();
    }
  }

  // ---- with Redis: relay into BullMQ, deliver from it ----

  private startQueue(redisUrl: string): void {
    const connect = () => {
      const c = new Redis(redisUrl, { maxRetriesPerRequest: null, enableReadyCheck: false });
      this.connections.push(c);
      return c as ConnectionOptions;
    };
    const prefix = `${this.config.redisPrefix}bull`;
    const name = this.options.queue ?? WEBHOOK_QUEUE;
    const queueConnection = connect() as Redis;
    let lost = false;
    queueConnection.on('close', () => (lost = true));
    queueConnection.on('ready', () => {
      if (!lost) return;
      lost = false;
      this.queueReconnected = true;
      this.kick();
    });
    this.queue = new Queue<DeliveryJob>(name, { connection: queueConnection as ConnectionOptions, prefix });
    this.worker = new Worker<DeliveryJob>(name, (job, token) => this.processJob(job, token), {
      connection: connect(),
      prefix,
      concurrency: this.settings.concurrency,
      // An attempt is bounded by the timeout; its lock outlives it.
      lockDuration: Math.max(30_000, this.settings.timeoutMs * 3),
      settings: {
        backoffStrategy: (attemptsMade: number, _type?: string, _err?: Error, job?: { data: DeliveryJob }) =>
          retryDelay((job?.data.before ?? 0) + attemptsMade, this.settings),
      },
    });
    this.worker.on('error', (err) => this.logger.error({ err }, 'webhook worker error'));
  }

  /**
   * Deliveries whose job Redis may have lost go back into the outbox: those overdue by
   * REQUEUE_GRACE_S, checked every REQUEUE_EVERY_MS, and every unfinished one right after the
   * queue's connection came back (relaying adds nothing for a job that still exists: same job id).
   */
  private async requeueOverdue(): Promise<void> {
    const reconnected = this.queueReconnected;
    if (!reconnected && Date.now() - this.lastRequeue < REQUEUE_EVERY_MS) return;
    this.queueReconnected = false;
    this.lastRequeue = Date.now();
    const moved = await this.store.requeueOverdue(reconnected ? null : REQUEUE_GRACE_S);
    if (moved > 0) this.logger.warn({ moved }, 'webhook deliveries put back into the outbox (their jobs may have been lost)');
  }

  private async relayToQueue(): Promise<void> {
    for (;;) {
      const moved = await this.pool.transaction(async (tx) => {
        // A delivery put back after its job was lost keeps its schedule and its attempts count.
        const due = await rows<{ id: string; projectId: string; run: number; attempts: number; delayMs: number }>(tx,
          `SELECT id::text, project_id AS "projectId", run, attempts,
             greatest(0, ceil(extract(epoch FROM next_attempt_at - now()) * 1000))::int AS "delayMs"
           FROM platform.webhook_deliveries WHERE outbox ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
          [RELAY_BATCH]);
        if (due.length === 0) return 0;
        await this.queue!.addBulk(due.map((d) => ({
          name: 'deliver',
          data: { deliveryId: d.id, projectId: Number(d.projectId), run: d.run, before: d.attempts },
          opts: {
            jobId: `wd-${d.id}-${d.run}`,
            attempts: Math.max(1, this.settings.maxAttempts - d.attempts),
            delay: d.delayMs,
            backoff: { type: 'custom' },
            removeOnComplete: { count: 1000 },
            removeOnFail: { count: 10_000 },
          },
        })));
        await exec(tx, `UPDATE platform.webhook_deliveries SET outbox = false WHERE id = ANY($1::bigint[])`, [due.map((d) => d.id)]);
        return due.length;
      });
      if (moved < RELAY_BATCH || this.closed) return;
    }
  }

  private async processJob(job: Job<DeliveryJob>, token?: string): Promise<void> {
    const { projectId } = job.data;
    // A project at its share of this worker waits its turn (not an attempt).
    if ((this.perProject.get(projectId) ?? 0) >= this.settings.projectConcurrency) {
      await job.moveToDelayed(Date.now() + 100 + Math.floor(Math.random() * 200), token);
      throw new DelayedError();
    }
    const attempt = (job.data.before ?? 0) + job.attemptsMade + 1;
    const result = await this.track(projectId, () => this.attempt(job.data.deliveryId, job.data.run, attempt, false));
    // Throwing hands the retry to BullMQ (its backoff is retryDelay); dead or delivered end the job.
    if (result === 'retrying') throw new Error('webhook delivery failed; retrying');
  }

  // ---- without Redis: the outbox is the queue ----

  private async deliverDue(): Promise<void> {
    const free = this.settings.concurrency - this.active;
    if (free <= 0 || this.closed) return;
    const full = [...this.perProject].filter(([, n]) => n >= this.settings.projectConcurrency).map(([p]) => p);
    const lockMs = this.settings.timeoutMs * 2 + 5000;
    const claimed = await rows<{ id: string; projectId: string; run: number; attempts: number }>(this.pool,
      `WITH ranked AS (
         SELECT id, row_number() OVER (PARTITION BY project_id ORDER BY next_attempt_at, id) AS n, next_attempt_at
         FROM platform.webhook_deliveries
         WHERE outbox AND status IN ('pending', 'retrying') AND next_attempt_at <= now()
           AND (locked_until IS NULL OR locked_until < now()) AND NOT (project_id = ANY($1::bigint[]))
       ), picked AS (
         SELECT d.id FROM platform.webhook_deliveries d
         WHERE d.id IN (SELECT id FROM ranked WHERE n <= $2 ORDER BY next_attempt_at LIMIT $3)
         FOR UPDATE SKIP LOCKED
       )
       UPDATE platform.webhook_deliveries d SET locked_until = now() + $4 * interval '1 millisecond'
       FROM picked WHERE d.id = picked.id AND (d.locked_until IS NULL OR d.locked_until < now())
       RETURNING d.id::text, d.project_id AS "projectId", d.run, d.attempts`,
      [full, this.settings.projectConcurrency, free, lockMs]);
    for (const row of claimed) {
      const projectId = Number(row.projectId);
      const running: Promise<void> = this.track(projectId, () => this.attempt(row.id, row.run, row.attempts + 1, false))
        .then(() => undefined, (err) => this.logger.error({ err, deliveryId: row.id }, 'webhook attempt failed'))
        .finally(() => {
          this.running.delete(running);
          this.kick();
        });
      this.running.add(running);
    }
  }

  // ---- both ----

  private async track<T>(projectId: number, run: () => Promise<T>): Promise<T> {
    this.active++;
    this.perProject.set(projectId, (this.perProject.get(projectId) ?? 0) + 1);
    try {
      return await run();
    } finally {
      this.active--;
      const n = (this.perProject.get(projectId) ?? 1) - 1;
      if (n <= 0) this.perProject.delete(projectId);
      else this.perProject.set(projectId, n);
    }
  }

  /**
   * Attempt `attempt` of run `run` of a delivery, recorded in its log. 'skip' when it was
   * delivered, replayed or deleted meanwhile (a job added twice, a stale retry).
   */
  private async attempt(deliveryId: string, run: number, attempt: number, test: boolean): Promise<DeliveryStatus | 'skip'> {
    const target = await this.store.target(deliveryId);
    if (!target || target.run !== run || target.status === 'delivered' || target.status === 'dead') return 'skip';
    const outcome: SendOutcome = target.enabled || test
      ? await this.send(target)
      : { ok: false, responseStatus: null, error: 'The webhook is disabled', durationMs: 0, responseExcerpt: null };
    const last = test || !target.enabled || attempt >= this.settings.maxAttempts;
    const status: DeliveryStatus = outcome.ok ? 'delivered' : last ? 'dead' : 'retrying';
    const next = status === 'retrying' ? new Date(Date.now() + retryDelay(attempt, this.settings)) : null;
    await this.store.recordAttempt(deliveryId, run, attempt, outcome, status, next);
    if (!outcome.ok) {
      this.logger.info({ deliveryId, webhookId: target.webhookId, projectId: target.projectId, attempt, status, responseStatus: outcome.responseStatus, error: outcome.error }, 'webhook delivery attempt failed');
    }
    return status;
  }

  private send(target: DeliveryTarget): Promise<SendOutcome> {
    const own = Object.fromEntries(Object.entries(target.headers).filter(([name]) => !RESERVED_HEADERS.has(name.toLowerCase())));
    return sendWebhook({
      url: target.url,
      body: target.body,
      headers: {
        ...own,
        'content-type': 'application/json',
        'user-agent': 'cms-webhooks/1.0',
        'x-strapi-event': target.event,
        'x-webhook-id': target.webhookId,
        'x-webhook-delivery': target.id,
        'x-webhook-signature': signatureHeader(target.secret, target.body),
      },
      timeoutMs: this.settings.timeoutMs,
      allowPrivate: this.settings.allowPrivate,
    });
  }

  /** Send a `trigger-test` event now (one attempt, recorded in the log) and return the delivery. */
  async testSend(projectId: number, webhookId: string): Promise<Delivery> {
    const id = await this.store.recordDirect(projectId, webhookId, TEST_EVENT, testPayload());
    await this.track(projectId, () => this.attempt(id, 0, 1, true));
    return (await this.store.delivery(projectId, webhookId, id))!;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    clearTimeout(this.listenRetry);
    await this.listener?.end().catch(() => {});
    await this.relaying;
    await this.worker?.close();
    await this.queue?.close();
    await Promise.allSettled([...this.running]);
    for (const c of this.connections) c.disconnect();
  }
}

export function createWebhookRuntime(pool: Pool, config: Config, logger: Logger, options: WebhookRuntimeOptions): WebhookRuntime {
  return new WebhookRuntime(pool, config, logger, options).start();
}

/** What `createClusterWebhookRuntimes` needs of @cms/db's Database. */
export interface WebhookClusters {
  readonly clusters: readonly string[];
  poolOf(name: string): Pool;
  urlOf(name: string): string;
}

/**
 * One runtime per database cluster other than `main` (DATABASE_URLS): each relays its own
 * cluster's outbox into its own queue (`webhooks-{cluster}`) and keeps its deliveries' log.
 */
export function createClusterWebhookRuntimes(db: WebhookClusters, config: Config, logger: Logger, options: Pick<WebhookRuntimeOptions, 'runWorker' | 'listen'>): Map<string, WebhookRuntime> {
  const runtimes = new Map<string, WebhookRuntime>();
  for (const name of db.clusters.slice(1)) {
    runtimes.set(name, createWebhookRuntime(db.poolOf(name), config, logger.child({ cluster: name }), {
      ...options, databaseUrl: db.urlOf(name), queue: `${WEBHOOK_QUEUE}-${name}`,
    }));
  }
  return runtimes;
}
