// Relation attributes: resolve targets named by documentId (or row id), then apply `set` or
// `connect`/`disconnect` with positions, keeping the stored order. Links point at
// target documents (document_id + locale), so they survive the target's publishing.
import { ValidationError } from '@cms/errors';
import { qualify, quoteIdent, rows, exec } from '@cms/db';
import { COLUMNS, type PhysicalRelation } from '@cms/tables';
import type { RelationAttribute } from '@cms/schema';
import type { Position, RelationWrite, TargetRef } from './write-input.ts';
import type { SourceVersion, WriteContext } from './write-context.ts';

const q = quoteIdent;

/** A document version a link points at (or, on the inverse side, links from). */
export interface LinkedDocument {
  documentId: string;
  locale: string | null;
}

const sameDocument = (a: LinkedDocument, b: LinkedDocument): boolean => a.documentId === b.documentId && a.locale === b.locale;

function notFound(documentId: string, locale: string | null): ValidationError {
  return new ValidationError(`Document with id "${documentId}", locale "${locale ?? 'null'}" not found`);
}

/** Strapi's message for a `before`/`after` naming a document that is not (yet) in the list. */
function notConnected(doc: LinkedDocument, position: Position, anchor: LinkedDocument): ValidationError {
  const at = position.kind === 'before' || position.kind === 'after' ? { [position.kind]: anchor.documentId } : {};
  return new ValidationError(
    `There was a problem connecting relation with id ${doc.documentId} at position ${JSON.stringify(at)}. ` +
      `The relation with id ${anchor.documentId} needs to be connected first.`);
}

/**
 * Resolve refs to existing documents on the other side of `relation` (in any status), in input
 * order. Rows of a referenced target (end users) are key-share locked: a user deleted meanwhile
 * waits for this write, then takes the new links with it, instead of failing its foreign key.
 */
async function resolveRefs(ctx: WriteContext, relation: PhysicalRelation, refs: readonly TargetRef[], source: SourceVersion): Promise<LinkedDocument[]> {
  if (refs.length === 0) return [];
  const localized = relation.targetLocalized;
  const localeOf = (ref: Extract<TargetRef, { kind: 'document' }>): string | null =>
    localized ? ref.locale ?? source.locale ?? ctx.defaultLocale : null;
  const documentIds = refs.flatMap((r) => (r.kind === 'document' ? [r.documentId] : []));
  const ids = refs.flatMap((r) => (r.kind === 'id' ? [r.id] : []));
  // End users have no locale column.
  const locale = localized ? q(COLUMNS.locale) : 'NULL::text';
  const found = await rows<{ id: string; document_id: string; locale: string | null }>(ctx.tx,
    `SELECT ${q(COLUMNS.id)}::text AS id, ${q(COLUMNS.documentId)} AS document_id, ${locale} AS locale FROM ${qualify(ctx.schema, relation.targetTable)} ` +
    `WHERE ${q(COLUMNS.documentId)} = ANY($1::text[]) OR ${q(COLUMNS.id)} = ANY($2::bigint[])${relation.targetReferenced ? ' FOR KEY SHARE' : ''}`,
    [documentIds, ids]);
  return refs.map((ref) => {
    if (ref.kind === 'id') {
      const row = found.find((r) => r.id === ref.id);
      if (!row) throw notFound(ref.id, null);
      return { documentId: row.document_id, locale: localized ? row.locale : null };
    }
    const locale = localeOf(ref);
    if (!found.some((r) => r.document_id === ref.documentId && (locale === null || r.locale === locale))) throw notFound(ref.documentId, locale);
    return { documentId: ref.documentId, locale };
  });
}

