// Content history (management API § Content history): every write records, in its own
// transaction, one version per document-locale it changed — so a rolled-back write leaves none
// and a committed one always has its own. A version is one INSERT … SELECT that reads the stored
// row back as the content API returns it (row-json.ts `history` style), with the document's status
// after the change; the type's attributes at that time are kept once per distinct schema
// (`history_schemas`, by hash), so a version stays readable after the model changed.
import { createHash } from 'node:crypto';
import { exec, qualify, quoteIdent, rows, runCarried, type CarriedStatement, type Db } from '@cms/db';
import { COLUMNS, type PhysicalContentType, type PhysicalModel } from '@cms/tables';
import type { Model } from '@cms/schema';
import { rowJsonExpression } from './row-json.ts';
import type { WriteContext } from './write-context.ts';

const q = quoteIdent;

export const HISTORY_ORIGINS = ['rest', 'graphql', 'dashboard', 'import', 'release', 'schedule', 'restore'] as const;
export type HistoryOrigin = (typeof HISTORY_ORIGINS)[number];

/** Who made a change: a member of the project (account), an API token or an end user (named when read). */
export interface HistoryAuthor {
  type: 'account' | 'apiToken' | 'user';
  id: number | string;
}

/** Where a write comes from, recorded on its versions. */
export interface WriteOrigin {
  origin: HistoryOrigin;
  createdBy: HistoryAuthor | null;
}

/** Which stored version of a document-locale a history version reads. */
export interface VersionKey {
  uid: string;
  documentId: string;
  /** null on non-localized types */
  locale: string | null;
  /** The draft row (draft & publish types), else the published one (the only row without D&P). */
  draft: boolean;
  /** The document's status after the change when the writer knows it (saves the two lookups that find it). */
  status?: HistoryStatus;
  /** No version when the content equals its last one (an import sent again, or resumed, changes nothing). */
  unlessUnchanged?: boolean;
}

export type HistoryStatus = 'draft' | 'published' | 'modified';

interface HistoryStatement {
  /** The type's attributes, kept once per hash (a CTE body: `INSERT … ON CONFLICT DO NOTHING`). */
  schemaInsert: string;
  /** The version's row (a CTE body, or a statement of its own). */
  versionInsert: string;
  /** The same, recording nothing when the data equals the last version of that row's kind (draft or published), row ids aside. */
  unlessUnchanged: string;
  schemaHash: string;
  schemaJson: string;
}

const statements = new WeakMap<PhysicalModel, Map<string, HistoryStatement>>();

/**
 * The document's status once the change was made: draft (never published), modified (the draft
 * is newer than the published version) or published.
 */
function statusExpression(table: string, ct: PhysicalContentType): string {
  if (!ct.draftAndPublish) return `'published'`;
  const same = (a: string) => `${a}.${q(COLUMNS.documentId)} = t.${q(COLUMNS.documentId)} AND ${a}.${q(COLUMNS.locale)} IS NOT DISTINCT FROM t.${q(COLUMNS.locale)}`;
  return `(SELECT CASE WHEN p.${q(COLUMNS.id)} IS NULL THEN 'draft' WHEN d.${q(COLUMNS.updatedAt)} > p.${q(COLUMNS.updatedAt)} THEN 'modified' ELSE 'published' END ` +
    `FROM (SELECT 1) one LEFT JOIN ${table} d ON ${same('d')} AND d.${q(COLUMNS.publishedAt)} IS NULL ` +
    `LEFT JOIN ${table} p ON ${same('p')} AND p.${q(COLUMNS.publishedAt)} IS NOT NULL)`;
}

const withoutIds = (json: string) => `regexp_replace(${json}::text, '"id": [0-9]+', '', 'g')`;

