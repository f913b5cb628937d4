// Reading content history (management API § Content history): a page of versions (newest first,
// with an exact total), one version with the type's attributes at that time, and a document's
// current state in the versions' own JSON (row-json.ts `history` style), for a diff against it.
// Versions live in the project's own schema, so a project never reads another's.
import { isoTimestamp, qualify, quoteIdent, rows, type Db } from '@cms/db';
import { ValidationError } from '@cms/errors';
import { COLUMNS, type PhysicalModel } from '@cms/tables';
import type { Model } from '@cms/schema';
import type { HistoryAuthor, HistoryOrigin } from './history.ts';
import { rowJsonExpression } from './row-json.ts';

const q = quoteIdent;

export type VersionStatus = 'draft' | 'published' | 'modified';

/** One stored version, as the management API answers it (before `createdBy` is named). */
export interface HistoryVersion {
  id: number;
  contentType: string;
  relatedDocumentId: string;
  /** null on types that were not localized */
  locale: string | null;
  status: VersionStatus;
  /** The document as the content API returned it; relations `{documentId, locale}`, media `{id}`. */
  data: Record<string, unknown>;
  /** The type's schema.json `attributes` when the version was recorded. */
  schema: Record<string, unknown>;
  origin: HistoryOrigin;
  createdAt: string;
  createdBy: HistoryAuthor | null;
}

export interface HistoryListQuery {
  contentType?: string;
  documentId?: string;
  locale?: string;
  page: number;
  pageSize: number;
}

export interface HistoryPage {
  versions: HistoryVersion[];
  pagination: { page: number; pageSize: number; pageCount: number; total: number };
}

export const DEFAULT_HISTORY_PAGE_SIZE = 20;
export const MAX_HISTORY_PAGE_SIZE = 100;
const KEYS = ['contentType', 'documentId', 'locale', 'page', 'pageSize'];
const MAX_TEXT = { contentType: 200, documentId: 64, locale: 40 } as const;

const invalid = (key: string, message: string) =>
  ValidationError.fromFieldErrors([{ path: [key], message, name: 'ValidationError' }]);

function positiveInt(key: string, raw: string, max: number): number {
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) throw invalid(key, `${key} must be an integer from 1 to ${max}`);
  return Number(raw);
}

/** The query string of a history listing; unknown keys and malformed values are a 400 naming the key. */
export function parseHistoryListQuery(query: Record<string, unknown>): HistoryListQuery {
  const out: HistoryListQuery = { page: 1, pageSize: DEFAULT_HISTORY_PAGE_SIZE };
  for (const [key, value] of Object.entries(query)) {
    if (!KEYS.includes(key)) throw invalid(key.slice(0, 100), `${key.slice(0, 100)} is not a valid key`);
    if (typeof value !== 'string') throw invalid(key, `${key} must be given once, as text`);
    if (key === 'page') out.page = positiveInt(key, value, 1_000_000);
    else if (key === 'pageSize') out.pageSize = positiveInt(key, value, MAX_HISTORY_PAGE_SIZE);
    else if (value !== '') {
      const name = key as keyof typeof MAX_TEXT;
      if (value.length > MAX_TEXT[name] || value.includes('\0')) throw invalid(key, `${key} must be at most ${MAX_TEXT[name]} characters`);
      out[name] = value;
    }
  }
  return out;
}

/** A version id from a path: a positive integer (decimal text), else a 400. */
export function historyVersionId(raw: string): string {
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw invalid('versionId', 'versionId must be a positive integer');
  return String(Number(raw));
}

interface VersionRow {
  id: string;
  content_type: string;
  related_document_id: string;
  locale: string | null;
  status: VersionStatus;
  data: string;
  schema: string;
  origin: HistoryOrigin;
  created_at: string;
  created_by: string | null;
  total?: number;
}

// jsonb as text, parsed here: the same result whatever type parsers a pool has.
const SELECT = `SELECT v."id"::text AS id, v."content_type", v."related_document_id", v."locale", v."status", v."data"::text AS data, ` +
  `s."attributes"::text AS schema, v."origin", ${isoTimestamp('v."created_at"')} AS created_at, v."created_by"::text AS created_by`;

const from = (schema: string) =>
  `FROM ${qualify(schema, 'history_versions')} v JOIN ${qualify(schema, 'history_schemas')} s ON s."hash" = v."schema_hash"`;

