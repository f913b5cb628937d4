// The webhooks of every project and their deliveries (platform.webhooks, webhook_deliveries,
// webhook_attempts). Events are written by `record`, inside the transaction of the change.
import { randomToken } from '@cms/auth';
import { exec, rows, type Db } from '@cms/db';
import { NotFoundError } from '@cms/errors';
import type { WebhookEvent } from './events.ts';
import { SecretBox } from './secret-box.ts';

/** Postgres channel notified (at commit) when the outbox has new rows. */
export const OUTBOX_CHANNEL = 'cms_webhook_outbox';
/** Deliveries kept per webhook in the log (older finished ones are pruned). */
export const LOG_SIZE = 100;

export interface Webhook {
  id: number;
  name: string;
  url: string;
  events: WebhookEvent[];
  headers: Record<string, string>;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookInput {
  name: string;
  url: string;
  events: WebhookEvent[];
  headers: Record<string, string>;
  enabled: boolean;
}

export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'dead';

export interface AttemptLog {
  attempt: number;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
  responseExcerpt: string | null;
  at: string;
}

export interface Delivery {
  id: number;
  webhookId: number;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  durationMs: number | null;
  responseStatus: number | null;
  error: string | null;
  responseExcerpt: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Every attempt of the delivery, newest first (replays included). */
  log: AttemptLog[];
}

const WEBHOOK_COLUMNS = `id, name, url, events, headers, enabled, created_at AS "createdAt", updated_at AS "updatedAt"`;
const DELIVERY_COLUMNS = `d.id, d.webhook_id AS "webhookId", d.event, d.status, d.attempts, d.duration_ms AS "durationMs",
  d.response_status AS "responseStatus", d.error, d.response_excerpt AS "responseExcerpt",
  CASE WHEN d.status IN ('pending', 'retrying') THEN d.next_attempt_at END AS "nextAttemptAt",
  d.created_at AS "createdAt", d.updated_at AS "updatedAt",
  COALESCE((SELECT json_agg(json_build_object('attempt', a.attempt, 'responseStatus', a.response_status, 'error', a.error,
    'durationMs', a.duration_ms, 'responseExcerpt', a.response_excerpt,
    'at', to_char(a.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ORDER BY a.id DESC)
    FROM platform.webhook_attempts a WHERE a.delivery_id = d.id), '[]'::json) AS log`;

/** What a delivery attempt needs: the delivery and its webhook with the secret opened. */
export interface DeliveryTarget {
  id: string;
  projectId: number;
  webhookId: string;
  event: string;
  body: string;
  status: DeliveryStatus;
  run: number;
  attempts: number;
  url: string;
  headers: Record<string, string>;
  enabled: boolean;
  secret: string;
}

export class WebhookStore {
  private readonly box: SecretBox;

  constructor(private readonly pool: Db & { transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> }, appSecret: string) {
    this.box = new SecretBox(appSecret);
  }

  list(projectId: number): Promise<Webhook[]> {
    return rows<Webhook>(this.pool, `SELECT ${WEBHOOK_COLUMNS} FROM platform.webhooks WHERE project_id = $1 ORDER BY id`, [projectId]);
  }

  async find(projectId: number, id: string): Promise<Webhook | null> {
    const [hook] = await rows<Webhook>(this.pool, `SELECT ${WEBHOOK_COLUMNS} FROM platform.webhooks WHERE project_id = $1 AND id = $2`, [projectId, id]);
    return hook ?? null;
  }

  /** A new webhook and its signing secret (returned this once). */
  async create(projectId: number, input: WebhookInput): Promise<{ webhook: Webhook; secret: string }> {
    const secret = randomToken('whsec_');
    const [webhook] = await rows<Webhook>(this.pool,
      `INSERT INTO platform.webhooks (project_id, name, url, events, headers, enabled, secret_box) VALUES ($1, $2, $3, $4::text[], $5::jsonb, $6, $7) ` +
      `RETURNING ${WEBHOOK_COLUMNS}`,
      [projectId, input.name, input.url, input.events, JSON.stringify(input.headers), input.enabled, this.box.seal(secret)]);
    return { webhook: webhook!, secret };
  }