function historyStatement(model: Model, physical: PhysicalModel, schema: string, uid: string): HistoryStatement {
  let bySchema = statements.get(physical);
  if (!bySchema) statements.set(physical, (bySchema = new Map()));
  const key = `${schema}\0${uid}`;
  let statement = bySchema.get(key);
  if (statement) return statement;
  const ct = physical.contentTypes[uid]!;
  const table = qualify(schema, ct.table);
  const schemaJson = JSON.stringify((model.contentTypes[uid]!.raw as { attributes?: unknown }).attributes ?? {});
  // $1 uid, $2 documentId, $3 locale, $4 draft row?, $5 origin, $6 createdBy, $7 schema hash, $8 schema,
  // $9 the status when known (COALESCE runs the lookups only when it is not).
  const versions = qualify(schema, 'history_versions');
  const schemaInsert = `INSERT INTO ${qualify(schema, 'history_schemas')} ("hash", "attributes") VALUES ($7, $8::jsonb) ON CONFLICT ("hash") DO NOTHING`;
  const head = `INSERT INTO ${versions} ("content_type", "related_document_id", "locale", "status", "data", "schema_hash", "origin", "created_by") `;
  const row =
    `SELECT t.${q(COLUMNS.documentId)} AS d, coalesce($9::text, ${statusExpression(table, ct)}) AS st, ${rowJsonExpression(model, physical, schema, uid, 't', 'history')} AS j ` +
    `FROM ${table} t WHERE t.${q(COLUMNS.documentId)} = $2 AND t.${q(COLUMNS.locale)} IS NOT DISTINCT FROM coalesce($3, t.${q(COLUMNS.locale)}) ` +
    `AND (t.${q(COLUMNS.publishedAt)} IS NULL) = $4::boolean ORDER BY t.${q(COLUMNS.id)} LIMIT 1`;
  const insert = `SELECT $1, v.d, $3, v.st, v.j, $7, $5, $6::jsonb FROM (${row}) v`;
  // The last version of the same kind: a draft's data has `publishedAt: null`.
  const last = `SELECT h."data" FROM ${versions} h WHERE h."content_type" = $1 AND h."related_document_id" = $2 AND h."locale" IS NOT DISTINCT FROM $3 ` +
    `AND (h."data"->'publishedAt' = 'null'::jsonb) = $4::boolean ORDER BY h."created_at" DESC, h."id" DESC LIMIT 1`;
  statement = {
    schemaInsert,
    versionInsert: head + insert,
    // Row ids aside: a component written again gets new rows (jsonb's text form is canonical, and an
    // `"id": n` inside a string value is escaped there, so only keys match).
    unlessUnchanged: `${head}${insert} WHERE NOT EXISTS (SELECT 1 FROM (${last}) l WHERE ${withoutIds('l."data"')} = ${withoutIds('v.j')})`,
    schemaHash: createHash('sha256').update(schemaJson).digest('base64url').slice(0, 22), schemaJson };
  bySchema.set(key, statement);
  return statement;
}

/**
 * Copy every version of schema `from` into schema `to` (a restore in place keeps the project's
 * history: its staged schema takes the live one's versions before it replaces it). Old versions
 * get new ids; lists order by time, so they stay in their place.
 */
export async function copyHistory(db: Db, from: string, to: string): Promise<void> {
  await exec(db, `INSERT INTO ${qualify(to, 'history_schemas')} SELECT * FROM ${qualify(from, 'history_schemas')} ON CONFLICT ("hash") DO NOTHING`, []);
  const columns = '"content_type", "related_document_id", "locale", "status", "data", "schema_hash", "origin", "created_by", "created_at"';
  await exec(db, `INSERT INTO ${qualify(to, 'history_versions')} (${columns}) SELECT ${columns} FROM ${qualify(from, 'history_versions')} ORDER BY "id"`, []);
}

/** Does this type keep history? Content types of the project; not end users or other plugin types. */
export function keepsHistory(uid: string): boolean {
  return uid.startsWith('api::');
}

/**
 * Record the version of the document-locale row `rowId` of `uid` belongs to, after a change made
 * to the entry outside the writer (an upload linking its files): its draft, the editor's content.
 */
export async function recordVersionOfRow(ctx: WriteContext, origin: WriteOrigin | null, uid: string, rowId: string): Promise<void> {
  const ct = ctx.physical.contentTypes[uid];
  if (!origin || !ct || !keepsHistory(uid)) return;
  const [row] = await rows<{ documentId: string; locale: string | null }>(ctx.tx,
    `SELECT ${q(COLUMNS.documentId)} AS "documentId", ${q(COLUMNS.locale)} AS locale FROM ${qualify(ctx.schema, ct.table)} WHERE ${q(COLUMNS.id)} = $1`, [rowId]);
  if (row) await recordVersions(ctx, origin, [{ uid, documentId: row.documentId, locale: row.locale, draft: true }]);
}

/**
 * The versions `keys` as they stand now in the write's transaction, as statements another one
 * carries (the write's live-event INSERT: @cms/db carried.ts), or none when `origin` is null
 * (history off). Each reads its row in the snapshot of the statement that carries it: what the
 * write's earlier statements stored.
 */
export function versionStatements(ctx: WriteContext, origin: WriteOrigin | null, keys: readonly VersionKey[]): CarriedStatement[] {
  if (!origin) return [];
  const out: CarriedStatement[] = [];
  for (const key of keys) {
    const ct = ctx.physical.contentTypes[key.uid];
    if (!keepsHistory(key.uid) || !ct) continue;
    const s = historyStatement(ctx.model, ctx.physical, ctx.schema, key.uid);
    out.push({
      ctes: [s.schemaInsert, key.unlessUnchanged ? s.unlessUnchanged : s.versionInsert],
      values: [
        key.uid, key.documentId, ct.localized ? key.locale : null, key.draft && ct.draftAndPublish,
        origin.origin, origin.createdBy === null ? null : JSON.stringify(origin.createdBy), s.schemaHash, s.schemaJson,
        ct.draftAndPublish ? (key.status ?? null) : 'published',
      ],
    });
  }
  return out;
}

/** Record the versions `keys` as they stand now in the write's transaction, in one statement (nothing when `origin` is null: history off). */
export async function recordVersions(ctx: WriteContext, origin: WriteOrigin | null, keys: readonly VersionKey[]): Promise<void> {
  await runCarried(ctx.tx, versionStatements(ctx, origin, keys));
}
