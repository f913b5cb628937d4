// The statements on a project's `releases` and `release_actions` tables (base migration 0009),
// and nothing else: every operation above composes these in its own transaction.
import { exec, isoTimestamp, qualify, rows, type Db } from '@cms/db';

/** What is stored: the validity states are recomputed on every change and read (validity.ts). */
export type StoredStatus = 'empty' | 'ready' | 'blocked' | 'failed' | 'done';
export type ActionType = 'publish' | 'unpublish';

export interface ReleaseRow {
  id: number;
  name: string;
  status: StoredStatus;
  scheduledAt: string | null;
  timezone: string | null;
  releasedAt: string | null;
  error: string | null;
  createdBy: number | null;
  createdAt: string;
  updatedAt: string;
  actionCount: number;
}

export interface ActionRow {
  id: number;
  releaseId: number;
  type: ActionType;
  contentType: string;
  entryDocumentId: string;
  /** null on types without i18n */
  locale: string | null;
  createdAt: string;
}

export interface Page {
  page: number;
  pageSize: number;
}

const t = (schema: string, name: 'releases' | 'release_actions') => qualify(schema, name);

// Ids and counts as text/int: the same values whatever type parsers a pool has.
const releaseColumns = (schema: string) =>
  `r."id"::text AS id, r."name", r."status", ${isoTimestamp('r."scheduled_at"')} AS "scheduledAt", r."timezone", ` +
  `${isoTimestamp('r."released_at"')} AS "releasedAt", r."error", r."created_by"::text AS "createdBy", ` +
  `${isoTimestamp('r."created_at"')} AS "createdAt", ${isoTimestamp('r."updated_at"')} AS "updatedAt", ` +
  `(SELECT count(*)::int FROM ${t(schema, 'release_actions')} a WHERE a."release_id" = r."id") AS "actionCount"`;

type RawRelease = Omit<ReleaseRow, 'id' | 'createdBy'> & { id: string; createdBy: string | null };
const releaseOf = (r: RawRelease): ReleaseRow => ({ ...r, id: Number(r.id), createdBy: r.createdBy === null ? null : Number(r.createdBy) });

const actionColumns =
  `a."id"::text AS id, a."release_id"::text AS "releaseId", a."type", a."content_type" AS "contentType", ` +
  `a."entry_document_id" AS "entryDocumentId", a."locale", ${isoTimestamp('a."created_at"')} AS "createdAt"`;

type RawAction = Omit<ActionRow, 'id' | 'releaseId'> & { id: string; releaseId: string };
const actionOf = (a: RawAction): ActionRow => ({ ...a, id: Number(a.id), releaseId: Number(a.releaseId) });

export interface NewRelease {
  name: string;
  scheduledAt: string | null;
  timezone: string | null;
  createdBy: number | null;
}

export async function insertRelease(db: Db, schema: string, input: NewRelease): Promise<ReleaseRow> {
  const [row] = await rows<RawRelease>(db,
    `WITH r AS (INSERT INTO ${t(schema, 'releases')} ("name", "scheduled_at", "timezone", "created_by") VALUES ($1, $2::timestamptz, $3, $4) RETURNING *) ` +
    `SELECT ${releaseColumns(schema)} FROM r`, [input.name, input.scheduledAt, input.timezone, input.createdBy]);
  return releaseOf(row!);
}

/** One release by id (decimal text); `lock`: FOR UPDATE, until the transaction `db` ends. */
export async function findRelease(db: Db, schema: string, id: string, lock = false): Promise<ReleaseRow | null> {
  const [row] = await rows<RawRelease>(db,
    `SELECT ${releaseColumns(schema)} FROM ${t(schema, 'releases')} r WHERE r."id" = $1::bigint${lock ? ' FOR UPDATE OF r' : ''}`, [id]);
  return row ? releaseOf(row) : null;
}

/**
 * The scheduler's lock on a release: its row, locked until `tx` ends; 'busy' while another
 * transaction holds it (a member's change or publish: never waited for, so the scheduler, which
 * holds the release's row of the due index, and that change never wait on each other); null when
 * there is none.
 */
export async function tryLockRelease(tx: Db, schema: string, id: number): Promise<ReleaseRow | 'busy' | null> {
  const [row] = await rows<RawRelease>(tx,
    `SELECT ${releaseColumns(schema)} FROM ${t(schema, 'releases')} r WHERE r."id" = $1::bigint FOR UPDATE OF r SKIP LOCKED`, [id]);
  if (row) return releaseOf(row);
  const [held] = await rows(tx, `SELECT 1 FROM ${t(schema, 'releases')} WHERE "id" = $1::bigint`, [id]);
  return held ? 'busy' : null;
}

/** Releases not published yet (failed ones included): what the plan's limit counts. */
export async function countPending(db: Db, schema: string): Promise<number> {
  const [row] = await rows<{ n: number }>(db, `SELECT count(*)::int AS n FROM ${t(schema, 'releases')} WHERE "released_at" IS NULL`);
  return row!.n;
}

