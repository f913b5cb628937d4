// Writing one row's attributes: scalar columns, then its components and dynamic zones
// (recursively, in the same transaction), relations and media.
import { ValidationError } from '@cms/errors';
import { column, exec, qualify, quoteIdent } from '@cms/db';
import { COLUMNS, componentTreeOf, deleteComponentRows, physicalTable, type ComponentRef, type PhysicalTable } from '@cms/tables';
import type { RelationAttribute } from '@cms/schema';
import type { ComponentItemWrite, RowWrite } from './write-input.ts';
import type { SourceVersion, WriteContext } from './write-context.ts';
import { writeInverseRelation, writeOwnerRelation } from './relation-writes.ts';

const q = quoteIdent;

/** Columns and `$n::type` expressions for the scalars of `row`, appending their values. */
export function scalarAssignments(table: PhysicalTable, row: RowWrite, values: unknown[]): { columns: string[]; expressions: string[] } {
  const columns: string[] = [];
  const expressions: string[] = [];
  for (const [name, value] of row.scalars) {
    const attr = table.attributes[name];
    if (attr?.kind !== 'scalar') continue;
    values.push(value);
    columns.push(q(attr.column));
    expressions.push(`$${values.length}::${attr.sqlType}`);
  }
  return { columns, expressions };
}

/**
 * Components, dynamic zones, relations and media of the row `rowId` of table `uid`. `fresh`: the
 * row was just inserted, so it owns nothing yet (no reads or deletes of previous children).
 * `done`: attributes already written with the row (fresh-row.ts).
 */
export async function writeRowChildren(
  ctx: WriteContext, uid: string, rowId: string, row: RowWrite, source: SourceVersion, fresh: boolean, done?: ReadonlySet<string>,
): Promise<void> {
  const table = physicalTable(ctx.physical, uid)!;
  const owner = ctx.model.contentTypes[uid] ?? ctx.model.components[uid]!;
  for (const [name, items] of row.components) {
    if (done?.has(name)) continue;
    const phys = table.attributes[name];
    if (phys?.kind === 'component') await writeComponentItems(ctx, uid, rowId, name, [{ uid: phys.component, table: phys.table }], items, source, fresh);
  }
  for (const [name, items] of row.dynamicZones) {
    const phys = table.attributes[name];
    if (phys?.kind === 'dynamiczone') await writeComponentItems(ctx, uid, rowId, name, phys.components, items, source, fresh);
  }
  for (const [name, write] of row.relations) {
    if (done?.has(name)) continue;
    const phys = table.attributes[name];
    if (phys?.kind !== 'relation') continue;
    if (phys.side === 'owner') await writeOwnerRelation(ctx, phys, owner.attributes[name] as RelationAttribute, rowId, source, write, fresh);
    else if (table.kind === 'contentType') await writeInverseRelation(ctx, phys, source, write, table.draftAndPublish);
  }
  for (const [name, fileIds] of row.media) {
    const phys = table.attributes[name];
    if (phys?.kind === 'media') await writeMedia(ctx, phys.linkTable, name, rowId, fileIds, fresh);
  }
}

/**
 * Replace the component rows of `owner.field`: items with an `id` update that row (it must
 * belong to this owner and field), others are inserted; rows not listed are deleted with their
 * own children.
 */
