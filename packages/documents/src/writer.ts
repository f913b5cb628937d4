// The document service's writes: create, update (incl. new locale versions and single types) and
// delete, each in one transaction. Draft & publish: writes go to the draft row; publishing
// replaces the published row with a deep copy of the draft. Bodies are validated
// by `parseDocumentData` before any statement runs, the merged document again before publishing.
import { ForbiddenError, NotFoundError, ValidationError } from '@cms/errors';
import { column, compiledQuery, exec, qualify, quoteIdent, rows, runCarried, sqlState, withGenericPlans, type CarriedStatement, type CompiledSql, type Db } from '@cms/db';
import { newDocumentId } from './document-id.ts';
import { COLUMNS, copyAttributeChildren, copyVersionRows, deleteVersionRows, type PhysicalContentType, type PhysicalModel } from '@cms/tables';
import type { ContentType, Model } from '@cms/schema';
import { applyLocalizedDefaults, parseDocumentData } from './parse-data.ts';
import { deleteLinksTo, syncPublishedInverseLinks } from './relation-writes.ts';
import { rowJsonQuery } from './row-json.ts';
import { scalarAssignments, writeRowChildren } from './row-writes.ts';
import { assertUnique, uniqueViolation } from './unique.ts';
import { insertRowWithChildren, rowBundle, type RowBundle } from './fresh-row.ts';
import type { RowWrite } from './write-input.ts';
import type { WriteContext } from './write-context.ts';
import { recordVersions, versionStatements, type VersionKey, type WriteOrigin } from './history.ts';
import { validateForPublish } from './publish-check.ts';

const q = quoteIdent;

export interface TransactionalDb {
  transaction<T>(handler: (tx: Db) => Promise<T>): Promise<T>;
}

/** One project's documents at one model version. */
export interface DocumentStore {
  pool: TransactionalDb;
  schema: string;
  model: Model;
  physical: PhysicalModel;
  defaultLocale: string;
  hashPassword(plain: string): Promise<string>;
  /**
   * Runs in the transaction of every write that creates a document (not a new locale or version
   * of one), just before its last statement; throwing refuses the write. The plan's document
   * limit (@cms/billing).
   */
  admitDocument?(tx: Db): Promise<void>;
  /**
   * Runs in the transaction of every write with the events it is (Strapi's webhook events: a
   * publishing write on a draft & publish type is `entry.create`/`entry.update` and
   * `entry.publish`, given together so they are recorded together), after the change (before it
   * for `entry.delete`); `status`/`locale` name the version each is about. Webhooks' outbox.
   * Answers the statements that record them (the live log's, the audit log's), which the writer
   * runs with the change's history versions and its answer's read in one statement (@cms/db
   * carried.ts): they cost no round trip of their own. `committing`: that statement is the last of
   * the write's own transaction, committed with it (nothing can fail after it but the commit).
   */
  emit?(tx: Db, events: readonly DocumentEvent[], committing?: boolean): Promise<CarriedStatement[]>;
  /** Where the write comes from, recorded on the content-history versions it makes (history.ts); null: history off. */
  history: WriteOrigin | null;
}

export interface DocumentEvent {
  event: 'entry.create' | 'entry.update' | 'entry.delete' | 'entry.publish' | 'entry.unpublish';
  uid: string;
  documentId: string;
  /** null: not localized, or every locale (a delete of `*`). */
  locale: string | null;
  status: 'draft' | 'published';
  /** The attributes the write's body named (a create or an update; the audit log's summary). */
  fields?: readonly string[];
}

/** The type's attributes a write body names (never their values). */
function fieldsOf(type: ContentType, data: unknown): string[] {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return [];
  return Object.keys(data).filter((key) => Object.hasOwn(type.attributes, key)).slice(0, 100);
}

/**
 * The end of a change: the statements recording its events (none: it emits nothing) and its
 * history versions (`keys`), and the read of its answer (`answer`: the written version as the
 * caller returns it), in ONE statement. Answers the answer's JSON (null: not found), or undefined
 * without `answer`.
 */
