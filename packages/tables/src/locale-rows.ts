// Deleting a locale's content: every version row in that locale (with its component rows; its
// link rows cascade) and the relation links that point at versions in it.
import { column, exec, qualify, quoteIdent, type Db } from '@cms/db';
import { COLUMNS } from './physical-names.ts';
import type { PhysicalModel } from './physical-model.ts';
import { deleteVersionRows } from './version-rows.ts';

const q = quoteIdent;

export async function deleteLocaleContent(db: Db, schema: string, physical: PhysicalModel, code: string): Promise<void> {
  for (const type of Object.values(physical.contentTypes)) {
    if (!type.localized) continue;
    const ids = await column(db, `SELECT ${q(COLUMNS.id)} FROM ${qualify(schema, type.table)} WHERE ${q(COLUMNS.locale)} = $1`, [code]);
    if (ids.length) await deleteVersionRows(db, schema, physical, type.uid, ids);
  }
  // Links from other rows to versions in this locale point at nothing now.
  for (const link of Object.values(physical.linkTables)) {
    if (link.kind !== 'relation' || !link.targetLocalized) continue;
    await exec(db, `DELETE FROM ${qualify(schema, link.name)} WHERE ${q(COLUMNS.targetLocale)} = $1`, [code]);
  }
}