/** The new ordered list of linked documents after applying `write` to `current`. */
async function nextLinks(
  ctx: WriteContext, relation: PhysicalRelation, write: RelationWrite, current: LinkedDocument[], source: SourceVersion,
): Promise<LinkedDocument[]> {
  const many = relation.many;
  const dedupe = (list: LinkedDocument[]) => list.filter((d, i) => list.findIndex((x) => sameDocument(x, d)) === i);
  if (write.kind === 'set') {
    const list = dedupe(await resolveRefs(ctx, relation, write.refs, source));
    return many ? list : list.slice(-1);
  }
  const anchors = write.connect.flatMap((c) => (c.position.kind === 'before' || c.position.kind === 'after' ? [c.position.ref] : []));
  // One after the other: the statements share the write's transaction connection, which runs one
  // query at a time (concurrent ones fail, and a failing one must not leave others in flight).
  const connect = await resolveRefs(ctx, relation, write.connect.map((c) => c.ref), source);
  const disconnect = await resolveRefs(ctx, relation, write.disconnect, source);
  const anchorDocs = await resolveRefs(ctx, relation, anchors, source);
  let list = current.filter((d) => !disconnect.some((x) => sameDocument(x, d)));
  if (!many) return connect.length > 0 ? [connect[connect.length - 1]!] : list;
  let anchorIndex = 0;
  write.connect.forEach((item, i) => {
    const doc = connect[i]!;
    const position: Position = item.position;
    const present = list.some((d) => sameDocument(d, doc));
    const anchor = position.kind === 'before' || position.kind === 'after' ? anchorDocs[anchorIndex++]! : null;
    if (present && position.kind === 'end') return;
    list = list.filter((d) => !sameDocument(d, doc));
    if (position.kind === 'start') list.unshift(doc);
    else if (position.kind === 'end') list.push(doc);
    else {
      const at = list.findIndex((d) => sameDocument(d, anchor!));
      if (at < 0) throw notConnected(doc, position, anchor!);
      list.splice(position.kind === 'before' ? at : at + 1, 0, doc);
    }
  });
  return list;
}

/**
 * The inverse order a new link to target `u.d`/`u.loc` takes: after the target's other links. Its
 * locale is compared with `=` or `IS NULL` whenever the list allows (never `IS NOT DISTINCT FROM`):
 * Postgres then reads the max from the (target_document_id, inv_ord) index backwards, one entry,
 * instead of every link of a popular target.
 */
function nextInvOrd(link: string, next: readonly LinkedDocument[]): string {
  const locale = next.every((d) => d.locale === null) ? 'IS NULL' : next.every((d) => d.locale !== null) ? '= u.loc' : 'IS NOT DISTINCT FROM u.loc';
  return `SELECT coalesce(max(x.${q(COLUMNS.invOrd)}), 0) + 1 FROM ${link} x ` +
    `WHERE x.${q(COLUMNS.targetDocumentId)} = u.d AND x.${q(COLUMNS.targetLocale)} ${locale}`;
}

/**
 * Owner side: the links of one source row (a document version or a component row). The list is
 * rewritten in order; kept links keep their inverse order, new ones go last on the other side.
 */
export async function writeOwnerRelation(
  ctx: WriteContext, relation: PhysicalRelation, attr: RelationAttribute, sourceRowId: string, source: SourceVersion, write: RelationWrite,
  fresh: boolean,
): Promise<void> {
  const link = qualify(ctx.schema, relation.linkTable);
  const documents = fresh ? freshDocumentSet(ctx, relation, write, source) : null;
  if (documents) return insertCheckedLinks(ctx, relation, attr, sourceRowId, source, write, documents);
  // A row inserted by this write has no links yet.
  const current = fresh ? [] : await rows<{ document_id: string; locale: string | null; inv_ord: number }>(ctx.tx,
    `SELECT ${q(COLUMNS.targetDocumentId)} AS document_id, ${q(COLUMNS.targetLocale)} AS locale, ${q(COLUMNS.invOrd)} AS inv_ord ` +
    `FROM ${link} WHERE ${q(COLUMNS.sourceId)} = $1 ORDER BY ${q(COLUMNS.ord)}, ${q(COLUMNS.id)}`, [sourceRowId]);
  const currentDocs = current.map((r) => ({ documentId: r.document_id, locale: r.locale }));
  const next = await nextLinks(ctx, relation, write, currentDocs, source);
  if (!fresh) await exec(ctx.tx, `DELETE FROM ${link} WHERE ${q(COLUMNS.sourceId)} = $1`, [sourceRowId]);
  if (next.length === 0) return;
  await releaseExclusiveTargets(ctx, relation, attr, source, next);
  const kept = new Map(current.map((r) => [`${r.document_id}\0${r.locale}`, r.inv_ord]));
  await exec(ctx.tx,
    `INSERT INTO ${link} (${[COLUMNS.sourceId, COLUMNS.targetDocumentId, COLUMNS.targetLocale, COLUMNS.ord, COLUMNS.invOrd].map(q).join(', ')}) ` +
    `SELECT $1, u.d, u.loc, u.o, coalesce(u.inv, (${nextInvOrd(link, next)})) ` +
    `FROM unnest($2::text[], $3::text[], $4::int[]) WITH ORDINALITY AS u(d, loc, inv, o)`,
    [sourceRowId, next.map((d) => d.documentId), next.map((d) => d.locale), next.map((d) => kept.get(`${d.documentId}\0${d.locale}`) ?? null)]);
}