async function finishChange(ctx: WriteContext, store: VersionStore, events: readonly DocumentEvent[], keys: readonly VersionKey[], answer?: CompiledSql): Promise<string | null | undefined> {
  const recorded = store.emit && events.length > 0 ? await store.emit(ctx.tx, events, ctx.ownTransaction === true) : [];
  const json = await runCarried(ctx.tx, [...recorded, ...versionStatements(ctx, store.history, keys)], answer, ctx.ownTransaction);
  return answer ? (json === null ? null : String(json)) : undefined;
}

/** The write's events: `main`, and `entry.publish` when it publishes a draft & publish type. */
function writeEvents(ref: TypeRef, main: 'entry.create' | 'entry.update', documentId: string, data: unknown): DocumentEvent[] {
  const status = ref.publishing ? 'published' : 'draft';
  const written: DocumentEvent = { event: main, uid: ref.type.uid, documentId, locale: ref.locale, status, fields: fieldsOf(ref.type, data) };
  return ref.ct.draftAndPublish && ref.publishing
    ? [written, { event: 'entry.publish', uid: ref.type.uid, documentId, locale: ref.locale, status }]
    : [written];
}

export interface WriteRequest {
  uid: string;
  /** `body.data` as received */
  data: unknown;
  /** The version's locale on localized types (an enabled locale); ignored on others. */
  locale: string;
  status: 'draft' | 'published';
  /** Relation attributes whose target the caller may not `find` are dropped from the body. */
  canFind(uid: string): boolean;
  /**
   * The read of the written version as the caller answers it (a SELECT of one JSON column), run
   * in the write's last statement: `WriteResult.answer`, without a round trip of its own.
   */
  answer?(written: WriteResult): CompiledSql;
}

export interface UpdateRequest extends WriteRequest {
  /** null: the single type's document (created when there is none). */
  documentId: string | null;
  /** May this caller create a missing locale version (spec §4.2 rule 4)? */
  canCreateLocalization: boolean;
}

/** Which version to read back for the response. */
export interface WriteResult {
  documentId: string;
  locale: string | null;
  status: 'draft' | 'published';
  /** The request's `answer` read in the write's transaction: its JSON, null when not found; absent without `answer`. */
  answer?: string | null;
}

interface TypeRef {
  type: ContentType;
  ct: PhysicalContentType;
  /** Does this write publish? Always on types without draft & publish. */
  publishing: boolean;
  locale: string | null;
}

function typeRef(store: Pick<DocumentStore, 'model' | 'physical'>, req: Pick<WriteRequest, 'uid' | 'locale' | 'status'>): TypeRef {
  const type = store.model.contentTypes[req.uid];
  const ct = store.physical.contentTypes[req.uid];
  if (!type || !ct) throw new NotFoundError();
  return { type, ct, publishing: req.status === 'published' || !ct.draftAndPublish, locale: ct.localized ? req.locale : null };
}

/** The context of a write running in `tx`: the store's transaction, or a caller's (a release publishing many documents). */
export function writeContext(store: Pick<DocumentStore, 'schema' | 'model' | 'physical' | 'defaultLocale'>, tx: Db): WriteContext {
  return { tx, schema: store.schema, model: store.model, physical: store.physical, defaultLocale: store.defaultLocale };
}

async function inTransaction<T>(store: DocumentStore, ct: PhysicalContentType, fn: (ctx: WriteContext) => Promise<T>): Promise<T> {
  // Every statement of a write looks its rows up by key: generic plans, never planned again.
  const run = () => withGenericPlans(() => store.pool.transaction((tx) => fn({ ...writeContext(store, tx), ownTransaction: true })));
  try {
    try {
      return await run();
    } catch (error) {
      // A linked end user deleted by another transaction meanwhile (publishing copies the draft's
      // links): this one rolled back; run it again on what is there now.
      if (sqlState(error) !== '23503') throw error;
      return await run();
    }
  } catch (error) {
    const unique = sqlState(error) === '23505' ? uniqueViolation(ct, error) : null;
    throw unique ?? error;
  }
}

