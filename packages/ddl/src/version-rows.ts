// Deep copy and deep delete of document version rows: a row of a content type together with its
// component rows (recursively) and its owner-side relation and media link rows. Used when draft &
// publish is switched on (every published row gets a draft copy) and by publishing (a draft row is
// copied into a new published row). Link rows of deleted rows go by ON DELETE CASCADE; component
// rows are found through (owner_type, owner_id) and deleted explicitly.
import { qualify, quoteIdent, type Db } from '@cms/db';
import { COLUMNS } from './physical-names.ts';
import { physicalTable, type ComponentRef, type PhysicalModel } from './physical-model.ts';
import { column, exec } from '@cms/db';

const q = quoteIdent;
type Id = number | string | bigint;

/** Which component tables may hold the direct children of a table's rows. */
export interface ComponentTree {
  children(ownerUid: string): ComponentRef[];
}

export function componentTreeOf(physical: PhysicalModel): ComponentTree {
  return { children: (uid) => physicalTable(physical, uid)?.childComponents ?? [] };
}

export interface IdPair {
  oldId: number;
  newId: number;
}

export interface CopyVersionRowsOptions {
  /** Rows to copy: these ids, and/or only draft or published rows (neither: every row). */
  ids?: readonly Id[];
  status?: 'draft' | 'published';
  /** published_at of the copies: NULL (a draft), the transaction time, or a timestamp. */
  publishedAt: null | 'now' | string;
}

/**
 * Copy version rows of content type `uid` into new rows (same document_id, locale, created_at,
 * updated_at, attributes), deep-copying component rows and owner-side link rows. Returns the
 * old → new row ids, in old id order.
 */
export async function copyVersionRows(
  db: Db, schema: string, physical: PhysicalModel, uid: string, options: CopyVersionRowsOptions,
): Promise<IdPair[]> {
  const ct = physical.contentTypes[uid];
  if (!ct) throw new Error(`unknown content type ${uid}`);
  const table = qualify(schema, ct.table);
  const values: unknown[] = [table];
  const where: string[] = [];
  if (options.ids) {
    values.push(options.ids.map(String));
    where.push(`${q(COLUMNS.id)} = ANY($${values.length}::bigint[])`);
  }
  if (options.status) where.push(`${q(COLUMNS.publishedAt)} IS ${options.status === 'draft' ? '' : 'NOT '}NULL`);
  let publishedAt = 'NULL';
  if (options.publishedAt === 'now') publishedAt = 'now()';
  else if (options.publishedAt !== null) {
    values.push(options.publishedAt);
    publishedAt = `$${values.length}::timestamptz`;
  }
  const system = [COLUMNS.documentId, COLUMNS.locale, COLUMNS.createdAt, COLUMNS.updatedAt, COLUMNS.createdBy, COLUMNS.updatedBy];
  const copied = [...system, ...ct.scalars.map((s) => s.column)];
  const pairs = await copyRows(db, values, {
    table,
    select: `SELECT ${q(COLUMNS.id)} AS old_id, nextval(pg_get_serial_sequence($1, 'id')) AS new_id FROM ${table}` +
      `${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${q(COLUMNS.id)}`,
    columns: [COLUMNS.publishedAt, ...copied].map(q),
    expressions: [publishedAt, ...copied.map((c) => `t.${q(c)}`)],
  });
  if (pairs.old.length > 0) await copyDependents(db, schema, physical, componentTreeOf(physical), uid, pairs);
  return pairs.old.map((o, i) => ({ oldId: Number(o), newId: Number(pairs.new[i]) }));
}

interface Pairs {
  old: string[];
  new: string[];
}

/**
 * INSERT copies of the rows chosen by `select` (which yields old_id, new_id[, extra columns])
 * with explicit new ids drawn from the table's identity sequence, so old and new ids pair up.
 */
async function copyRows(
  db: Db, values: unknown[],
  spec: { table: string; select: string; columns: string[]; expressions: string[] },
): Promise<Pairs> {
  const text = `WITH src AS MATERIALIZED (${spec.select}),
    ins AS (INSERT INTO ${spec.table} (${q(COLUMNS.id)}, ${spec.columns.join(', ')})
            SELECT src.new_id, ${spec.expressions.join(', ')} FROM src JOIN ${spec.table} t ON t.${q(COLUMNS.id)} = src.old_id)
    SELECT old_id::text || ':' || new_id::text FROM src ORDER BY old_id`;
  const out = await column(db, text, values);
  const pairs: Pairs = { old: [], new: [] };
  for (const pair of out) {
    const [o, n] = pair.split(':');
    pairs.old.push(o!);
    pairs.new.push(n!);
  }
  return pairs;
}

/**
 * Copy the component, dynamic-zone and media-link children of attributes `fields` from row
 * `fromId` to row `toId` of content type `uid` (a new locale version starts with the document's
 * non-localized ones). Component rows are deep-copied.
 */