/** Serialises the creations of one project's releases until the transaction ends (the limit's count). */
export async function lockReleaseCreation(db: Db, schema: string): Promise<void> {
  await exec(db, 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${schema}.releases:create`]);
}

export type ReleaseFilter = 'pending' | 'done' | undefined;

/** A page of releases, newest first (published ones: last published first), with the total. */
export async function listReleaseRows(db: Db, schema: string, filter: ReleaseFilter, page: Page): Promise<{ rows: ReleaseRow[]; total: number }> {
  const where = filter === 'pending' ? ' WHERE r."released_at" IS NULL' : filter === 'done' ? ' WHERE r."released_at" IS NOT NULL' : '';
  const order = filter === 'done' ? 'r."released_at" DESC, r."id" DESC' : 'r."created_at" DESC, r."id" DESC';
  const found = await rows<RawRelease & { total: number }>(db,
    `SELECT ${releaseColumns(schema)}, count(*) OVER ()::int AS total FROM ${t(schema, 'releases')} r${where} ORDER BY ${order} LIMIT $1 OFFSET $2`,
    [page.pageSize, (page.page - 1) * page.pageSize]);
  // Past the last page no row carries the total: count on its own.
  const total = found[0]?.total ?? (page.page === 1 ? 0 : (await rows<{ n: number }>(db,
    `SELECT count(*)::int AS n FROM ${t(schema, 'releases')} r${where}`))[0]!.n);
  return { rows: found.map(({ total: _, ...r }) => releaseOf(r)), total };
}

export interface ReleaseChange {
  name?: string;
  scheduledAt?: string | null;
  timezone?: string | null;
  status?: StoredStatus;
  /** Cleared (null) by any change that is not a failure. */
  error?: string | null;
}

export async function updateReleaseRow(db: Db, schema: string, id: number, change: ReleaseChange): Promise<void> {
  const values: unknown[] = [id];
  const sets = ['"updated_at" = now()'];
  const set = (column: string, value: unknown, cast = '') => sets.push(`"${column}" = $${values.push(value)}${cast}`);
  if (change.name !== undefined) set('name', change.name);
  if (change.scheduledAt !== undefined) set('scheduled_at', change.scheduledAt, '::timestamptz');
  if (change.timezone !== undefined) set('timezone', change.timezone);
  if (change.status !== undefined) set('status', change.status);
  if (change.error !== undefined) set('error', change.error);
  await exec(db, `UPDATE ${t(schema, 'releases')} SET ${sets.join(', ')} WHERE "id" = $1::bigint`, values);
}

/** Published: `done` from now on, at the transaction's time. */
export async function markReleased(db: Db, schema: string, id: number): Promise<void> {
  await exec(db, `UPDATE ${t(schema, 'releases')} SET "status" = 'done', "released_at" = now(), "error" = NULL, "updated_at" = now() WHERE "id" = $1::bigint`, [id]);
}

export async function deleteReleaseRow(db: Db, schema: string, id: number): Promise<void> {
  await exec(db, `DELETE FROM ${t(schema, 'releases')} WHERE "id" = $1::bigint`, [id]);
}

export interface NewAction {
  type: ActionType;
  contentType: string;
  entryDocumentId: string;
  locale: string | null;
}

/** The new action, or null when the release has one for that document-locale already (its unique index). */
export async function insertAction(db: Db, schema: string, releaseId: number, input: NewAction): Promise<ActionRow | null> {
  const [row] = await rows<RawAction>(db,
    `WITH a AS (INSERT INTO ${t(schema, 'release_actions')} ("release_id", "type", "content_type", "entry_document_id", "locale") ` +
    `VALUES ($1::bigint, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING *) SELECT ${actionColumns} FROM a`,
    [releaseId, input.type, input.contentType, input.entryDocumentId, input.locale]);
  return row ? actionOf(row) : null;
}

export async function findAction(db: Db, schema: string, releaseId: number, actionId: string): Promise<ActionRow | null> {
  const [row] = await rows<RawAction>(db,
    `SELECT ${actionColumns} FROM ${t(schema, 'release_actions')} a WHERE a."id" = $1::bigint AND a."release_id" = $2::bigint`, [actionId, releaseId]);
  return row ? actionOf(row) : null;
}

/** Every action of these releases, in the order they were added. */
export async function actionsOf(db: Db, schema: string, releaseIds: readonly number[]): Promise<ActionRow[]> {
  if (releaseIds.length === 0) return [];
  const found = await rows<RawAction>(db,
    `SELECT ${actionColumns} FROM ${t(schema, 'release_actions')} a WHERE a."release_id" = ANY($1::bigint[]) ORDER BY a."id"`, [releaseIds]);
  return found.map(actionOf);
}

/** A page of one release's actions, in the order they were added, with the total. */
export async function listActionRows(db: Db, schema: string, releaseId: number, page: Page): Promise<{ rows: ActionRow[]; total: number }> {
  const found = await rows<RawAction & { total: number }>(db,
    `SELECT ${actionColumns}, count(*) OVER ()::int AS total FROM ${t(schema, 'release_actions')} a ` +
    `WHERE a."release_id" = $1::bigint ORDER BY a."id" LIMIT $2 OFFSET $3`, [releaseId, page.pageSize, (page.page - 1) * page.pageSize]);
  const total = found[0]?.total ?? (page.page === 1 ? 0 : (await rows<{ n: number }>(db,
    `SELECT count(*)::int AS n FROM ${t(schema, 'release_actions')} WHERE "release_id" = $1::bigint`, [releaseId]))[0]!.n);
  return { rows: found.map(({ total: _, ...a }) => actionOf(a)), total };
}

export async function updateActionType(db: Db, schema: string, actionId: number, type: ActionType): Promise<void> {
  await exec(db, `UPDATE ${t(schema, 'release_actions')} SET "type" = $2 WHERE "id" = $1::bigint`, [actionId, type]);
}

export async function deleteActionRow(db: Db, schema: string, actionId: number): Promise<void> {
  await exec(db, `DELETE FROM ${t(schema, 'release_actions')} WHERE "id" = $1::bigint`, [actionId]);
}