  async update(projectId: number, id: string, change: Partial<WebhookInput>): Promise<Webhook> {
    const [webhook] = await rows<Webhook>(this.pool,
      `UPDATE platform.webhooks SET name = COALESCE($3, name), url = COALESCE($4, url), events = COALESCE($5::text[], events), ` +
      `headers = COALESCE($6::jsonb, headers), enabled = COALESCE($7, enabled), updated_at = now() ` +
      `WHERE project_id = $1 AND id = $2 RETURNING ${WEBHOOK_COLUMNS}`,
      [projectId, id, change.name ?? null, change.url ?? null, change.events ?? null,
        change.headers ? JSON.stringify(change.headers) : null, change.enabled ?? null]);
    if (!webhook) throw new NotFoundError();
    return webhook;
  }

  async remove(projectId: number, id: string): Promise<boolean> {
    return (await rows(this.pool, `DELETE FROM platform.webhooks WHERE project_id = $1 AND id = $2 RETURNING id`, [projectId, id])).length > 0;
  }

  /** The events the project's enabled webhooks listen to. */
  async subscribedEvents(db: Db, projectId: number): Promise<ReadonlySet<string>> {
    return new Set((await rows<{ event: string }>(db,
      `SELECT DISTINCT e AS event FROM platform.webhooks, unnest(events) AS e WHERE project_id = $1 AND enabled`, [projectId])).map((r) => r.event));
  }

  /** Ids of the project's enabled webhooks listening to `event`, read in the change's transaction. */
  async listening(tx: Db, projectId: number, event: WebhookEvent): Promise<string[]> {
    return (await rows<{ id: string }>(tx,
      `SELECT id::text FROM platform.webhooks WHERE project_id = $1 AND enabled AND $2 = ANY(events)`, [projectId, event])).map((r) => r.id);
  }

  /**
   * The outbox: one delivery per webhook, written in the change's own transaction (committed
   * with it or not at all). The notification reaches the relays at commit.
   */
  async record(tx: Db, projectId: number, webhookIds: readonly string[], event: string, body: string): Promise<void> {
    if (webhookIds.length === 0) return;
    await exec(tx,
      `INSERT INTO platform.webhook_deliveries (project_id, webhook_id, event, body) SELECT $1, w, $2, $3 FROM unnest($4::bigint[]) AS w`,
      [projectId, event, body, webhookIds]);
    await exec(tx, `SELECT pg_notify($1, '')`, [OUTBOX_CHANNEL]);
  }

  /** A delivery written outside any change (test sends): not in the outbox, attempted by the caller. */
  async recordDirect(projectId: number, webhookId: string, event: string, body: string): Promise<string> {
    const [row] = await rows<{ id: string }>(this.pool,
      `INSERT INTO platform.webhook_deliveries (project_id, webhook_id, event, body, outbox) VALUES ($1, $2, $3, $4, false) RETURNING id::text`,
      [projectId, webhookId, event, body]);
    return row!.id;
  }

  async deliveries(projectId: number, webhookId: string, limit = LOG_SIZE): Promise<Delivery[]> {
    return rows<Delivery>(this.pool,
      `SELECT ${DELIVERY_COLUMNS} FROM platform.webhook_deliveries d WHERE d.project_id = $1 AND d.webhook_id = $2 ORDER BY d.id DESC LIMIT $3`,
      [projectId, webhookId, limit]);
  }

  async delivery(projectId: number, webhookId: string, id: string): Promise<Delivery | null> {
    const [delivery] = await rows<Delivery>(this.pool,
      `SELECT ${DELIVERY_COLUMNS} FROM platform.webhook_deliveries d WHERE d.project_id = $1 AND d.webhook_id = $2 AND d.id = $3`,
      [projectId, webhookId, id]);
    return delivery ?? null;
  }

