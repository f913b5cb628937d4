// The statements on a project's `scheduled_actions` table (base migration 0009), and nothing
// else: the routes and the scheduler compose these in their own transactions.
import { exec, isoTimestamp, qualify, rows, type Db } from '@cms/db';
import type { ScheduledActionQuery, ScheduledActionStatus, ScheduledActionType } from './scheduled-action-input.ts';

export interface ScheduledActionRow {
  id: number;
  contentType: string;
  documentId: string;
  /** null on types without i18n */
  locale: string | null;
  action: ScheduledActionType;
  /** ISO instant (UTC). */
  scheduledFor: string;
  timezone: string;
  status: ScheduledActionStatus;
  error: string | null;
  createdBy: number | null;
  createdAt: string;
}

const table = (schema: string) => qualify(schema, 'scheduled_actions');

const COLUMNS =
  `s."id"::text AS id, s."content_type" AS "contentType", s."document_id" AS "documentId", s."locale", s."action", ` +
  `${isoTimestamp('s."scheduled_for"')} AS "scheduledFor", s."timezone", s."status", s."error", s."created_by"::text AS "createdBy", ` +
  `${isoTimestamp('s."created_at"')} AS "createdAt"`;

type Raw = Omit<ScheduledActionRow, 'id' | 'createdBy'> & { id: string; createdBy: string | null };
const rowOf = (r: Raw): ScheduledActionRow => ({ ...r, id: Number(r.id), createdBy: r.createdBy === null ? null : Number(r.createdBy) });

export interface NewScheduledAction {
  contentType: string;
  documentId: string;
  locale: string | null;
  action: ScheduledActionType;
  scheduledFor: string;
  timezone: string;
  createdBy: number | null;
}

export async function insertScheduledAction(db: Db, schema: string, input: NewScheduledAction): Promise<ScheduledActionRow> {
  const [row] = await rows<Raw>(db,
    `WITH s AS (INSERT INTO ${table(schema)} ("content_type", "document_id", "locale", "action", "scheduled_for", "timezone", "created_by") ` +
    `VALUES ($1, $2, $3, $4, $5::timestamptz, $6, $7) RETURNING *) SELECT ${COLUMNS} FROM s`,
    [input.contentType, input.documentId, input.locale, input.action, input.scheduledFor, input.timezone, input.createdBy]);
  return rowOf(row!);
}

/** Newest schedule last: in the order they run, then created. At most `limit`. */
export async function listScheduledActionRows(db: Db, schema: string, query: ScheduledActionQuery, limit: number): Promise<ScheduledActionRow[]> {
  const values: unknown[] = [];
  const where: string[] = [];
  if (query.documentId !== undefined) where.push(`s."document_id" = $${values.push(query.documentId)}`);
  if (query.status !== undefined) where.push(`s."status" = $${values.push(query.status)}`);
  const found = await rows<Raw>(db,
    `SELECT ${COLUMNS} FROM ${table(schema)} s${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ` +
    `ORDER BY s."scheduled_for", s."id" LIMIT $${values.push(limit)}`, values);
  return found.map(rowOf);
}

/** One scheduled action by id (decimal text); `lock`: FOR UPDATE, until the transaction `db` ends. */
export async function findScheduledAction(db: Db, schema: string, id: string, lock = false): Promise<ScheduledActionRow | null> {
  const [row] = await rows<Raw>(db, `SELECT ${COLUMNS} FROM ${table(schema)} s WHERE s."id" = $1::bigint${lock ? ' FOR UPDATE' : ''}`, [id]);
  return row ? rowOf(row) : null;
}

/**
 * The scheduler's lock on one: the row, locked until `tx` ends; 'busy' while another transaction
 * holds it (a cancel in progress: never waited for, so the two never wait on each other); null
 * when there is none.
 */
export async function tryLockScheduledAction(tx: Db, schema: string, id: number): Promise<ScheduledActionRow | 'busy' | null> {
  const [row] = await rows<Raw>(tx, `SELECT ${COLUMNS} FROM ${table(schema)} s WHERE s."id" = $1::bigint FOR UPDATE SKIP LOCKED`, [id]);
  if (row) return rowOf(row);
  const [held] = await rows(tx, `SELECT 1 FROM ${table(schema)} WHERE "id" = $1::bigint`, [id]);
  return held ? 'busy' : null;
}

export async function setScheduledActionStatus(db: Db, schema: string, id: number, status: ScheduledActionStatus, error: string | null = null): Promise<void> {
  await exec(db, `UPDATE ${table(schema)} SET "status" = $2, "error" = $3, "updated_at" = now() WHERE "id" = $1::bigint`, [id, status, error]);
}
