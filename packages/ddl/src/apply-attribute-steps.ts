// Steps on one attribute of a surviving content type or component. Every check that could refuse
// runs before the change it guards; conversions that Postgres may reject run in a savepoint.
import { qualify, quoteIdent, type Db } from '@cms/db';
import { AppError } from '@cms/errors';
import type { Attribute, RelationKind, ScalarType } from '@cms/schema';
import {
  dropIndexStatement, dropTableStatement, linkTableStatements, sourceUniqueIndexStatement, uniqueAttributeIndexStatement,
} from './compile-tables.ts';
import {
  attributeAfter, attributeBefore, attributeHasData, componentRowsExist, refuse, tableAfter, tableBefore, type MigrationContext,
} from './migration-context.ts';
import type { ComponentStorage } from './migration-steps.ts';
import {
  COLUMNS, componentTableName, deleteComponentRows, isToOneRelation, type PhysicalLinkTable, type PhysicalScalar,
} from '@cms/tables';
import { sameStorage, scalarConversion } from './scalar-conversion.ts';
import { exec, exists, column, sqlState } from '@cms/db';

const q = quoteIdent;

function modelAttribute(ctx: MigrationContext, uid: string, name: string): Attribute {
  const owner = ctx.afterModel.contentTypes[uid] ?? ctx.afterModel.components[uid];
  return owner!.attributes[name]!;
}

function linkAfter(ctx: MigrationContext, name: string): PhysicalLinkTable {
  return ctx.after.linkTables[name]!;
}

export async function addAttribute(ctx: MigrationContext, uid: string, name: string): Promise<void> {
  const attr = attributeAfter(ctx, uid, name);
  const table = tableAfter(ctx, uid).table;
  if (attr.kind === 'scalar') {
    await exec(ctx.db, `ALTER TABLE ${qualify(ctx.schema, table)} ADD COLUMN ${q(attr.column)} ${attr.sqlType}`);
    if (attr.uniqueIndex) await exec(ctx.db, uniqueAttributeIndexStatement(ctx.schema, table, attr));
  } else if (attr.kind === 'media' || (attr.kind === 'relation' && attr.side === 'owner')) {
    for (const s of linkTableStatements(ctx.schema, linkAfter(ctx, attr.linkTable), ctx.after.filesTable)) await exec(ctx.db, s);
  }
  // Components and dynamic zones store their items in the components' tables; inverse relation
  // sides read the owner's link table.
}

export async function dropAttribute(ctx: MigrationContext, uid: string, name: string): Promise<void> {
  const attr = attributeBefore(ctx, uid, name);
  const table = tableBefore(ctx, uid).table;
  switch (attr.kind) {
    case 'scalar':
      await exec(ctx.db, `ALTER TABLE ${qualify(ctx.schema, table)} DROP COLUMN ${q(attr.column)}`);
      return;
    case 'media':
      await exec(ctx.db, dropTableStatement(ctx.schema, attr.linkTable));
      return;
    case 'relation':
      if (attr.side === 'owner') await exec(ctx.db, dropTableStatement(ctx.schema, attr.linkTable));
      return;
    case 'component':
    case 'dynamiczone': {
      const tables = attr.kind === 'component' ? [{ uid: attr.component, table: attr.table }] : attr.components;
      await deleteComponentRows(ctx.db, ctx.schema, ctx.tree, tables.filter((t) => !ctx.droppedComponents.has(t.uid)), { ownerType: uid, ownerField: name });
    }
  }
}

/** An attribute changing kind (e.g. string → relation): possible only while it holds no data. */
export async function replaceAttribute(ctx: MigrationContext, uid: string, name: string, from: string, to: string): Promise<void> {
  if (await attributeHasData(ctx, uid, attributeBefore(ctx, uid, name))) {
    throw refuse(uid, name, `Cannot change attribute "${name}" of ${uid} from ${from} to ${to}: existing data cannot be converted`);
  }
  await dropAttribute(ctx, uid, name);
  await addAttribute(ctx, uid, name);
}

/** Errors by which Postgres rejects a value conversion (as opposed to failures of the database itself). */
function isConversionFailure(error: unknown): boolean {
  const code = sqlState(error);
  return code !== undefined && (code.startsWith('22') || code.startsWith('23') || ['42846', '42804', '42883'].includes(code));
}