function versionOf(row: VersionRow): HistoryVersion {
  return {
    id: Number(row.id), contentType: row.content_type, relatedDocumentId: row.related_document_id, locale: row.locale,
    status: row.status, data: JSON.parse(row.data) as Record<string, unknown>, schema: JSON.parse(row.schema) as Record<string, unknown>,
    origin: row.origin, createdAt: row.created_at, createdBy: row.created_by === null ? null : (JSON.parse(row.created_by) as HistoryAuthor),
  };
}

/** One page of the versions matching the query, newest first. */
export async function listVersions(db: Db, schema: string, query: HistoryListQuery): Promise<HistoryPage> {
  const values: unknown[] = [];
  const where: string[] = [];
  const bind = (value: unknown) => `$${values.push(value)}`;
  // Filters in index order: (content_type, related_document_id, created_at DESC, id DESC).
  if (query.contentType !== undefined) where.push(`v."content_type" = ${bind(query.contentType)}`);
  if (query.documentId !== undefined) where.push(`v."related_document_id" = ${bind(query.documentId)}`);
  if (query.locale !== undefined) where.push(`v."locale" = ${bind(query.locale)}`);
  const filter = where.length ? ` WHERE ${where.join(' AND ')}` : '';
  const offset = (query.page - 1) * query.pageSize;
  const found = await rows<VersionRow>(db,
    `${SELECT}, count(*) OVER ()::int AS total ${from(schema)}${filter} ORDER BY v."created_at" DESC, v."id" DESC ` +
    `LIMIT ${bind(query.pageSize)} OFFSET ${bind(offset)}`, values);
  // Past the last page no row carries the total: count on its own.
  const total = found[0]?.total ?? (offset === 0 ? 0 : (await rows<{ n: number }>(db,
    `SELECT count(*)::int AS n FROM ${qualify(schema, 'history_versions')} v${filter}`, values.slice(0, -2)))[0]!.n);
  return {
    versions: found.map(versionOf),
    pagination: { page: query.page, pageSize: query.pageSize, pageCount: Math.ceil(total / query.pageSize), total },
  };
}

/** One version by id (decimal text), or null. */
export async function findVersion(db: Db, schema: string, id: string): Promise<HistoryVersion | null> {
  const [row] = await rows<VersionRow>(db, `${SELECT} ${from(schema)} WHERE v."id" = $1::bigint`, [id]);
  return row ? versionOf(row) : null;
}

/**
 * The version just before `version` of the same document-locale (what a diff compares with by
 * default), or null for its first.
 */
export async function previousVersion(db: Db, schema: string, version: HistoryVersion): Promise<HistoryVersion | null> {
  const [row] = await rows<VersionRow>(db,
    `${SELECT} ${from(schema)} WHERE v."content_type" = $1 AND v."related_document_id" = $2 AND v."locale" IS NOT DISTINCT FROM $3 ` +
    // Compared with the stored time (microseconds), not the answer's milliseconds.
    `AND (v."created_at", v."id") < (SELECT o."created_at", o."id" FROM ${qualify(schema, 'history_versions')} o WHERE o."id" = $4::bigint) ` +
    `ORDER BY v."created_at" DESC, v."id" DESC LIMIT 1`,
    [version.contentType, version.relatedDocumentId, version.locale, String(version.id)]);
  return row ? versionOf(row) : null;
}

/** What a document-locale looks like now, read as a version would record it. */
export interface CurrentDocument {
  uid: string;
  documentId: string;
  /** ignored on types that are not localized */
  locale: string | null;
}

/**
 * The document-locale's current content in the versions' JSON: its draft on a draft & publish
 * type (what a restore writes to), else its only row; null when it does not exist (deleted).
 */
export async function currentVersionData(db: Db, model: Model, physical: PhysicalModel, schema: string, doc: CurrentDocument): Promise<Record<string, unknown> | null> {
  const ct = physical.contentTypes[doc.uid];
  if (!ct || !model.contentTypes[doc.uid]) return null;
  const locale = ct.localized ? doc.locale : null;
  const [row] = await rows<{ data: string }>(db,
    `SELECT (${rowJsonExpression(model, physical, schema, doc.uid, 't', 'history')})::text AS data FROM ${qualify(schema, ct.table)} t ` +
    `WHERE t.${q(COLUMNS.documentId)} = $1 AND t.${q(COLUMNS.locale)} IS NOT DISTINCT FROM $2 ` +
    `ORDER BY (t.${q(COLUMNS.publishedAt)} IS NULL) DESC, t.${q(COLUMNS.id)} LIMIT 1`, [doc.documentId, locale]);
  return row ? (JSON.parse(row.data) as Record<string, unknown>) : null;
}