/**
 * The links of a row inserted by this write, when it names its targets by documentId with `set`
 * (the shorthand): known without reading anything, since the targets' existence is checked by the
 * insert itself (`insertCheckedLinks`). Null for the other cases (row ids, end users, connect).
 */
function freshDocumentSet(ctx: WriteContext, relation: PhysicalRelation, write: RelationWrite, source: SourceVersion): LinkedDocument[] | null {
  if (write.kind !== 'set' || relation.targetReferenced || (!relation.many && write.refs.length > 1)) return null;
  const list: LinkedDocument[] = [];
  for (const ref of write.refs) {
    if (ref.kind !== 'document') return null;
    const doc = { documentId: ref.documentId, locale: relation.targetLocalized ? ref.locale ?? source.locale ?? ctx.defaultLocale : null };
    if (!list.some((d) => sameDocument(d, doc))) list.push(doc);
  }
  return list;
}

/** A target of a oneToMany (or bidirectional oneToOne) has one owner: other documents let go of `next`. */
async function releaseExclusiveTargets(
  ctx: WriteContext, relation: PhysicalRelation, attr: RelationAttribute, source: SourceVersion, next: readonly LinkedDocument[],
): Promise<void> {
  if (!exclusiveTargets(attr, relation)) return;
  await exec(ctx.tx,
    `DELETE FROM ${qualify(ctx.schema, relation.linkTable)} l USING ${qualify(ctx.schema, relation.ownerTable)} s, unnest($2::text[], $3::text[]) AS u(d, loc) ` +
    `WHERE l.${q(COLUMNS.sourceId)} = s.${q(COLUMNS.id)} AND s.${q(COLUMNS.documentId)} IS DISTINCT FROM $1 ` +
    `AND l.${q(COLUMNS.targetDocumentId)} = u.d AND l.${q(COLUMNS.targetLocale)} IS NOT DISTINCT FROM u.loc`,
    [source.documentId, next.map((d) => d.documentId), next.map((d) => d.locale)]);
}

/**
 * Does `attr` hold each target for one owner only (other documents' links to it go first)? Not
 * in components: their rows belong to no document of their own (and relations there are
 * unidirectional, so nothing on the target's side says which owner it has).
 */
function exclusiveTargets(attr: RelationAttribute, relation: PhysicalRelation): boolean {
  if (!relation.ownerUid.includes('::')) return false;
  return attr.relation === 'oneToMany' || (attr.relation === 'oneToOne' && Boolean(attr.inversedBy));
}

/**
 * The INSERT … SELECT of a fresh row's links to `next` (`param` binds a value, `sourceId` is the
 * SQL of the row's id, read from `from` when given), only to targets that exist (in any status),
 * RETURNING 1 per link.
 */
