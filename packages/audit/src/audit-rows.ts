// The statements on `platform.audit_logs` (control migration 0012_audit_log, cluster migration
// c0003_audit_log), and nothing else. One table per Postgres cluster: a project's entries live on
// its cluster, so a content write records its entries in its own transaction (on the control
// plane too for `main`'s projects); an account's own entries (`project_id` NULL) on the control
// plane. A trigger refuses every UPDATE, TRUNCATE and every DELETE but retention's, which sets the
// transaction-local `cms.audit_retention` first (`pruneAuditEntries`).
import { exec, isoTimestamp, rows, type Db } from '@cms/db';
import { redactPayload } from './redact.ts';

export type AuditActor =
  | { type: 'account'; id: number | string; email?: string | null }
  | { type: 'api-token'; id: number | string }
  | { type: 'end-user'; id: number | string }
  | { type: 'system' };

export type AuditActorType = AuditActor['type'];
export const ACTOR_TYPES: readonly AuditActorType[] = ['account', 'api-token', 'end-user', 'system'];

/** Where a request came from. */
export interface AuditSource {
  ip?: string | null;
  userAgent?: string | null;
}

export interface AuditEntryInput extends AuditSource {
  action: string;
  actor: AuditActor;
  /** A summary (redacted and bounded on the way in: redact.ts). */
  payload?: Record<string, unknown>;
}

/** Which log an entry is in: a project's, or (projectId null) an account's own. */
export interface AuditScope {
  projectId: number | null;
  accountId: number | null;
}

export interface AuditEntry {
  id: number;
  action: string;
  actor: { type: AuditActorType; id: string | null; email?: string };
  ip: string | null;
  userAgent: string | null;
  payload: Record<string, unknown>;
  date: string;
}

export interface AuditFilter {
  projectId?: number;
  /** An account's own log (entries without a project). */
  accountId?: number;
  action?: string;
  actorType?: AuditActorType;
  actorId?: string;
  /** ISO instants, inclusive. */
  from?: string;
  to?: string;
}

const TABLE = 'platform.audit_logs';
const COLUMNS = '"project_id", "account_id", "action", "actor_type", "actor_id", "actor_email", "ip", "user_agent", "payload"';
const COLUMN_COUNT = 9;

/** The nine values of an entry's row, in `COLUMNS` order. */
function valuesOf(scope: AuditScope, entry: AuditEntryInput): unknown[] {
  const actor = entry.actor;
  return [
    scope.projectId, scope.accountId, entry.action, actor.type, actor.type === 'system' || actor.id === '' ? null : String(actor.id),
    actor.type === 'account' ? (actor.email ?? null) : null,
    entry.ip ? String(entry.ip).slice(0, 100) : null, entry.userAgent ? String(entry.userAgent).slice(0, 500) : null,
    JSON.stringify(redactPayload(entry.payload ?? {})),
  ];
}

const placeholders = (first: number) => Array.from({ length: COLUMN_COUNT }, (_, i) => `$${first + i}${i === COLUMN_COUNT - 1 ? '::jsonb' : ''}`).join(', ');

/**
 * The INSERT of entries (one row each, in their order) as text and values whose placeholders
 * start at `$first`: another statement of the same transaction carries it as a data-modifying
 * CTE (no round trip of its own).
 */
export function auditInsert(scope: AuditScope, entries: AuditEntryInput | readonly AuditEntryInput[], first = 1): { text: string; values: unknown[] } {
  const list = Array.isArray(entries) ? entries : [entries as AuditEntryInput];
  const rowsText = list.map((_, i) => `(${placeholders(first + i * COLUMN_COUNT)})`).join(', ');
  return { text: `INSERT INTO ${TABLE} (${COLUMNS}) VALUES ${rowsText}`, values: list.flatMap((entry) => valuesOf(scope, entry)) };
}

/** Record one entry in `db` (a pool, or the transaction of the change it records). */
export async function insertAuditEntry(db: Db, scope: AuditScope, entry: AuditEntryInput): Promise<void> {
  const { text, values } = auditInsert(scope, entry);
  await exec(db, text, values);
}

