// Bulk import of documents from another Strapi (`cms import strapi`): each document version is
// written as it was there — its documentId, locale, draft or published state and timestamps kept
// — in two passes, so the order things arrive in does not matter: first the versions (scalars,
// components, dynamic zones, media), then their relations, once every target exists. Relations
// inside components go with their component: such versions are sent again after the first pass.
// Idempotent: a version is matched by documentId + locale + state and replaced in place, so a
// batch sent again after an interruption changes nothing. Each batch is one transaction: the
// first bad item refuses the whole batch (400, with the item named) and nothing is written.
import { AppError, ValidationError } from '@cms/errors';
import { column, exec, qualify, quoteIdent, sqlState, type Db } from '@cms/db';
import { COLUMNS, type PhysicalContentType } from '@cms/tables';
import type { ContentType } from '@cms/schema';
import { parseDocumentData } from './parse-data.ts';
import { scalarAssignments, writeRowChildren } from './row-writes.ts';
import { uniqueViolation } from './unique.ts';
import { emptyRowWrite } from './write-input.ts';
import type { DocumentStore } from './writer.ts';
import type { WriteContext } from './write-context.ts';
import { recordVersions, type VersionKey } from './history.ts';

const q = quoteIdent;

export const MAX_IMPORT_ITEMS = 500;

/** Which version of which document an item is about. */
export interface ImportedVersionKey {
  uid: string;
  documentId: string;
  /** null on non-localized types */
  locale: string | null;
  status: 'draft' | 'published';
}

export interface ImportedVersion extends ImportedVersionKey {
  /** The version's attributes as a write body (media as file ids of this project), without relations. */
  data: Record<string, unknown>;
  createdAt: string | null;
  updatedAt: string | null;
  publishedAt: string | null;
}

export interface ImportedRelations extends ImportedVersionKey {
  /**
   * Owner-side relation attributes → their targets, in order; `inversePosition` (from 1): the
   * link's place in the target's inverse (`mappedBy`) list, where the source gives it.
   */
  relations: Record<string, Array<{ documentId: string; locale: string | null; inversePosition?: number }>>;
}

export type ImportStore = Pick<DocumentStore, 'pool' | 'schema' | 'model' | 'physical' | 'defaultLocale' | 'admitDocument' | 'history'> & {
  /** The project's enabled locales. */
  localeCodes: ReadonlySet<string>;
};

// Idempotent imports record no version for a batch sent again.
const versionKeyOf = (ref: ImportedVersionKey): VersionKey => ({
  uid: ref.uid, documentId: ref.documentId, locale: ref.locale, draft: ref.status === 'draft', unlessUnchanged: true,
});

const isDict = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;

/** The item's failure, naming it: `details.item` is its index and key, `details.errors` the field errors. */
function itemError(index: number, key: Partial<ImportedVersionKey>, err: unknown): AppError {
  const cause = err instanceof AppError ? err : new ValidationError(String((err as Error)?.message ?? err));
  const name = [key.uid, key.documentId, key.locale, key.status].filter(Boolean).join(' ');
  return new ValidationError(`Item ${index} (${name}): ${cause.message}`, { ...cause.details, item: { index, ...key } });
}

function items(body: unknown, field: string): unknown[] {
  const list = isDict(body) ? body[field] : undefined;
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_IMPORT_ITEMS) {
    throw new ValidationError(`${field} must be a list of 1 to ${MAX_IMPORT_ITEMS} items`);
  }
  return list;
}

function versionKey(store: ImportStore, item: unknown): ImportedVersionKey & { type: ContentType; ct: PhysicalContentType } {
  if (!isDict(item)) throw new ValidationError('must be an object');
  const type = typeof item.uid === 'string' ? store.model.contentTypes[item.uid] : undefined;
  const ct = type ? store.physical.contentTypes[type.uid] : undefined;
  if (!type || !ct) throw new ValidationError(`uid is not a content type of this project: ${String(item.uid)}`);
  const documentId = item.documentId;
  if (typeof documentId !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(documentId)) throw new ValidationError('documentId must be 1 to 64 letters, digits, - or _');
  const status = item.status;
  if (status !== 'draft' && status !== 'published') throw new ValidationError('status must be draft or published');
  if (status === 'draft' && !ct.draftAndPublish) throw new ValidationError(`${type.uid} has no draft & publish: import its versions as published`);
  let locale: string | null = null;
  if (ct.localized) {
    if (typeof item.locale !== 'string' || !/^[A-Za-z0-9-]{1,40}$/.test(item.locale)) throw new ValidationError(`locale is required on the localized type ${type.uid}`);
    locale = item.locale;
    if (!store.localeCodes.has(locale)) throw new ValidationError(`locale ${locale} is not a locale of this project: add it first`);
  }
  return { uid: type.uid, documentId, locale, status, type, ct };
}

function timestamp(item: Record<string, unknown>, key: string): string | null {
  const v = item[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || !ISO_DATE.test(v) || Number.isNaN(Date.parse(v))) throw new ValidationError(`${key} must be an ISO 8601 date-time`);
  return v;
}

type ItemRef = ReturnType<typeof versionKey>;