function checkedLinksInsert(
  ctx: WriteContext, relation: PhysicalRelation, next: readonly LinkedDocument[], sourceId: string, param: (value: unknown) => string, from = '',
): string {
  const link = qualify(ctx.schema, relation.linkTable);
  const sameLocale = relation.targetLocalized ? ` AND t.${q(COLUMNS.locale)} = u.loc` : '';
  return `INSERT INTO ${link} (${[COLUMNS.sourceId, COLUMNS.targetDocumentId, COLUMNS.targetLocale, COLUMNS.ord, COLUMNS.invOrd].map(q).join(', ')}) ` +
    `SELECT ${sourceId}, u.d, u.loc, u.o, (${nextInvOrd(link, next)}) ` +
    `FROM ${from ? `${from}, ` : ''}unnest(${param(next.map((d) => d.documentId))}::text[], ${param(next.map((d) => d.locale))}::text[]) WITH ORDINALITY AS u(d, loc, o) ` +
    `WHERE EXISTS (SELECT 1 FROM ${qualify(ctx.schema, relation.targetTable)} t WHERE t.${q(COLUMNS.documentId)} = u.d${sameLocale})` +
    // Rows of `from` (one, or a draft and its published version) in id order, each's links in list order.
    `${from ? ` ORDER BY ${sourceId}, u.o` : ''} RETURNING 1`;
}

/** Fewer links inserted than listed: a target is missing; the same error `resolveRefs` gives. */
async function missingTarget(ctx: WriteContext, relation: PhysicalRelation, write: RelationWrite, source: SourceVersion, next: readonly LinkedDocument[], inserted: number): Promise<never> {
  // resolveRefs names the first missing ref in input order (it runs only now, on the failure path).
  if (write.kind === 'set') await resolveRefs(ctx, relation, write.refs, source);
  const missing = next[inserted]!;
  throw notFound(missing.documentId, missing.locale);
}

/**
 * Insert the links of a fresh row to `next`, only to targets that exist (in any status) — one
 * statement where resolving them first took two. A missing target fails the write with the same
 * error `resolveRefs` gives (it runs only then, to name it).
 */
async function insertCheckedLinks(
  ctx: WriteContext, relation: PhysicalRelation, attr: RelationAttribute, sourceRowId: string, source: SourceVersion, write: RelationWrite,
  next: LinkedDocument[],
): Promise<void> {
  if (next.length === 0) return;
  await releaseExclusiveTargets(ctx, relation, attr, source, next);
  const values: unknown[] = [sourceRowId];
  const param = (value: unknown) => `$${values.push(value)}`;
  const inserted = await rows(ctx.tx, checkedLinksInsert(ctx, relation, next, '$1', param), values);
  if (inserted.length !== next.length) await missingTarget(ctx, relation, write, source, next, inserted.length);
}

/** A fresh row's links as an INSERT to run inside the row's own statement (fresh-row.ts). */
export interface BundledLinks {
  /** The INSERT … RETURNING 1, its row's id being `sourceId` of FROM item `from`; null: nothing to insert. */
  insert(from: string, sourceId: string, param: (value: unknown) => string): string | null;
  /** Throws the write's error when fewer links than listed were inserted. */
  check(inserted: number): Promise<void>;
}

/**
 * The owner-side links of a row inserted by this write, when they need no statement before
 * their INSERT (targets named by documentId with `set`, no other owner to let go of a target):
 * else null, and `writeOwnerRelation` writes them.
 */
export function bundledLinks(ctx: WriteContext, relation: PhysicalRelation, attr: RelationAttribute, source: SourceVersion, write: RelationWrite): BundledLinks | null {
  if (exclusiveTargets(attr, relation)) return null;
  const next = freshDocumentSet(ctx, relation, write, source);
  if (next === null) return null;
  return {
    insert: (from, sourceId, param) => (next.length === 0 ? null : checkedLinksInsert(ctx, relation, next, sourceId, param, from)),
    check: async (inserted) => { if (inserted !== next.length) await missingTarget(ctx, relation, write, source, next, inserted); },
  };
}

/**
 * Inverse side (`mappedBy`): the written document is the target; the listed documents of the
 * owner type link to it from their version rows in their locale. A draft write of a draft &
 * publish target touches only the owners' drafts (their published rows follow when the target
 * is published: `syncPublishedInverseLinks`); otherwise every version row of the owners.
 */
