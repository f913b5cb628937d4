// Type-level settings that rewrite rows: collection ↔ single, i18n and draft & publish toggles.
// They run last, on the final table layout (`ctx.after`).
import { qualify, quoteIdent } from '@cms/db';
import { refuse, type MigrationContext } from './migration-context.ts';
import { COLUMNS, copyVersionRows, deleteVersionRows, type PhysicalRelationLink } from '@cms/tables';
import { column, exec, sqlState } from '@cms/db';

const q = quoteIdent;

function tableOf(ctx: MigrationContext, uid: string): string {
  return qualify(ctx.schema, ctx.after.contentTypes[uid]!.table);
}

/** Owner-side link tables whose targets are documents of `uid` (they carry `target_locale`). */
function linksTargeting(ctx: MigrationContext, uid: string): PhysicalRelationLink[] {
  return Object.values(ctx.after.linkTables).filter((l): l is PhysicalRelationLink => l.kind === 'relation' && l.target === uid);
}

/** A single type holds one document (in each locale): allowed while at most one exists. */
export async function changeKind(ctx: MigrationContext, uid: string, to: 'collectionType' | 'singleType'): Promise<void> {
  if (to !== 'singleType') return;
  const [count] = await column(ctx.db, `SELECT count(DISTINCT ${q(COLUMNS.documentId)}) FROM ${tableOf(ctx, uid)}`);
  if (Number(count) > 1) throw refuse(uid, undefined, `Cannot make ${uid} a single type: it has ${count} entries`, 'kind');
}

/** Existing rows (and links to them) become versions in the default locale. */
export async function enableI18n(ctx: MigrationContext, uid: string): Promise<void> {
  await exec(ctx.db, `UPDATE ${tableOf(ctx, uid)} SET ${q(COLUMNS.locale)} = $1 WHERE ${q(COLUMNS.locale)} IS NULL`, [ctx.defaultLocale]);
  for (const link of linksTargeting(ctx, uid)) {
    await exec(ctx.db, `UPDATE ${qualify(ctx.schema, link.name)} SET ${q(COLUMNS.targetLocale)} = $1 WHERE ${q(COLUMNS.targetLocale)} IS NULL`, [ctx.defaultLocale]);
  }
}

/** Only possible while every row is in the default locale: other versions would be lost. */
export async function disableI18n(ctx: MigrationContext, uid: string): Promise<void> {
  const table = tableOf(ctx, uid);
  const others = await column(ctx.db,
    `SELECT DISTINCT ${q(COLUMNS.locale)} FROM ${table} WHERE ${q(COLUMNS.locale)} <> $1 ORDER BY 1 LIMIT 5`, [ctx.defaultLocale]);
  if (others.length > 0) {
    throw refuse(uid, undefined,
      `Cannot disable localization of ${uid}: entries exist in locales other than the default locale "${ctx.defaultLocale}" (${others.join(', ')})`,
      'pluginOptions', 'i18n', 'localized');
  }
  await exec(ctx.db, `UPDATE ${table} SET ${q(COLUMNS.locale)} = NULL WHERE ${q(COLUMNS.locale)} IS NOT NULL`);
  for (const link of linksTargeting(ctx, uid)) {
    const l = qualify(ctx.schema, link.name);
    // Links to other locales point at versions that do not exist.
    await exec(ctx.db, `DELETE FROM ${l} WHERE ${q(COLUMNS.targetLocale)} <> $1`, [ctx.defaultLocale]);
    await exec(ctx.db, `UPDATE ${l} SET ${q(COLUMNS.targetLocale)} = NULL WHERE ${q(COLUMNS.targetLocale)} IS NOT NULL`);
  }
}

/** Every row is published; each gets a draft copy (with its components and links). */
export async function enableDraftAndPublish(ctx: MigrationContext, uid: string): Promise<void> {
  const table = tableOf(ctx, uid);
  const ids = await column(ctx.db,
    `SELECT p.${q(COLUMNS.id)}::text FROM ${table} p WHERE p.${q(COLUMNS.publishedAt)} IS NOT NULL AND NOT EXISTS (
       SELECT 1 FROM ${table} d WHERE d.${q(COLUMNS.documentId)} = p.${q(COLUMNS.documentId)}
         AND d.${q(COLUMNS.locale)} IS NOT DISTINCT FROM p.${q(COLUMNS.locale)} AND d.${q(COLUMNS.publishedAt)} IS NULL)
     ORDER BY p.${q(COLUMNS.id)}`);
  if (ids.length > 0) await copyVersionRows(ctx.db, ctx.schema, ctx.after, uid, { ids, publishedAt: null });
}

/**
 * Published versions keep their published row (their drafts go); draft-only versions are
 * published as they are.
 */
export async function disableDraftAndPublish(ctx: MigrationContext, uid: string): Promise<void> {
  const table = tableOf(ctx, uid);
  const drafts = await column(ctx.db,
    `SELECT d.${q(COLUMNS.id)}::text FROM ${table} d WHERE d.${q(COLUMNS.publishedAt)} IS NULL AND EXISTS (
       SELECT 1 FROM ${table} p WHERE p.${q(COLUMNS.documentId)} = d.${q(COLUMNS.documentId)}
         AND p.${q(COLUMNS.locale)} IS NOT DISTINCT FROM d.${q(COLUMNS.locale)} AND p.${q(COLUMNS.publishedAt)} IS NOT NULL)`);
  await deleteVersionRows(ctx.db, ctx.schema, ctx.after, uid, drafts);
  try {
    await ctx.db.transaction(async (sp) => {
      await exec(sp, `UPDATE ${table} SET ${q(COLUMNS.publishedAt)} = now() WHERE ${q(COLUMNS.publishedAt)} IS NULL`);
    });
  } catch (error) {
    if (sqlState(error) !== '23505') throw error;
    throw refuse(uid, undefined,
      `Cannot disable draft & publish on ${uid}: publishing its draft-only entries would duplicate the value of a unique attribute`,
      'options', 'draftAndPublish');
  }
}