async function writeComponentItems(
  ctx: WriteContext, ownerUid: string, ownerId: string, field: string, tables: readonly ComponentRef[],
  items: readonly ComponentItemWrite[], source: SourceVersion, fresh: boolean,
): Promise<void> {
  const ownerWhere = `${q(COLUMNS.ownerType)} = $1 AND ${q(COLUMNS.ownerId)} = $2 AND ${q(COLUMNS.ownerField)} = $3`;
  const tree = componentTreeOf(ctx.physical);
  for (const ref of fresh ? [] : tables) {
    const keep = items.filter((i) => i.component === ref.uid && i.id !== null).map((i) => i.id!);
    if (keep.length > 0) {
      const existing = await column(ctx.tx, `SELECT ${q(COLUMNS.id)}::text FROM ${qualify(ctx.schema, ref.table)} WHERE ${ownerWhere} AND ${q(COLUMNS.id)} = ANY($4::bigint[])`,
        [ownerUid, ownerId, field, keep]);
      if (existing.length !== new Set(keep).size) throw new ValidationError(`Some of the provided components in ${field} are not related to the entity`);
    }
    const removed = await column(ctx.tx,
      `DELETE FROM ${qualify(ctx.schema, ref.table)} WHERE ${ownerWhere} AND NOT (${q(COLUMNS.id)} = ANY($4::bigint[])) RETURNING ${q(COLUMNS.id)}::text`,
      [ownerUid, ownerId, field, keep]);
    if (removed.length > 0) await deleteComponentRows(ctx.tx, ctx.schema, tree, tree.children(ref.uid), { ownerType: ref.uid, ownerIds: removed });
  }
  for (const [index, item] of items.entries()) {
    const component = ctx.physical.components[item.component]!;
    const values: unknown[] = [];
    const { columns, expressions } = scalarAssignments(component, item.row, values);
    let id: string;
    if (item.id !== null && fresh) throw new ValidationError(`Some of the provided components in ${field} are not related to the entity`);
    if (item.id !== null) {
      values.push(index, item.id);
      const sets = [`${q(COLUMNS.ord)} = $${values.length - 1}`, ...columns.map((c, i) => `${c} = ${expressions[i]}`)];
      await exec(ctx.tx, `UPDATE ${qualify(ctx.schema, component.table)} SET ${sets.join(', ')} WHERE ${q(COLUMNS.id)} = $${values.length}`, values);
      id = item.id;
    } else {
      values.push(ownerUid, ownerId, field, index);
      const n = values.length;
      const cols = [...columns, ...[COLUMNS.ownerType, COLUMNS.ownerId, COLUMNS.ownerField, COLUMNS.ord].map(q)];
      const exprs = [...expressions, `$${n - 3}`, `$${n - 2}::bigint`, `$${n - 1}`, `$${n}::int`];
      [id] = (await column(ctx.tx, `INSERT INTO ${qualify(ctx.schema, component.table)} (${cols.join(', ')}) VALUES (${exprs.join(', ')}) RETURNING ${q(COLUMNS.id)}::text`, values)) as [string];
    }
    await writeRowChildren(ctx, item.component, id, item.row, source, item.id === null);
  }
}

/** Replace the files of a media attribute, in order; unknown file ids are refused. */
async function writeMedia(ctx: WriteContext, linkTable: string, name: string, rowId: string, fileIds: readonly string[], fresh: boolean): Promise<void> {
  const ids = [...new Set(fileIds)];
  const link = qualify(ctx.schema, linkTable);
  if (!fresh) await exec(ctx.tx, `DELETE FROM ${link} WHERE ${q(COLUMNS.sourceId)} = $1`, [rowId]);
  if (ids.length === 0) return;
  const inserted = await column(ctx.tx,
    `INSERT INTO ${link} (${q(COLUMNS.sourceId)}, ${q(COLUMNS.fileId)}, ${q(COLUMNS.ord)}) ` +
    `SELECT $1, u.f, u.o FROM unnest($2::bigint[]) WITH ORDINALITY AS u(f, o) JOIN ${qualify(ctx.schema, ctx.physical.filesTable)} f ON f.${q(COLUMNS.id)} = u.f ` +
    `RETURNING ${q(COLUMNS.fileId)}::text`, [rowId, ids]);
  if (inserted.length !== ids.length) {
    const missing = ids.filter((id) => !inserted.includes(id));
    throw ValidationError.fromFieldErrors(missing.map((id) => ({ path: [name], message: `${name} references a file that does not exist: ${id}`, name: 'ValidationError', value: Number(id) })));
  }
}