export async function writeInverseRelation(
  ctx: WriteContext, relation: PhysicalRelation, target: SourceVersion, write: RelationWrite, targetDraftAndPublish: boolean,
): Promise<void> {
  const link = qualify(ctx.schema, relation.linkTable);
  const owner = qualify(ctx.schema, relation.ownerTable);
  const ownerLink = ctx.physical.linkTables[relation.linkTable]!;
  const draftsOnly = targetDraftAndPublish && ownerIsDraftAndPublish(ctx, relation);
  const ownerRows = draftsOnly ? ` AND s.${q(COLUMNS.publishedAt)} IS NULL` : '';
  const current = await rows<{ document_id: string; locale: string | null }>(ctx.tx,
    `SELECT s.${q(COLUMNS.documentId)} AS document_id, s.${q(COLUMNS.locale)} AS locale FROM ${link} l ` +
    `JOIN ${owner} s ON s.${q(COLUMNS.id)} = l.${q(COLUMNS.sourceId)}${ownerRows} ` +
    `WHERE l.${q(COLUMNS.targetDocumentId)} = $1 AND l.${q(COLUMNS.targetLocale)} IS NOT DISTINCT FROM $2 ` +
    `GROUP BY 1, 2 ORDER BY min(l.${q(COLUMNS.invOrd)}), min(l.${q(COLUMNS.id)})`, [target.documentId, target.locale]);
  const currentDocs = current.map((r) => ({ documentId: r.document_id, locale: r.locale }));
  const next = await nextLinks(ctx, relation, write, currentDocs, target);
  const docs = next.map((d) => d.documentId);
  const locales = next.map((d) => d.locale);
  const linkedHere = `l.${q(COLUMNS.targetDocumentId)} = $1 AND l.${q(COLUMNS.targetLocale)} IS NOT DISTINCT FROM $2`;
  const wanted = `EXISTS (SELECT 1 FROM unnest($3::text[], $4::text[]) AS u(d, loc) WHERE s.${q(COLUMNS.documentId)} = u.d AND s.${q(COLUMNS.locale)} IS NOT DISTINCT FROM u.loc)`;
  await exec(ctx.tx, `DELETE FROM ${link} l USING ${owner} s WHERE l.${q(COLUMNS.sourceId)} = s.${q(COLUMNS.id)}${ownerRows} AND ${linkedHere} AND NOT ${wanted}`,
    [target.documentId, target.locale, docs, locales]);
  if (next.length === 0) return;
  // A to-one owner attribute holds one target: the listed owners let go of their previous one.
  if (ownerLink.toOne) {
    await exec(ctx.tx, `DELETE FROM ${link} l USING ${owner} s WHERE l.${q(COLUMNS.sourceId)} = s.${q(COLUMNS.id)}${ownerRows} AND NOT (${linkedHere}) AND ${wanted}`,
      [target.documentId, target.locale, docs, locales]);
  }
  await exec(ctx.tx,
    `WITH want AS (SELECT * FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS u(d, loc, pos)),
     src AS (SELECT s.${q(COLUMNS.id)} AS id, want.pos FROM ${owner} s JOIN want ON s.${q(COLUMNS.documentId)} = want.d AND s.${q(COLUMNS.locale)} IS NOT DISTINCT FROM want.loc${ownerRows}),
     upd AS (UPDATE ${link} l SET ${q(COLUMNS.invOrd)} = src.pos FROM src WHERE l.${q(COLUMNS.sourceId)} = src.id AND ${linkedHere} RETURNING l.${q(COLUMNS.sourceId)} AS id)
     INSERT INTO ${link} (${[COLUMNS.sourceId, COLUMNS.targetDocumentId, COLUMNS.targetLocale, COLUMNS.ord, COLUMNS.invOrd].map(q).join(', ')})
     SELECT src.id, $1, $2, (SELECT coalesce(max(x.${q(COLUMNS.ord)}), 0) + 1 FROM ${link} x WHERE x.${q(COLUMNS.sourceId)} = src.id), src.pos
     FROM src WHERE src.id NOT IN (SELECT id FROM upd)`,
    [target.documentId, target.locale, docs, locales]);
}

function ownerIsDraftAndPublish(ctx: WriteContext, relation: PhysicalRelation): boolean {
  return ctx.physical.contentTypes[relation.ownerUid]?.draftAndPublish === true;
}