function claimedKey(item: unknown): Partial<ImportedVersionKey> {
  if (!isDict(item)) return {};
  const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, 200) : undefined);
  const key: Partial<ImportedVersionKey> = { uid: text(item.uid), documentId: text(item.documentId), locale: text(item.locale) };
  if (item.status === 'draft' || item.status === 'published') key.status = item.status;
  return Object.fromEntries(Object.entries(key).filter(([, v]) => v !== undefined));
}

/**
 * Run `write` for each item of a batch, all in one transaction (`last` at its end); the first
 * item that fails rolls the batch back and is named in the error.
 */
async function eachItem(
  store: ImportStore, list: unknown[], write: (ctx: WriteContext, ref: ItemRef, item: Record<string, unknown>) => Promise<void>,
  last?: (ctx: WriteContext) => Promise<void>,
): Promise<void> {
  await store.pool.transaction(async (tx) => {
    const ctx: WriteContext = { tx, schema: store.schema, model: store.model, physical: store.physical, defaultLocale: store.defaultLocale };
    for (const [index, item] of list.entries()) {
      // What the item says it is, for the error, before it is checked.
      let key = claimedKey(item);
      try {
        const ref = versionKey(store, item);
        key = { uid: ref.uid, documentId: ref.documentId, locale: ref.locale, status: ref.status };
        await write(ctx, ref, item as Record<string, unknown>);
      } catch (err) {
        const unique = sqlState(err) === '23505' && key.uid ? uniqueViolation(store.physical.contentTypes[key.uid]!, err) : null;
        throw itemError(index, key, unique ?? err);
      }
    }
    await last?.(ctx);
  });
}

/** The row of one version, if it exists (on types without draft & publish: the document's row in that locale). */
async function versionRow(tx: Db, schema: string, ct: PhysicalContentType, key: ImportedVersionKey): Promise<string | undefined> {
  const state = ct.draftAndPublish ? ` AND (${q(COLUMNS.publishedAt)} IS NULL) = $3` : ' AND $3::boolean IS NOT NULL';
  const [id] = await column(tx,
    `SELECT ${q(COLUMNS.id)}::text FROM ${qualify(schema, ct.table)} WHERE ${q(COLUMNS.documentId)} = $1 ` +
    `AND ${q(COLUMNS.locale)} IS NOT DISTINCT FROM $2${state} ORDER BY ${q(COLUMNS.id)} LIMIT 1`,
    [key.documentId, key.locale, key.status === 'draft']);
  return id;
}

/** Is there any version of this document yet (so importing one more is no new document)? */
async function documentExists(tx: Db, schema: string, ct: PhysicalContentType, documentId: string): Promise<boolean> {
  return (await column(tx, `SELECT 1 FROM ${qualify(schema, ct.table)} WHERE ${q(COLUMNS.documentId)} = $1 LIMIT 1`, [documentId])).length > 0;
}