/** Serialises writes to one document (or to a single type, whose document may not exist yet). */
async function lockDocument(ctx: WriteContext, ct: PhysicalContentType, documentId: string | null): Promise<void> {
  await exec(ctx.tx, 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${ctx.schema}.${ct.table}:${documentId ?? ''}`]);
}

/** The document of a single type, if it has one. */
async function singleDocumentId(ctx: WriteContext, ct: PhysicalContentType): Promise<string | undefined> {
  const [documentId] = await column(ctx.tx, `SELECT ${q(COLUMNS.documentId)} FROM ${qualify(ctx.schema, ct.table)} ORDER BY ${q(COLUMNS.id)} LIMIT 1`);
  return documentId;
}

/** Password attributes (at any depth) are stored hashed. */
async function hashPasswords(store: DocumentStore, uid: string, row: RowWrite): Promise<void> {
  const owner = store.model.contentTypes[uid] ?? store.model.components[uid]!;
  for (const [name, value] of row.scalars) {
    const attr = owner.attributes[name];
    if (attr?.kind === 'scalar' && attr.type === 'password' && value !== null) row.scalars.set(name, await store.hashPassword(value));
  }
  for (const items of [...row.components.values(), ...row.dynamicZones.values()]) {
    for (const item of items) await hashPasswords(store, item.component, item.row);
  }
}

/**
 * A new version row with its attributes' rows (its direct children in the same statement) and,
 * `withPublished` (the bundle being complete), its published version too. Returns the new row
 * ids: the draft's first.
 */
async function insertVersion(ctx: WriteContext, ref: TypeRef, documentId: string, row: RowWrite, bundle: RowBundle, withPublished: boolean): Promise<string[]> {
  const values: unknown[] = [];
  const { columns, expressions } = scalarAssignments(ref.ct, row, values);
  values.push(documentId, ref.locale);
  const n = values.length;
  const cols = [...columns, q(COLUMNS.documentId), q(COLUMNS.locale), q(COLUMNS.publishedAt)];
  const tuple = (publishedAt: string) => `(${[...expressions, `$${n - 1}`, `$${n}`, publishedAt].join(', ')})`;
  const tuples = withPublished ? [tuple('NULL'), tuple('now()')] : [tuple(ref.ct.draftAndPublish ? 'NULL' : 'now()')];
  const text = `INSERT INTO ${qualify(ctx.schema, ref.ct.table)} (${cols.join(', ')}) VALUES ${tuples.join(', ')}`;
  return insertRowWithChildren(ctx, ref.type.uid, { text, values, rows: withPublished ? 2 : 1 }, row, { documentId, locale: ref.locale }, bundle);
}

/** Does publishing `row` check a `unique` attribute (whose clash the published row's index would report first)? */
function checksUniqueOnPublish(ct: PhysicalContentType, row: RowWrite): boolean {
  return ct.scalars.some((s) => s.type !== 'uid' && s.uniqueIndex !== null && row.scalars.get(s.name) != null);
}

/**
 * Validate the stored draft as a whole, check uniqueness, and replace the published row with a
 * copy of it. A draft just created from a body validated for publishing skips the re-validation;
 * `inserted`: its published row was inserted with it (`insertVersion`), nothing is copied.
 */
async function publishDraft(ctx: WriteContext, ref: TypeRef, documentId: string, draftId: string, created: RowWrite | null, inserted = false): Promise<void> {
  if (created) {
    await assertUnique(ctx, ref.ct, { documentId, locale: ref.locale }, { values: created.scalars });
    if (!inserted) await copyVersionRows(ctx.tx, ctx.schema, ctx.physical, ref.type.uid, { ids: [draftId], publishedAt: 'now' });
    await syncPublishedInverseLinks(ctx, ref.type.uid, { documentId, locale: ref.locale });
    return;
  }
  const json = await ctx.tx.oneFirst(compiledQuery({ text: rowJsonQuery(ctx.model, ctx.physical, ctx.schema, ref.type.uid), values: [draftId] }));
  const merged = JSON.parse(String(json)) as Record<string, unknown>;
  validateForPublish(ctx.model, ref.type.uid, merged);
  await assertUnique(ctx, ref.ct, { documentId, locale: ref.locale }, { rowId: draftId, display: merged });
  const published = await column(ctx.tx,
    `SELECT ${q(COLUMNS.id)}::text FROM ${qualify(ctx.schema, ref.ct.table)} WHERE ${q(COLUMNS.documentId)} = $1 ` +
    `AND ${q(COLUMNS.locale)} IS NOT DISTINCT FROM $2 AND ${q(COLUMNS.publishedAt)} IS NOT NULL`, [documentId, ref.locale]);
  await deleteVersionRows(ctx.tx, ctx.schema, ctx.physical, ref.type.uid, published);
  await copyVersionRows(ctx.tx, ctx.schema, ctx.physical, ref.type.uid, { ids: [draftId], publishedAt: 'now' });
  await syncPublishedInverseLinks(ctx, ref.type.uid, { documentId, locale: ref.locale });
}

async function createIn(ctx: WriteContext, store: DocumentStore, ref: TypeRef, req: WriteRequest, reuse?: string): Promise<WriteResult> {
  const row = parseDocumentData(req.data, { model: store.model, uid: req.uid, mode: 'create', publishing: ref.publishing, canFind: req.canFind });
  await hashPasswords(store, req.uid, row);
  const documentId = reuse === undefined ? newDocumentId() : await claimDocumentId(ctx, ref.ct, reuse);
  // Published at once (no D&P): every rule; a draft: uids (publishing checks the rest).
  await assertUnique(ctx, ref.ct, { documentId, locale: ref.locale }, { values: row.scalars }, !ref.ct.draftAndPublish);
  const bundle = rowBundle(ctx, req.uid, row, { documentId, locale: ref.locale });
  // Published at once: the published row comes with the draft when nothing is written between.
  const publish = ref.ct.draftAndPublish && ref.publishing;
  const withPublished = publish && bundle.complete && !checksUniqueOnPublish(ref.ct, row);
  const [id] = await insertVersion(ctx, ref, documentId, row, bundle, withPublished);
  if (publish) await publishDraft(ctx, ref, documentId, id!, row, withPublished);
  // Just before the last statement: the document limit's check holds a per-project lock until the commit.
  await store.admitDocument?.(ctx.tx);
  const written: WriteResult = { documentId, locale: ref.locale, status: ref.publishing ? 'published' : 'draft' };
  written.answer = await finishChange(ctx, store, writeEvents(ref, 'entry.create', documentId, req.data),
    [{ uid: req.uid, documentId, locale: ref.locale, draft: !ref.publishing, status: written.status }], req.answer?.(written));
  return written;
}

/**
 * A document of its own `documentId`, unless `documentId` names one to bring back (a restore of
 * a deleted document, history-restore.ts: the only caller that passes it).
 */
export async function createDocument(store: DocumentStore, req: WriteRequest, documentId?: string): Promise<WriteResult> {
  const ref = typeRef(store, req);
  return inTransaction(store, ref.ct, (ctx) => createIn(ctx, store, ref, req, documentId));
}

/** A documentId given back to a new document: well-formed and used by no document of the type (checked under its lock). */
async function claimDocumentId(ctx: WriteContext, ct: PhysicalContentType, documentId: string): Promise<string> {
  if (documentId.length === 0 || documentId.length > 64 || !/^[A-Za-z0-9_-]+$/.test(documentId)) throw new ValidationError('Invalid documentId');
  await lockDocument(ctx, ct, documentId);
  const taken = await column(ctx.tx, `SELECT 1 FROM ${qualify(ctx.schema, ct.table)} WHERE ${q(COLUMNS.documentId)} = $1 LIMIT 1`, [documentId]);
  if (taken.length > 0) throw new ValidationError(`A document with documentId "${documentId}" already exists`);
  return documentId;
}

/** Non-localized attributes written on one locale version are copied to the document's other locales. */
async function syncNonLocalized(ctx: WriteContext, ref: TypeRef, documentId: string, fromRowId: string, row: RowWrite): Promise<boolean> {
  if (!ref.ct.localized) return false;
  const columns = ref.ct.scalars.filter((s) => row.scalars.has(s.name) && !ref.type.attributes[s.name]!.localized).map((s) => q(s.column));
  if (columns.length === 0) return false;
  const table = qualify(ctx.schema, ref.ct.table);
  // A draft write reaches the other drafts; a publishing write also their published rows.
  const scope = ref.publishing ? '' : ` AND t.${q(COLUMNS.publishedAt)} IS NULL`;
  await exec(ctx.tx,
    `UPDATE ${table} t SET ${columns.map((c) => `${c} = s.${c}`).join(', ')} FROM ${table} s ` +
    `WHERE s.${q(COLUMNS.id)} = $1 AND t.${q(COLUMNS.documentId)} = $2 AND t.${q(COLUMNS.locale)} <> $3${scope}`,
    [fromRowId, documentId, ref.locale]);
  return true;
}

/**
 * A new locale version starts as a copy of the document's non-localized attributes — scalars,
 * components, dynamic zones and media — taken from its version in the default
 * locale when there is one.
 */
async function insertLocaleVersion(ctx: WriteContext, ref: TypeRef, documentId: string): Promise<string> {
  const shared = (name: string) => !ref.type.attributes[name]!.localized;
  const columns = ref.ct.scalars.filter((s) => shared(s.name)).map((s) => q(s.column));
  const table = qualify(ctx.schema, ref.ct.table);
  const [pair] = await column(ctx.tx,
    `WITH src AS (SELECT * FROM ${table} WHERE ${q(COLUMNS.documentId)} = $1 ` +
    `ORDER BY (${q(COLUMNS.locale)} = $3) DESC, (${q(COLUMNS.publishedAt)} IS NULL) DESC, ${q(COLUMNS.id)} LIMIT 1) ` +
    `INSERT INTO ${table} (${[q(COLUMNS.documentId), q(COLUMNS.locale), q(COLUMNS.publishedAt), ...columns].join(', ')}) ` +
    `SELECT ${q(COLUMNS.documentId)}, $2, ${ref.ct.draftAndPublish ? 'NULL' : 'now()'}${columns.map((c) => `, ${c}`).join('')} FROM src ` +
    `RETURNING ${q(COLUMNS.id)}::text || ':' || (SELECT ${q(COLUMNS.id)} FROM src)::text`, [documentId, ref.locale, ctx.defaultLocale]);
  const [id, fromId] = pair!.split(':') as [string, string];
  const children = Object.values(ref.type.attributes)
    .filter((a) => (a.kind === 'component' || a.kind === 'dynamiczone' || a.kind === 'media') && shared(a.name)).map((a) => a.name);
  await copyAttributeChildren(ctx.tx, ctx.schema, ctx.physical, ref.type.uid, fromId, id, children);
  return id;
}

interface VersionRow {
  id: string;
  locale: string | null;
  draft: boolean;
}

export async function updateDocument(store: DocumentStore, req: UpdateRequest): Promise<WriteResult> {
  const ref = typeRef(store, req);
  const table = qualify(store.schema, ref.ct.table);
  return inTransaction(store, ref.ct, async (ctx) => {
    await lockDocument(ctx, ref.ct, req.documentId);
    let documentId = req.documentId;
    if (documentId === null) {
      const existing = await singleDocumentId(ctx, ref.ct);
      // PUT on a single type creates its document.
      if (existing === undefined) return createIn(ctx, store, ref, req);
      documentId = existing;
    }
    const versions = await rows<VersionRow>(ctx.tx,
      `SELECT ${q(COLUMNS.id)}::text AS id, ${q(COLUMNS.locale)} AS locale, ${q(COLUMNS.publishedAt)} IS NULL AS draft FROM ${table} ` +
      `WHERE ${q(COLUMNS.documentId)} = $1 ORDER BY ${q(COLUMNS.id)}`, [documentId]);
    if (versions.length === 0) throw new NotFoundError();
    const inLocale = versions.filter((v) => !ref.ct.localized || v.locale === ref.locale);
    let rowId: string;
    if (inLocale.length === 0) {
      if (!req.canCreateLocalization) throw new ForbiddenError();
      rowId = await insertLocaleVersion(ctx, ref, documentId);
    } else if (ref.ct.draftAndPublish) {
      const draft = inLocale.find((v) => v.draft);
      rowId = draft ? draft.id : (await copyVersionRows(ctx.tx, ctx.schema, ctx.physical, req.uid, { ids: [inLocale[0]!.id], publishedAt: null }))[0]!.newId.toString();
    } else {
      rowId = inLocale[0]!.id;
    }
    const parseOptions = { model: store.model, uid: req.uid, mode: 'update' as const, publishing: ref.publishing, canFind: req.canFind };
    const row = parseDocumentData(req.data, parseOptions);
    if (inLocale.length === 0) applyLocalizedDefaults(row, parseOptions);
    await hashPasswords(store, req.uid, row);
    await assertUnique(ctx, ref.ct, { documentId, locale: ref.locale }, { values: row.scalars }, !ref.ct.draftAndPublish);
    const values: unknown[] = [];
    const { columns, expressions } = scalarAssignments(ref.ct, row, values);
    values.push(rowId);
    const sets = [`${q(COLUMNS.updatedAt)} = now()`, ...columns.map((c, i) => `${c} = ${expressions[i]}`)];
    await exec(ctx.tx, `UPDATE ${table} SET ${sets.join(', ')} WHERE ${q(COLUMNS.id)} = $${values.length}`, values);
    await writeRowChildren(ctx, req.uid, rowId, row, { documentId, locale: ref.locale }, false);
    const synced = await syncNonLocalized(ctx, ref, documentId, rowId, row);
    if (ref.ct.draftAndPublish && ref.publishing) await publishDraft(ctx, ref, documentId, rowId, null);
    // This locale's version, and those of the other locales whose shared attributes it changed.
    // A draft write after a publish leaves the draft newer than the published version: modified.
    const status = ref.publishing ? 'published' : inLocale.some((v) => !v.draft) ? 'modified' : 'draft';
    const keys: VersionKey[] = [{ uid: req.uid, documentId, locale: ref.locale, draft: !ref.publishing, status }];
    if (synced) {
      // One version per other locale: its draft for a draft write; its published version for a publishing one, if it has one.
      for (const locale of new Set(versions.map((v) => v.locale).filter((l) => l !== ref.locale))) {
        const published = ref.publishing && versions.some((v) => v.locale === locale && !v.draft);
        keys.push({ uid: req.uid, documentId, locale, draft: !published });
      }
    }
    const written: WriteResult = { documentId, locale: ref.locale, status: ref.publishing ? 'published' : 'draft' };
    written.answer = await finishChange(ctx, store, writeEvents(ref, 'entry.update', documentId, req.data), keys, req.answer?.(written));
    return written;
  });
}

export interface DeleteRequest {
  uid: string;
  /** null: the single type's document */
  documentId: string | null;
  /** A locale, or `*` for every locale version; ignored on non-localized types. */
  locale: string;
}

/**
 * Delete a document's versions in one locale (or all); unknown documents are not an error (204).
 * Returns the documentId of the versions deleted, null when there were none.
 */
export async function deleteDocument(store: DocumentStore, req: DeleteRequest): Promise<string | null> {
  const ref = typeRef(store, { uid: req.uid, locale: req.locale, status: 'draft' });
  const table = qualify(store.schema, ref.ct.table);
  return inTransaction(store, ref.ct, async (ctx) => {
    await lockDocument(ctx, ref.ct, req.documentId);
    const documentId = req.documentId ?? (await singleDocumentId(ctx, ref.ct));
    if (documentId === undefined) return null;
    const everyLocale = !ref.ct.localized || req.locale === '*';
    const ids = await column(ctx.tx,
      `SELECT ${q(COLUMNS.id)}::text FROM ${table} WHERE ${q(COLUMNS.documentId)} = $1${everyLocale ? '' : ` AND ${q(COLUMNS.locale)} = $2`}`,
      everyLocale ? [documentId] : [documentId, req.locale]);
    if (ids.length === 0) return null;
    if (store.emit) {
      // The entry as it was: its published version when it has one.
      const published = !ref.ct.draftAndPublish || (await column(ctx.tx,
        `SELECT 1 FROM ${table} WHERE ${q(COLUMNS.id)} = ANY($1::bigint[]) AND ${q(COLUMNS.publishedAt)} IS NOT NULL LIMIT 1`, [ids])).length > 0;
      const locale = !ref.ct.localized ? null : everyLocale ? store.defaultLocale : req.locale;
      await runCarried(ctx.tx, await store.emit(ctx.tx, [{ event: 'entry.delete', uid: req.uid, documentId, locale, status: published ? 'published' : 'draft' }]));
    }
    await deleteVersionRows(ctx.tx, ctx.schema, ctx.physical, req.uid, ids);
    await deleteLinksTo(ctx, req.uid, documentId, everyLocale ? '*' : req.locale);
    return documentId;
  });
}

/** One document's versions in one locale (or `*`: all); the locale is ignored on non-localized types. */
export interface VersionsRequest {
  uid: string;
  documentId: string;
  locale: string;
}

/** The document's versions in the request's scope, for unpublish and discard (D&P types only). */
async function scopedVersions(ctx: WriteContext, ref: TypeRef, req: VersionsRequest): Promise<VersionRow[]> {
  if (!ref.ct.draftAndPublish) throw new ValidationError('This content type has no draft & publish');
  const everyLocale = !ref.ct.localized || req.locale === '*';
  const versions = await rows<VersionRow>(ctx.tx,
    `SELECT ${q(COLUMNS.id)}::text AS id, ${q(COLUMNS.locale)} AS locale, ${q(COLUMNS.publishedAt)} IS NULL AS draft ` +
    `FROM ${qualify(ctx.schema, ref.ct.table)} WHERE ${q(COLUMNS.documentId)} = $1${everyLocale ? '' : ` AND ${q(COLUMNS.locale)} = $2`}`,
    everyLocale ? [req.documentId] : [req.documentId, req.locale]);
  if (versions.length === 0) throw new NotFoundError();
  return versions;
}

/** What a publish or unpublish inside a caller's transaction needs of the store. */
export type VersionStore = Pick<DocumentStore, 'model' | 'physical' | 'emit' | 'history'>;

/** A unique index's violation (a race `assertUnique` could not see) as the 400 naming the attribute. */
function withUniqueError(ct: PhysicalContentType, error: unknown): unknown {
  return (sqlState(error) === '23505' ? uniqueViolation(ct, error) : null) ?? error;
}

/**
 * Publish one document-locale's draft as it is (Strapi's document service `publish`), inside the
 * caller's transaction `ctx`: validated as a whole, then copied over the published version;
 * writes `entry.publish` and the published version's history. One locale, not `*`.
 */
export async function publishIn(ctx: WriteContext, store: VersionStore, req: VersionsRequest): Promise<void> {
  const ref = typeRef(store, { uid: req.uid, locale: req.locale, status: 'published' });
  if (!ref.ct.draftAndPublish) throw new ValidationError('This content type has no draft & publish');
  try {
    await lockDocument(ctx, ref.ct, req.documentId);
    const [draftId] = await column(ctx.tx,
      `SELECT ${q(COLUMNS.id)}::text FROM ${qualify(ctx.schema, ref.ct.table)} WHERE ${q(COLUMNS.documentId)} = $1 ` +
      `AND ${q(COLUMNS.locale)} IS NOT DISTINCT FROM $2 AND ${q(COLUMNS.publishedAt)} IS NULL`, [req.documentId, ref.locale]);
    if (draftId === undefined) throw new NotFoundError('Document not found');
    await publishDraft(ctx, ref, req.documentId, draftId, null);
    await finishChange(ctx, store, [{ event: 'entry.publish', uid: req.uid, documentId: req.documentId, locale: ref.locale, status: 'published' }],
      [{ uid: req.uid, documentId: req.documentId, locale: ref.locale, draft: false, status: 'published' }]);
  } catch (error) {
    throw withUniqueError(ref.ct, error);
  }
}

/** `publishIn` in a transaction of its own. */
export async function publishDocument(store: DocumentStore, req: VersionsRequest): Promise<void> {
  const ref = typeRef(store, { uid: req.uid, locale: req.locale, status: 'published' });
  await inTransaction(store, ref.ct, (ctx) => publishIn(ctx, store, req));
}

/**
 * Unpublish (Strapi's document service `unpublish`) inside the caller's transaction: the published
 * versions go, the drafts stay (a published version without a draft first leaves one behind, so
 * no content is lost).
 */
export async function unpublishIn(ctx: WriteContext, store: VersionStore, req: VersionsRequest): Promise<void> {
  const ref = typeRef(store, { uid: req.uid, locale: req.locale, status: 'draft' });
  await lockDocument(ctx, ref.ct, req.documentId);
  const versions = await scopedVersions(ctx, ref, req);
  const published = versions.filter((v) => !v.draft);
  const withoutDraft = published.filter((p) => !versions.some((v) => v.draft && v.locale === p.locale));
  if (withoutDraft.length) await copyVersionRows(ctx.tx, ctx.schema, ctx.physical, req.uid, { ids: withoutDraft.map((v) => v.id), publishedAt: null });
  await deleteVersionRows(ctx.tx, ctx.schema, ctx.physical, req.uid, published.map((v) => v.id));
  await finishChange(ctx, store, published.length === 0 ? [] : [{
    event: 'entry.unpublish', uid: req.uid, documentId: req.documentId, status: 'draft',
    locale: !ref.ct.localized ? null : req.locale === '*' ? published[0]!.locale : req.locale,
  }], published.map((p) => ({ uid: req.uid, documentId: req.documentId, locale: p.locale, draft: true, status: 'draft' as const })));
}

/** `unpublishIn` in a transaction of its own. */
export async function unpublishDocument(store: DocumentStore, req: VersionsRequest): Promise<void> {
  const ref = typeRef(store, { uid: req.uid, locale: req.locale, status: 'draft' });
  await inTransaction(store, ref.ct, (ctx) => unpublishIn(ctx, store, req));
}

/**
 * Discard the draft (Strapi's `discardDraft`): each draft in scope is replaced by a copy of its
 * locale's published version. Refused when no version in scope was ever published.
 */
export async function discardDraft(store: DocumentStore, req: VersionsRequest): Promise<void> {
  const ref = typeRef(store, { uid: req.uid, locale: req.locale, status: 'draft' });
  await inTransaction(store, ref.ct, async (ctx) => {
    await lockDocument(ctx, ref.ct, req.documentId);
    const versions = await scopedVersions(ctx, ref, req);
    const published = versions.filter((v) => !v.draft);
    if (published.length === 0) throw new ValidationError('This document has no published version to go back to');
    const drafts = versions.filter((v) => v.draft && published.some((p) => p.locale === v.locale));
    await deleteVersionRows(ctx.tx, ctx.schema, ctx.physical, req.uid, drafts.map((v) => v.id));
    await copyVersionRows(ctx.tx, ctx.schema, ctx.physical, req.uid, { ids: published.map((v) => v.id), publishedAt: null });
    await recordVersions(ctx, store.history, published.map((p) => ({ uid: req.uid, documentId: req.documentId, locale: p.locale, draft: true, status: 'published' as const })));
  });
}
