// Steps on whole tables: create and drop content types and components, and attribute renames.
import { qualify, quoteIdent } from '@cms/db';
import { componentStatements, contentTypeStatements, dropTableStatement } from './compile-tables.ts';
import { attributeBefore, tableBefore, type MigrationContext } from './migration-context.ts';
import { COLUMNS, deleteComponentRows, physicalTable } from '@cms/tables';
import { exec } from '@cms/db';

const q = quoteIdent;

export async function createContentType(ctx: MigrationContext, uid: string): Promise<void> {
  for (const s of contentTypeStatements(ctx.schema, ctx.after, uid)) await exec(ctx.db, s);
}

export async function createComponent(ctx: MigrationContext, uid: string): Promise<void> {
  for (const s of componentStatements(ctx.schema, ctx.after, uid)) await exec(ctx.db, s);
}

/**
 * Drop a content type: links to its documents from other types, its component rows (recursively),
 * its link tables and its table.
 */
export async function dropContentType(ctx: MigrationContext, uid: string): Promise<void> {
  const ct = ctx.before.contentTypes[uid]!;
  for (const link of Object.values(ctx.before.linkTables)) {
    if (link.kind !== 'relation' || link.target !== uid || link.sourceUid === uid) continue;
    // A link table of another dropped type may already be gone; it goes with its type anyway.
    if (link.sourceUid.includes('::') && !ctx.after.contentTypes[link.sourceUid]) continue;
    // Every row of a link table targeting this type points at one of its documents.
    await exec(ctx.db, `DELETE FROM ${qualify(ctx.schema, link.name)}`);
  }
  await deleteComponentRows(ctx.db, ctx.schema, ctx.tree, ctx.tree.children(uid), { ownerType: uid });
  for (const name of ct.linkTables) await exec(ctx.db, dropTableStatement(ctx.schema, name));
  await exec(ctx.db, dropTableStatement(ctx.schema, ct.table));
}

/** Drop a component: the rows nested in its rows, its link tables and its table. */
export async function dropComponent(ctx: MigrationContext, uid: string): Promise<void> {
  const c = ctx.before.components[uid]!;
  await deleteComponentRows(ctx.db, ctx.schema, ctx.tree, ctx.tree.children(uid).filter((r) => r.uid !== uid), { ownerType: uid });
  for (const name of c.linkTables) await exec(ctx.db, dropTableStatement(ctx.schema, name));
  await exec(ctx.db, dropTableStatement(ctx.schema, c.table));
  ctx.droppedComponents.add(uid);
}

/** Rename an attribute's storage (column and unique index, link table and its indexes, or component rows' owner_field). */
export async function renameAttribute(ctx: MigrationContext, uid: string, from: string, to: string): Promise<void> {
  const original = physicalTable(ctx.original, uid)!;
  const old = original.attributes[from]!;
  const cur = attributeBefore(ctx, uid, to);
  const table = qualify(ctx.schema, tableBefore(ctx, uid).table);
  if (old.kind === 'scalar' && cur.kind === 'scalar') {
    await exec(ctx.db, `ALTER TABLE ${table} RENAME COLUMN ${q(old.column)} TO ${q(cur.column)}`);
    if (old.uniqueIndex && cur.uniqueIndex) await renameIndex(ctx, old.uniqueIndex, cur.uniqueIndex);
    if (old.index && cur.index) await renameIndex(ctx, old.index, cur.index);
    return;
  }
  if ((old.kind === 'media' || (old.kind === 'relation' && old.side === 'owner')) && (cur.kind === 'media' || cur.kind === 'relation')) {
    const oldLink = ctx.original.linkTables[old.linkTable]!;
    const curLink = ctx.before.linkTables[cur.linkTable]!;
    await exec(ctx.db, `ALTER TABLE ${qualify(ctx.schema, oldLink.name)} RENAME TO ${q(curLink.name)}`);
    for (const [role, index] of Object.entries(oldLink.indexes)) {
      const renamed = (curLink.indexes as Record<string, string>)[role];
      if (renamed) await renameIndex(ctx, index, renamed);
    }
    return;
  }
  if (old.kind === 'component' || old.kind === 'dynamiczone') {
    const tables = old.kind === 'component' ? [{ uid: old.component, table: old.table }] : old.components;
    for (const t of tables) {
      await exec(ctx.db,
        `UPDATE ${qualify(ctx.schema, t.table)} SET ${q(COLUMNS.ownerField)} = $3 WHERE ${q(COLUMNS.ownerType)} = $1 AND ${q(COLUMNS.ownerField)} = $2`,
        [uid, from, to]);
    }
  }
  // Inverse relation sides store nothing under their own name.
}

async function renameIndex(ctx: MigrationContext, from: string, to: string): Promise<void> {
  if (from !== to) await exec(ctx.db, `ALTER INDEX IF EXISTS ${qualify(ctx.schema, from)} RENAME TO ${q(to)}`);
}