/** Write one batch of versions; resolves with how many rows were created and how many replaced. */
export async function importDocumentVersions(store: ImportStore, body: unknown): Promise<{ created: number; updated: number }> {
  const list = items(body, 'documents');
  let created = 0;
  let newDocuments = 0;
  await eachItem(store, list, async (ctx, ref, raw) => {
    if (!isDict(raw.data)) throw new ValidationError('data must be an object');
    // The version's own relations are the relations pass's (dropped here); relations inside its
    // components are written with them (their targets must have been imported).
    const data = Object.fromEntries(Object.entries(raw.data).filter(([name]) => ref.type.attributes[name]?.kind !== 'relation'));
    const row = parseDocumentData(data, { model: store.model, uid: ref.uid, mode: 'create', publishing: false, canFind: () => true });
    const createdAt = timestamp(raw, 'createdAt');
    const updatedAt = timestamp(raw, 'updatedAt');
    const publishedAt = ref.status === 'published' ? timestamp(raw, 'publishedAt') : null;
    await exec(ctx.tx, 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${ctx.schema}.${ref.ct.table}:${ref.documentId}`]);
    const existing = await versionRow(ctx.tx, ctx.schema, ref.ct, ref);
    const values: unknown[] = [];
    const { columns, expressions } = scalarAssignments(ref.ct, row, values);
    const times = [[COLUMNS.createdAt, createdAt], [COLUMNS.updatedAt, updatedAt]] as Array<[string, string | null]>;
    const published = ref.status === 'published' || !ref.ct.draftAndPublish;
    const source = { documentId: ref.documentId, locale: ref.locale };
    if (existing) {
      const sets = columns.map((c, i) => `${c} = ${expressions[i]}`);
      for (const [col, at] of times) sets.push(`${q(col)} = ${at === null ? 'now()' : `$${values.push(at)}::timestamptz`}`);
      if (published) sets.push(`${q(COLUMNS.publishedAt)} = ${publishedAt === null ? 'now()' : `$${values.push(publishedAt)}::timestamptz`}`);
      values.push(existing);
      await exec(ctx.tx, `UPDATE ${qualify(ctx.schema, ref.ct.table)} SET ${sets.join(', ')} WHERE ${q(COLUMNS.id)} = $${values.length}`, values);
      await writeRowChildren(ctx, ref.uid, existing, row, source, false);
      await recordVersions(ctx, store.history, [versionKeyOf(ref)]);
      return;
    }
    if (!(await documentExists(ctx.tx, ctx.schema, ref.ct, ref.documentId))) newDocuments++;
    const cols = [...columns, q(COLUMNS.documentId), q(COLUMNS.locale), q(COLUMNS.publishedAt)];
    const exprs = [...expressions, `$${values.push(ref.documentId)}`, `$${values.push(ref.locale)}`,
      !published ? 'NULL' : publishedAt === null ? 'now()' : `$${values.push(publishedAt)}::timestamptz`];
    for (const [col, at] of times) {
      if (at === null) continue;
      cols.push(q(col));
      exprs.push(`$${values.push(at)}::timestamptz`);
    }
    const [id] = await column(ctx.tx,
      `INSERT INTO ${qualify(ctx.schema, ref.ct.table)} (${cols.join(', ')}) VALUES (${exprs.join(', ')}) RETURNING ${q(COLUMNS.id)}::text`, values);
    await writeRowChildren(ctx, ref.uid, id!, row, source, true);
    await recordVersions(ctx, store.history, [versionKeyOf(ref)]);
    created++;
  }, async (ctx) => {
    // The plan's document limit, once for the batch (it locks until the commit).
    if (newDocuments > 0) await store.admitDocument?.(ctx.tx);
  });
  return { created, updated: list.length - created };
}

/**
 * Give links of one source row the places in their targets' inverse lists that the source had
 * (`set` puts a new link last there). A null `u.loc` matches whichever locale the link names
 * (targets that are not localized, or named without a locale).
 */
async function setInversePositions(ctx: WriteContext, linkTable: string, sourceRowId: string, targets: Array<{ documentId: string; locale: string | null; position: number }>): Promise<void> {
  await exec(ctx.tx,
    `UPDATE ${qualify(ctx.schema, linkTable)} l SET ${q(COLUMNS.invOrd)} = u.p FROM unnest($2::text[], $3::text[], $4::int[]) AS u(d, loc, p) ` +
    `WHERE l.${q(COLUMNS.sourceId)} = $1 AND l.${q(COLUMNS.targetDocumentId)} = u.d AND (u.loc IS NULL OR l.${q(COLUMNS.targetLocale)} = u.loc)`,
    [sourceRowId, targets.map((t) => t.documentId), targets.map((t) => t.locale), targets.map((t) => t.position)]);
}

/**
 * Set the owner-side relations of already imported versions, targets in the order given (and in
 * the order of their inverse lists where given).
 */
export async function importRelations(store: ImportStore, body: unknown): Promise<{ updated: number }> {
  const list = items(body, 'relations');
  await eachItem(store, list, async (ctx, ref, raw) => {
    const relations = raw.relations;
    if (!isDict(relations)) throw new ValidationError('relations must be an object');
    const row = emptyRowWrite();
    /** link table → the targets with their inverse position */
    const positioned = new Map<string, Array<{ documentId: string; locale: string | null; position: number }>>();
    for (const [name, targets] of Object.entries(relations)) {
      const attr = ref.type.attributes[name];
      const phys = ref.ct.attributes[name];
      if (attr?.kind !== 'relation' || phys?.kind !== 'relation' || phys.side !== 'owner') throw new ValidationError(`${name} is not an owner-side relation of ${ref.uid}`);
      if (!Array.isArray(targets) || targets.length > MAX_IMPORT_ITEMS) throw new ValidationError(`relations.${name} must be a list of at most ${MAX_IMPORT_ITEMS} targets`);
      row.relations.set(name, {
        kind: 'set',
        refs: targets.map((t) => {
          if (!isDict(t) || typeof t.documentId !== 'string' || (t.locale !== undefined && t.locale !== null && typeof t.locale !== 'string')) {
            throw new ValidationError(`relations.${name} targets must be {documentId, locale}`);
          }
          const locale = typeof t.locale === 'string' ? t.locale : null;
          if (t.inversePosition !== undefined) {
            const position = t.inversePosition;
            if (typeof position !== 'number' || !Number.isInteger(position) || position < 1 || position > 2 ** 31 - 1) {
              throw new ValidationError(`relations.${name} inversePosition must be a whole number from 1`);
            }
            const placed = positioned.get(phys.linkTable) ?? [];
            placed.push({ documentId: t.documentId, locale, position });
            positioned.set(phys.linkTable, placed);
          }
          return { kind: 'document' as const, documentId: t.documentId, ...(locale !== null ? { locale } : {}) };
        }),
      });
    }
    const rowId = await versionRow(ctx.tx, ctx.schema, ref.ct, ref);
    if (!rowId) throw new ValidationError('this version has not been imported yet: import it before its relations');
    await writeRowChildren(ctx, ref.uid, rowId, row, { documentId: ref.documentId, locale: ref.locale }, false);
    for (const [linkTable, targets] of positioned) await setInversePositions(ctx, linkTable, rowId, targets);
    await recordVersions(ctx, store.history, [versionKeyOf(ref)]);
  });
  return { updated: list.length };
}