  /** Back into the outbox as a new run (its attempts start again); the old run's jobs become no-ops. */
  async replay(projectId: number, webhookId: string, id: string): Promise<boolean> {
    const replayed = await rows(this.pool,
      `UPDATE platform.webhook_deliveries SET status = 'pending', outbox = true, run = run + 1, attempts = 0, next_attempt_at = now(), ` +
      `locked_until = NULL, updated_at = now() WHERE project_id = $1 AND webhook_id = $2 AND id = $3 RETURNING id`, [projectId, webhookId, id]);
    if (replayed.length > 0) await exec(this.pool, `SELECT pg_notify($1, '')`, [OUTBOX_CHANNEL]);
    return replayed.length > 0;
  }

  /** The delivery with its webhook, for an attempt; null once either is gone. */
  async target(id: string): Promise<DeliveryTarget | null> {
    const [row] = await rows<Omit<DeliveryTarget, 'secret'> & { secretBox: string }>(this.pool,
      `SELECT d.id::text, d.project_id AS "projectId", d.webhook_id::text AS "webhookId", d.event, d.body, d.status, d.run, d.attempts, ` +
      `w.url, w.headers, w.enabled, w.secret_box AS "secretBox" ` +
      `FROM platform.webhook_deliveries d JOIN platform.webhooks w ON w.id = d.webhook_id WHERE d.id = $1`, [id]);
    if (!row) return null;
    const { secretBox, ...rest } = row;
    return { ...rest, projectId: Number(rest.projectId), secret: this.box.open(secretBox) };
  }

  /**
   * Record one attempt of run `run` (ignored when the delivery was replayed since) and the
   * delivery's new state: delivered, retrying at `nextAttemptAt`, or dead.
   */
  async recordAttempt(id: string, run: number, attempt: number, outcome: {
    responseStatus: number | null; error: string | null; durationMs: number; responseExcerpt: string | null;
  }, status: DeliveryStatus, nextAttemptAt: Date | null): Promise<boolean> {
    return this.pool.transaction(async (tx) => {
      const updated = await rows(tx,
        `UPDATE platform.webhook_deliveries SET status = $3, attempts = $4, response_status = $5, error = $6, duration_ms = $7, ` +
        `response_excerpt = $8, next_attempt_at = COALESCE($9::timestamptz, next_attempt_at), locked_until = NULL, ` +
        // In the outbox (no Redis: the in-process loop's queue) while attempts remain; the queue's rows left it already.
        `outbox = outbox AND $3 IN ('pending', 'retrying'), updated_at = now() ` +
        `WHERE id = $1 AND run = $2 RETURNING id`,
        [id, run, status, attempt, outcome.responseStatus, outcome.error, outcome.durationMs, outcome.responseExcerpt,
          nextAttemptAt?.toISOString() ?? null]);
      if (updated.length === 0) return false;
      await exec(tx,
        `INSERT INTO platform.webhook_attempts (delivery_id, run, attempt, response_status, error, duration_ms, response_excerpt) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [id, run, attempt, outcome.responseStatus, outcome.error, outcome.durationMs, outcome.responseExcerpt]);
      return true;
    });
  }

  /**
   * Put back into the outbox the unfinished deliveries handed to the queue whose attempt is
   * overdue by `graceSeconds` (null: all of them): their job may be gone (Redis restarted
   * without its data). Relaying one whose job still exists adds nothing (same job id), so this
   * never duplicates a delivery.
   */
  async requeueOverdue(graceSeconds: number | null): Promise<number> {
    const moved = await rows<{ id: string }>(this.pool,
      `UPDATE platform.webhook_deliveries SET outbox = true
       WHERE status IN ('pending', 'retrying') AND NOT outbox
         AND ($1::float8 IS NULL OR next_attempt_at < now() - make_interval(secs => $1::float8))
       RETURNING id::text AS id`, [graceSeconds]);
    return moved.length;
  }

  /** Drop finished deliveries beyond the newest LOG_SIZE of each webhook. */
  async prune(): Promise<void> {
    await exec(this.pool,
      `DELETE FROM platform.webhook_deliveries d USING (
         SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY webhook_id ORDER BY id DESC) AS n
           FROM platform.webhook_deliveries WHERE status IN ('delivered', 'dead')) ranked WHERE n > $1
       ) old WHERE d.id = old.id`, [LOG_SIZE]);
  }
}