export async function copyAttributeChildren(
  db: Db, schema: string, physical: PhysicalModel, uid: string, fromId: Id, toId: Id, fields: readonly string[],
): Promise<void> {
  if (fields.length === 0) return;
  const pairs: Pairs = { old: [String(fromId)], new: [String(toId)] };
  await copyDependents(db, schema, physical, componentTreeOf(physical), uid, pairs, fields);
}

/** Copy the component rows and owner-side link rows of copied rows of `uid` (of `fields` only, when given). */
async function copyDependents(
  db: Db, schema: string, physical: PhysicalModel, tree: ComponentTree, uid: string, pairs: Pairs, fields?: readonly string[],
): Promise<void> {
  const mapping = `unnest($1::bigint[], $2::bigint[]) AS m(old_id, new_id)`;
  for (const child of tree.children(uid)) {
    const component = physical.components[child.uid];
    if (!component) continue;
    const table = qualify(schema, child.table);
    const own = [COLUMNS.ownerType, COLUMNS.ownerField, COLUMNS.ord, ...component.scalars.map((s) => s.column)];
    const onlyFields = fields ? ` AND c.${q(COLUMNS.ownerField)} = ANY($5::text[])` : '';
    const childPairs = await copyRows(db, [pairs.old, pairs.new, table, uid, ...(fields ? [[...fields]] : [])], {
      table,
      select: `SELECT c.${q(COLUMNS.id)} AS old_id, nextval(pg_get_serial_sequence($3, 'id')) AS new_id, m.new_id AS new_owner_id
               FROM ${table} c JOIN ${mapping} ON c.${q(COLUMNS.ownerId)} = m.old_id
               WHERE c.${q(COLUMNS.ownerType)} = $4${onlyFields} ORDER BY c.${q(COLUMNS.id)}`,
      columns: [COLUMNS.ownerId, ...own].map(q),
      expressions: ['src.new_owner_id', ...own.map((c) => `t.${q(c)}`)],
    });
    if (childPairs.old.length > 0) await copyDependents(db, schema, physical, tree, child.uid, childPairs);
  }
  const owner = physicalTable(physical, uid);
  const linkTablesOfFields = fields && owner
    ? fields.flatMap((f) => { const a = owner.attributes[f]; return a?.kind === 'media' ? [a.linkTable] : []; })
    : owner?.linkTables ?? [];
  for (const name of linkTablesOfFields) {
    const link = physical.linkTables[name]!;
    const cols = link.kind === 'relation'
      ? [COLUMNS.targetDocumentId, COLUMNS.targetLocale, COLUMNS.ord, COLUMNS.invOrd]
      : [COLUMNS.fileId, COLUMNS.ord];
    await exec(db, `INSERT INTO ${qualify(schema, name)} (${q(COLUMNS.sourceId)}, ${cols.map(q).join(', ')})
      SELECT m.new_id, ${cols.map((c) => `l.${q(c)}`).join(', ')}
      FROM ${qualify(schema, name)} l JOIN ${mapping} ON l.${q(COLUMNS.sourceId)} = m.old_id ORDER BY l.${q(COLUMNS.id)}`,
    [pairs.old, pairs.new]);
  }
}

/**
 * Delete component rows owned by `ownerType` (optionally only those of `ownerIds` and/or
 * `ownerField`) from `tables`, then their own component rows, recursively.
 */
export async function deleteComponentRows(
  db: Db, schema: string, tree: ComponentTree, tables: readonly ComponentRef[],
  owner: { ownerType: string; ownerIds?: readonly Id[]; ownerField?: string },
): Promise<void> {
  for (const child of tables) {
    const values: unknown[] = [owner.ownerType];
    let where = `${q(COLUMNS.ownerType)} = $1`;
    if (owner.ownerIds) {
      values.push(owner.ownerIds.map(String));
      where += ` AND ${q(COLUMNS.ownerId)} = ANY($${values.length}::bigint[])`;
    }
    if (owner.ownerField !== undefined) {
      values.push(owner.ownerField);
      where += ` AND ${q(COLUMNS.ownerField)} = $${values.length}`;
    }
    const ids = await column(db, `DELETE FROM ${qualify(schema, child.table)} WHERE ${where} RETURNING ${q(COLUMNS.id)}::text`, values);
    if (ids.length > 0) await deleteComponentRows(db, schema, tree, tree.children(child.uid), { ownerType: child.uid, ownerIds: ids });
  }
}

/** Delete version rows of content type `uid` with their component rows (link rows cascade). */
export async function deleteVersionRows(db: Db, schema: string, physical: PhysicalModel, uid: string, ids: readonly Id[]): Promise<number> {
  const ct = physical.contentTypes[uid];
  if (!ct) throw new Error(`unknown content type ${uid}`);
  if (ids.length === 0) return 0;
  const tree = componentTreeOf(physical);
  await deleteComponentRows(db, schema, tree, tree.children(uid), { ownerType: uid, ownerIds: ids });
  const deleted = await column(db, `DELETE FROM ${qualify(schema, ct.table)} WHERE ${q(COLUMNS.id)} = ANY($1::bigint[]) RETURNING ${q(COLUMNS.id)}::text`, [ids.map(String)]);
  return deleted.length;
}