/**
 * Publishing a document publishes its inverse-side relations, as Strapi copies the draft's links:
 * for each `mappedBy` attribute, the published rows of the owners link to it exactly when their
 * drafts do (same order), and let go of another target on a to-one side.
 */
export async function syncPublishedInverseLinks(ctx: WriteContext, uid: string, target: SourceVersion): Promise<void> {
  const table = ctx.physical.contentTypes[uid];
  if (!table) return;
  for (const attr of Object.values(table.attributes)) {
    if (attr.kind !== 'relation' || attr.side !== 'inverse' || !ownerIsDraftAndPublish(ctx, attr)) continue;
    const link = qualify(ctx.schema, attr.linkTable);
    const owner = qualify(ctx.schema, attr.ownerTable);
    const linkedHere = (l: string) => `${l}.${q(COLUMNS.targetDocumentId)} = $1 AND ${l}.${q(COLUMNS.targetLocale)} IS NOT DISTINCT FROM $2`;
    // Published owner rows whose draft links here, with the draft link's position.
    const want = `SELECT p.${q(COLUMNS.id)} AS id, dl.${q(COLUMNS.invOrd)} AS pos FROM ${owner} p ` +
      `JOIN ${owner} d ON d.${q(COLUMNS.documentId)} = p.${q(COLUMNS.documentId)} AND d.${q(COLUMNS.locale)} IS NOT DISTINCT FROM p.${q(COLUMNS.locale)} AND d.${q(COLUMNS.publishedAt)} IS NULL ` +
      `JOIN ${link} dl ON dl.${q(COLUMNS.sourceId)} = d.${q(COLUMNS.id)} AND ${linkedHere('dl')} ` +
      `WHERE p.${q(COLUMNS.publishedAt)} IS NOT NULL`;
    const values = [target.documentId, target.locale];
    await exec(ctx.tx, `DELETE FROM ${link} l USING ${owner} p WHERE l.${q(COLUMNS.sourceId)} = p.${q(COLUMNS.id)} AND p.${q(COLUMNS.publishedAt)} IS NOT NULL ` +
      `AND ${linkedHere('l')} AND p.${q(COLUMNS.id)} NOT IN (SELECT id FROM (${want}) w)`, values);
    if (ctx.physical.linkTables[attr.linkTable]!.toOne) {
      await exec(ctx.tx, `DELETE FROM ${link} l WHERE l.${q(COLUMNS.sourceId)} IN (SELECT id FROM (${want}) w) AND NOT (${linkedHere('l')})`, values);
    }
    await exec(ctx.tx,
      `WITH want AS (${want}),
       upd AS (UPDATE ${link} l SET ${q(COLUMNS.invOrd)} = want.pos FROM want WHERE l.${q(COLUMNS.sourceId)} = want.id AND ${linkedHere('l')} RETURNING l.${q(COLUMNS.sourceId)} AS id)
       INSERT INTO ${link} (${[COLUMNS.sourceId, COLUMNS.targetDocumentId, COLUMNS.targetLocale, COLUMNS.ord, COLUMNS.invOrd].map(q).join(', ')})
       SELECT want.id, $1, $2, (SELECT coalesce(max(x.${q(COLUMNS.ord)}), 0) + 1 FROM ${link} x WHERE x.${q(COLUMNS.sourceId)} = want.id), want.pos
       FROM want WHERE want.id NOT IN (SELECT id FROM upd)`, values);
  }
}

/** Links of other documents pointing at deleted document versions go with them. */
export async function deleteLinksTo(ctx: WriteContext, uid: string, documentId: string, locale: string | null | '*'): Promise<void> {
  for (const link of Object.values(ctx.physical.linkTables)) {
    if (link.kind !== 'relation' || link.target !== uid) continue;
    const values: unknown[] = [documentId];
    let where = `${q(COLUMNS.targetDocumentId)} = $1`;
    if (locale !== '*') {
      values.push(locale);
      where += ` AND ${q(COLUMNS.targetLocale)} IS NOT DISTINCT FROM $2`;
    }
    await exec(ctx.tx, `DELETE FROM ${qualify(ctx.schema, link.name)} WHERE ${where}`, values);
  }
}