export async function changeScalarType(ctx: MigrationContext, uid: string, name: string, from: ScalarType, to: ScalarType): Promise<void> {
  const before = attributeBefore(ctx, uid, name) as PhysicalScalar;
  const after = attributeAfter(ctx, uid, name) as PhysicalScalar;
  const table = qualify(ctx.schema, tableAfter(ctx, uid).table);
  const col = q(before.column);
  const cannot = () => refuse(uid, name, `Cannot convert attribute "${name}" of ${uid} from ${from} to ${to}: existing values do not convert`);
  // Values must fit the new type's rules too (run on the savepoint's connection when inside it).
  const checkValues = async (db: Db) => {
    const attr = modelAttribute(ctx, uid, name);
    if (attr.kind === 'scalar' && to === 'enumeration') await checkEnumeration(db, uid, name, table, after.column, attr.enum ?? []);
    if (to === 'blocks' && await exists(db, `SELECT 1 FROM ${table} WHERE ${col} IS NOT NULL AND jsonb_typeof(${col}) <> 'array'`)) throw cannot();
  };
  if (sameStorage(from, to)) {
    await checkValues(ctx.db);
    return;
  }
  const alter = (using: string) => `ALTER TABLE ${table} ALTER COLUMN ${col} TYPE ${after.sqlType} USING ${using}`;
  if (!(await exists(ctx.db, `SELECT 1 FROM ${table} WHERE ${col} IS NOT NULL`))) {
    await exec(ctx.db, alter(`NULL::${after.sqlType}`));
    return;
  }
  const conversion = scalarConversion(from, to, col);
  if (!conversion) throw cannot();
  try {
    // A savepoint: a rejected cast leaves the caller's transaction usable.
    await ctx.db.transaction(async (sp) => {
      if (conversion.lossy && (await exists(sp, `SELECT 1 FROM ${table} WHERE ${conversion.lossy}`))) throw cannot();
      await exec(sp, alter(conversion.using));
      await checkValues(sp);
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (isConversionFailure(error)) throw cannot();
    throw error;
  }
}

async function checkEnumeration(
  db: Db, uid: string, name: string, table: string, columnName: string, values: readonly string[],
): Promise<void> {
  const bad = await column(db,
    `SELECT DISTINCT ${q(columnName)} FROM ${table} WHERE ${q(columnName)} IS NOT NULL AND NOT (${q(columnName)} = ANY($1::text[])) ORDER BY 1 LIMIT 5`,
    [values]);
  if (bad.length > 0) {
    const shown = bad.map((v) => JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)).join(', ');
    throw refuse(uid, name, `Cannot change attribute "${name}" of ${uid}: existing values are not in the enumeration (${shown})`);
  }
}

export async function changeEnumeration(ctx: MigrationContext, uid: string, name: string, values: readonly string[]): Promise<void> {
  const after = attributeAfter(ctx, uid, name) as PhysicalScalar;
  await checkEnumeration(ctx.db, uid, name, qualify(ctx.schema, tableAfter(ctx, uid).table), after.column, values);
}

export async function addUnique(ctx: MigrationContext, uid: string, name: string): Promise<void> {
  const after = attributeAfter(ctx, uid, name) as PhysicalScalar;
  const table = tableAfter(ctx, uid).table;
  const col = q(after.column);
  const duplicated = await exists(ctx.db,
    `SELECT 1 FROM ${qualify(ctx.schema, table)} WHERE ${q(COLUMNS.publishedAt)} IS NOT NULL AND ${col} IS NOT NULL
     GROUP BY ${col}, ${q(COLUMNS.locale)} HAVING count(*) > 1`);
  if (duplicated) throw refuse(uid, name, `Cannot make attribute "${name}" of ${uid} unique: published entries share the same value`);
  await exec(ctx.db, uniqueAttributeIndexStatement(ctx.schema, table, after));
}

export async function dropUnique(ctx: MigrationContext, uid: string, name: string): Promise<void> {
  const before = attributeBefore(ctx, uid, name) as PhysicalScalar;
  if (before.uniqueIndex) await exec(ctx.db, dropIndexStatement(ctx.schema, before.uniqueIndex));
}

async function someSourceHasSeveral(ctx: MigrationContext, linkTable: string): Promise<boolean> {
  return exists(ctx.db, `SELECT 1 FROM ${qualify(ctx.schema, linkTable)} GROUP BY ${q(COLUMNS.sourceId)} HAVING count(*) > 1`);
}

async function linkRowsExist(ctx: MigrationContext, linkTable: string): Promise<boolean> {
  return exists(ctx.db, `SELECT 1 FROM ${qualify(ctx.schema, linkTable)}`);
}

/** To-many → to-one adds unique(source_id) if every source has at most one link; the reverse drops it. */
export async function changeRelationKind(ctx: MigrationContext, uid: string, name: string, from: RelationKind, to: RelationKind): Promise<void> {
  const wasToOne = isToOneRelation(from);
  const isToOne = isToOneRelation(to);
  if (wasToOne === isToOne) return;
  const attr = attributeAfter(ctx, uid, name);
  if (attr.kind !== 'relation') return;
  const link = linkAfter(ctx, attr.linkTable);
  if (isToOne) {
    if (await someSourceHasSeveral(ctx, link.name)) {
      throw refuse(uid, name, `Cannot change relation "${name}" of ${uid} from ${from} to ${to}: some entries link to more than one target`);
    }
    await exec(ctx.db, sourceUniqueIndexStatement(ctx.schema, link));
    // One link per row now: the unique source index serves the order too.
    await exec(ctx.db, dropIndexStatement(ctx.schema, link.indexes.order));
  } else {
    await exec(ctx.db, dropIndexStatement(ctx.schema, link.indexes.source));
    // The (source_id, ord) index is built concurrently once this commits (syncModelIndexes).
  }
}

/** Links point at documents of the old target: the link table is recreated only when empty. */
export async function changeRelationTarget(ctx: MigrationContext, uid: string, name: string, from: string, to: string): Promise<void> {
  const before = attributeBefore(ctx, uid, name);
  const after = attributeAfter(ctx, uid, name);
  if (before.kind !== 'relation' || after.kind !== 'relation') return;
  if (await linkRowsExist(ctx, before.linkTable)) {
    throw refuse(uid, name, `Cannot change the target of relation "${name}" of ${uid} from ${from} to ${to}: links exist`);
  }
  await exec(ctx.db, dropTableStatement(ctx.schema, before.linkTable));
  for (const s of linkTableStatements(ctx.schema, linkAfter(ctx, after.linkTable), ctx.after.filesTable)) await exec(ctx.db, s);
}

/** The owning side of a relation moved: this side creates its link table, or drops it while empty. */
export async function changeRelationOwner(ctx: MigrationContext, uid: string, name: string, owner: boolean): Promise<void> {
  if (owner) {
    const after = attributeAfter(ctx, uid, name);
    if (after.kind === 'relation') {
      for (const s of linkTableStatements(ctx.schema, linkAfter(ctx, after.linkTable), ctx.after.filesTable)) await exec(ctx.db, s);
    }
    return;
  }
  const before = attributeBefore(ctx, uid, name);
  const after = attributeAfter(ctx, uid, name);
  if (before.kind !== 'relation' || after.kind !== 'relation') return;
  if (await linkRowsExist(ctx, before.linkTable)) {
    throw refuse(uid, name, `Cannot move the owning side of relation "${name}" of ${uid} to ${after.ownerUid}.${after.ownerAttribute}: links exist`);
  }
  await exec(ctx.db, dropTableStatement(ctx.schema, before.linkTable));
}

export async function changeMediaMultiple(ctx: MigrationContext, uid: string, name: string, multiple: boolean): Promise<void> {
  const attr = attributeAfter(ctx, uid, name);
  if (attr.kind !== 'media') return;
  const link = linkAfter(ctx, attr.linkTable);
  if (multiple) {
    await exec(ctx.db, dropIndexStatement(ctx.schema, link.indexes.source));
    return;
  }
  if (await someSourceHasSeveral(ctx, link.name)) {
    throw refuse(uid, name, `Cannot make media "${name}" of ${uid} single: some entries have several files`);
  }
  await exec(ctx.db, sourceUniqueIndexStatement(ctx.schema, link));
  await exec(ctx.db, dropIndexStatement(ctx.schema, link.indexes.order));
}

/**
 * Component ↔ repeatable component ↔ dynamic zone: the rows stay where they are (component
 * tables, keyed by owner and field). Refused when rows of a component that is no longer allowed
 * exist, or when a single component would get several items.
 */
export async function changeComponentStorage(ctx: MigrationContext, uid: string, name: string, from: ComponentStorage, to: ComponentStorage): Promise<void> {
  for (const c of from.components.filter((c) => !to.components.includes(c))) {
    if (await componentRowsExist(ctx, [{ uid: c, table: componentTableName(c) }], uid, name)) {
      throw refuse(uid, name, from.kind === 'component' && to.kind === 'component'
        ? `Cannot change the component of attribute "${name}" of ${uid} from ${c} to ${to.components[0]}: entries exist`
        : `Cannot remove component ${c} from attribute "${name}" of ${uid}: entries use it`);
    }
  }
  if (to.single && !from.single) {
    const kept = from.components.filter((c) => to.components.includes(c));
    if (kept.length === 0) return;
    const union = kept.map((c) =>
      `SELECT ${q(COLUMNS.ownerId)} FROM ${qualify(ctx.schema, componentTableName(c))} WHERE ${q(COLUMNS.ownerType)} = $1 AND ${q(COLUMNS.ownerField)} = $2`,
    ).join(' UNION ALL ');
    if (await exists(ctx.db, `SELECT 1 FROM (${union}) items GROUP BY ${q(COLUMNS.ownerId)} HAVING count(*) > 1`, [uid, name])) {
      throw refuse(uid, name, `Cannot make component "${name}" of ${uid} non-repeatable: some entries have several items`);
    }
  }
}