function whereOf(filter: AuditFilter): { clauses: string[]; values: unknown[] } {
  const clauses: string[] = [];
  const values: unknown[] = [];
  const add = (clause: (n: string) => string, value: unknown) => {
    values.push(value);
    clauses.push(clause(`$${values.length}`));
  };
  if (filter.projectId !== undefined) add((n) => `"project_id" = ${n}`, filter.projectId);
  if (filter.accountId !== undefined) {
    add((n) => `"account_id" = ${n}`, filter.accountId);
    clauses.push('"project_id" IS NULL');
  }
  if (filter.action !== undefined) {
    // `entry` matches every `entry.…`; a full name matches itself.
    if (filter.action.includes('.')) add((n) => `"action" = ${n}`, filter.action);
    else add((n) => `"action" LIKE ${n}`, `${filter.action}.%`);
  }
  if (filter.actorType !== undefined) add((n) => `"actor_type" = ${n}`, filter.actorType);
  if (filter.actorId !== undefined) add((n) => `"actor_id" = ${n}`, filter.actorId);
  if (filter.from !== undefined) add((n) => `"created_at" >= ${n}::timestamptz`, filter.from);
  if (filter.to !== undefined) add((n) => `"created_at" <= ${n}::timestamptz`, filter.to);
  if (clauses.length === 0) throw new Error('an audit read names its log');
  return { clauses, values };
}

const SELECT = `SELECT "id"::text AS id, "action", "actor_type" AS "actorType", "actor_id" AS "actorId", "actor_email" AS "actorEmail",
  "ip", "user_agent" AS "userAgent", "payload", ${isoTimestamp('"created_at"')} AS date, "created_at"::text AS "at"`;

interface Raw {
  id: string;
  action: string;
  actorType: AuditActorType;
  actorId: string | null;
  actorEmail: string | null;
  ip: string | null;
  userAgent: string | null;
  payload: Record<string, unknown>;
  date: string;
  at: string;
}

function entryOf(r: Raw): AuditEntry {
  const actor: AuditEntry['actor'] = { type: r.actorType, id: r.actorId };
  if (r.actorType === 'account' && r.actorEmail !== null) actor.email = r.actorEmail;
  return { id: Number(r.id), action: r.action, actor, ip: r.ip, userAgent: r.userAgent, payload: r.payload, date: r.date };
}

/** A page of a log, newest first, and the number of entries matching. */
export async function listAuditEntries(db: Db, filter: AuditFilter, page: number, pageSize: number): Promise<{ entries: AuditEntry[]; total: number }> {
  const { clauses, values } = whereOf(filter);
  const where = clauses.join(' AND ');
  const [found, [count]] = await Promise.all([
    rows<Raw>(db, `${SELECT} FROM ${TABLE} l WHERE ${where} ORDER BY l."created_at" DESC, l."id" DESC LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`, values),
    rows<{ n: string }>(db, `SELECT count(*)::text AS n FROM ${TABLE} WHERE ${where}`, values),
  ]);
  return { entries: found.map(entryOf), total: Number(count!.n) };
}

/**
 * Every entry of a log, newest first, a page at a time: each page its own statement after the
 * last one's (created_at, id), so no transaction stays open while a slow client reads.
 */
export async function* auditEntryPages(db: Db, filter: AuditFilter, pageSize = 500): AsyncGenerator<AuditEntry[]> {
  const { clauses, values } = whereOf(filter);
  let after: { at: string; id: string } | null = null;
  for (;;) {
    const keyset: string = after === null ? '' : ` AND ("created_at", "id") < ($${values.length + 1}::timestamptz, $${values.length + 2}::bigint)`;
    const page: Raw[] = await rows<Raw>(db, `${SELECT} FROM ${TABLE} l WHERE ${clauses.join(' AND ')}${keyset} ORDER BY l."created_at" DESC, l."id" DESC LIMIT ${pageSize}`,
      after === null ? values : [...values, after.at, after.id]);
    if (page.length > 0) yield page.map(entryOf);
    if (page.length < pageSize) return;
    const last: Raw = page[page.length - 1]!;
    after = { at: last.at, id: last.id };
  }
}

