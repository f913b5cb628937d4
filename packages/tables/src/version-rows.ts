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
 * updated_at, attributes), deep-copying component rows and owner-side link rows — all of it in
 * ONE statement (one round trip, whatever the depth): every source row exists before it runs, so
 * each level's copy reads its parent level's old → new id mapping from a CTE. Returns the
 * old → new row ids, in old id order.
 */
export async function copyVersionRows(
  db: Db, schema: string, physical: PhysicalModel, uid: string, options: CopyVersionRowsOptions,
): Promise<IdPair[]> {
  const ct = physical.contentTypes[uid];
  if (!ct) throw new Error(`unknown content type ${uid}`);
  const table = qualify(schema, ct.table);
  const copy = new DeepCopy(schema, physical);
  const where: string[] = [];
  if (options.ids) where.push(`${q(COLUMNS.id)} = ANY(${copy.param(options.ids.map(String))}::bigint[])`);
  if (options.status) where.push(`${q(COLUMNS.publishedAt)} IS ${options.status === 'draft' ? '' : 'NOT '}NULL`);
  let publishedAt = 'NULL';
  if (options.publishedAt === 'now') publishedAt = 'now()';
  else if (options.publishedAt !== null) publishedAt = `${copy.param(options.publishedAt)}::timestamptz`;
  const system = [COLUMNS.documentId, COLUMNS.locale, COLUMNS.createdAt, COLUMNS.updatedAt, COLUMNS.createdBy, COLUMNS.updatedBy];
  const copied = [...system, ...ct.scalars.map((s) => s.column)];
  const root = copy.rows({
    table,
    select: `SELECT ${q(COLUMNS.id)} AS old_id, nextval(pg_get_serial_sequence(${copy.param(table)}, 'id')) AS new_id FROM ${table}` +
      `${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${q(COLUMNS.id)}`,
    columns: [COLUMNS.publishedAt, ...copied].map(q),
    expressions: [publishedAt, ...copied.map((c) => `t.${q(c)}`)],
  });
  copy.dependents(uid, root);
  const out = await column(db, copy.statement(`SELECT old_id::text || ':' || new_id::text FROM ${root} ORDER BY old_id`), copy.values);
  return out.map((pair) => {
    const [o, n] = pair.split(':');
    return { oldId: Number(o), newId: Number(n) };
  });
}

/**
 * The CTEs of one deep-copy statement. A mapping CTE (old_id, new_id[, new_owner_id]) is
 * MATERIALIZED so that each new id is drawn once, in old id order; the INSERT of its rows and
 * the copies of its rows' children read it. Data-modifying CTEs on distinct tables insert in the
 * order of their SELECT, as statements of their own would.
 */
class DeepCopy {
  readonly values: unknown[] = [];
  private readonly ctes: string[] = [];
  private readonly tree: ComponentTree;

  constructor(private readonly schema: string, private readonly physical: PhysicalModel) {
    this.tree = componentTreeOf(physical);
  }

  param(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** A mapping CTE given as SQL (e.g. from bound id arrays); returns its name. */
  mapping(select: string): string {
    const name = `m${this.ctes.length}`;
    this.ctes.push(`${name} AS MATERIALIZED (${select})`);
    return name;
  }

  /** The rows chosen by `select` (old_id, new_id[, …]; `src` in `expressions`) copied with their new ids; returns the mapping's name. */
  rows(spec: { table: string; select: string; columns: string[]; expressions: string[] }): string {
    const name = this.mapping(spec.select);
    this.ctes.push(`i${this.ctes.length} AS (INSERT INTO ${spec.table} (${q(COLUMNS.id)}, ${spec.columns.join(', ')}) ` +
      `SELECT src.new_id, ${spec.expressions.join(', ')} FROM ${name} src JOIN ${spec.table} t ON t.${q(COLUMNS.id)} = src.old_id)`);
    return name;
  }

  /** Component rows (deep) and owner-side link rows of the rows of `uid` mapped by `map` (of `fields` only, when given). */
  dependents(uid: string, map: string, fields?: readonly string[], depth = 0): void {
    // Strapi models cannot nest a component in itself; a cycle would never end here.
    if (depth > 32) throw new Error(`components nested too deep under ${uid}`);
    for (const child of this.tree.children(uid)) {
      const component = this.physical.components[child.uid];
      if (!component) continue;
      const table = qualify(this.schema, child.table);
      const own = [COLUMNS.ownerType, COLUMNS.ownerField, COLUMNS.ord, ...component.scalars.map((s) => s.column)];
      const onlyFields = fields ? ` AND c.${q(COLUMNS.ownerField)} = ANY(${this.param([...fields])}::text[])` : '';
      const childMap = this.rows({
        table,
        select: `SELECT c.${q(COLUMNS.id)} AS old_id, nextval(pg_get_serial_sequence(${this.param(table)}, 'id')) AS new_id, p.new_id AS new_owner_id
                 FROM ${table} c JOIN ${map} p ON c.${q(COLUMNS.ownerId)} = p.old_id
                 WHERE c.${q(COLUMNS.ownerType)} = ${this.param(uid)}${onlyFields} ORDER BY c.${q(COLUMNS.id)}`,
        columns: [COLUMNS.ownerId, ...own].map(q),
        expressions: ['src.new_owner_id', ...own.map((c) => `t.${q(c)}`)],
      });
      this.dependents(child.uid, childMap, undefined, depth + 1);
    }
    const owner = physicalTable(this.physical, uid);
    const linkTablesOfFields = fields && owner
      ? fields.flatMap((f) => { const a = owner.attributes[f]; return a?.kind === 'media' ? [a.linkTable] : []; })
      : owner?.linkTables ?? [];
    for (const name of linkTablesOfFields) {
      const link = this.physical.linkTables[name]!;
      const cols = link.kind === 'relation'
        ? [COLUMNS.targetDocumentId, COLUMNS.targetLocale, COLUMNS.ord, COLUMNS.invOrd]
        : [COLUMNS.fileId, COLUMNS.ord];
      this.ctes.push(`l${this.ctes.length} AS (INSERT INTO ${qualify(this.schema, name)} (${q(COLUMNS.sourceId)}, ${cols.map(q).join(', ')})
        SELECT p.new_id, ${cols.map((c) => `l.${q(c)}`).join(', ')}
        FROM ${qualify(this.schema, name)} l JOIN ${map} p ON l.${q(COLUMNS.sourceId)} = p.old_id ORDER BY l.${q(COLUMNS.id)})`);
    }
  }

  statement(select: string): string {
    return `WITH ${this.ctes.join(',\n')}\n${select}`;
  }
}

/**
 * Copy the component, dynamic-zone and media-link children of attributes `fields` from row
 * `fromId` to row `toId` of content type `uid` (a new locale version starts with the document's
 * non-localized ones). Component rows are deep-copied, in one statement.
 */
export async function copyAttributeChildren(
  db: Db, schema: string, physical: PhysicalModel, uid: string, fromId: Id, toId: Id, fields: readonly string[],
): Promise<void> {
  if (fields.length === 0) return;
  const copy = new DeepCopy(schema, physical);
  const root = copy.mapping(`SELECT ${copy.param(String(fromId))}::bigint AS old_id, ${copy.param(String(toId))}::bigint AS new_id`);
  copy.dependents(uid, root, fields);
  await exec(db, copy.statement('SELECT 1'), copy.values);
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