/**
 * Retention: delete the project's entries (or, projectId null, the account's own) created before
 * `before`, in one transaction that says so to the append-only trigger. Answers how many went.
 */
export async function pruneAuditEntries(db: Db & { transaction: Db['transaction'] }, scope: AuditScope, before: Date): Promise<number> {
  return db.transaction(async (tx) => {
    await exec(tx, `SELECT set_config('cms.audit_retention', 'on', true)`);
    const where = scope.projectId !== null ? '"project_id" = $1' : '"project_id" IS NULL AND "account_id" = $1';
    const gone = await rows<{ n: string }>(tx,
      `WITH d AS (DELETE FROM ${TABLE} WHERE ${where} AND "created_at" < $2::timestamptz RETURNING 1) SELECT count(*)::text AS n FROM d`,
      [scope.projectId ?? scope.accountId, before.toISOString()]);
    return Number(gone[0]!.n);
  });
}

/**
 * Retention of the accounts' own logs: entries without a project created before `before`, in
 * batches (each its own transaction). Answers how many went.
 */
export async function pruneAccountAuditEntries(db: Db & { transaction: Db['transaction'] }, before: Date, batchSize = 1000): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await db.transaction(async (tx) => {
      await exec(tx, `SELECT set_config('cms.audit_retention', 'on', true)`);
      const gone = await rows<{ n: string }>(tx,
        `WITH d AS (DELETE FROM ${TABLE} WHERE "id" IN (SELECT "id" FROM ${TABLE} WHERE "project_id" IS NULL AND "created_at" < $1::timestamptz LIMIT $2) RETURNING 1)
         SELECT count(*)::text AS n FROM d`, [before.toISOString(), batchSize]);
      return Number(gone[0]!.n);
    });
    total += n;
    if (n < batchSize) return total;
  }
}

/** Every entry of a project (its purge, 7 days after it was deleted; or the source cluster's copy after a move). */
export async function dropProjectAuditEntries(db: Db, projectId: number): Promise<void> {
  await removeProjectAuditEntriesIn(db, projectId);
}

/** Delete every entry of a project in the caller's transaction `tx` (a move's source, once copied). */
export async function removeProjectAuditEntriesIn(tx: Db, projectId: number): Promise<void> {
  // One statement (the setting is read by the trigger of each row it deletes): right in a transaction or without one.
  await exec(tx, `DELETE FROM ${TABLE} WHERE "project_id" = $1 AND (SELECT set_config('cms.audit_retention', 'on', true)) = 'on'`, [projectId]);
}

/** Copy a project's entries to another cluster's table (a move), keeping their ids' order and dates. */
export async function copyProjectAuditEntries(from: Db, to: Db, projectId: number): Promise<number> {
  const all = await rows<{ r: string }>(from,
    `SELECT json_build_object('account_id', "account_id", 'action', "action", 'actor_type', "actor_type", 'actor_id', "actor_id", 'actor_email', "actor_email",
       'ip', "ip", 'user_agent', "user_agent", 'payload', "payload", 'created_at', "created_at")::text AS r FROM ${TABLE} WHERE "project_id" = $1 ORDER BY "id"`, [projectId]);
  if (all.length === 0) return 0;
  await exec(to,
    `INSERT INTO ${TABLE} ("project_id", ${COLUMNS.slice(COLUMNS.indexOf(',') + 2)}, "created_at")
     SELECT $1, r."account_id", r."action", r."actor_type", r."actor_id", r."actor_email", r."ip", r."user_agent", r."payload", r."created_at"
     FROM jsonb_to_recordset($2::jsonb) AS r("account_id" bigint, "action" text, "actor_type" text, "actor_id" text, "actor_email" text, "ip" text,
       "user_agent" text, "payload" jsonb, "created_at" timestamptz)`,
    [projectId, `[${all.map((x) => x.r).join(',')}]`]);
  return all.length;
}
