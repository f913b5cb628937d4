// Attaching new files to an entry's media attribute (the upload's `ref`/`refId`/`field`), inside
// the transaction that records the files.
import { column, qualify, quoteIdent as q, rows, type Db } from '@cms/db';
import { COLUMNS } from '@cms/tables';

/** The media attribute new files are attached to, as its content type's tables name it. */
export interface EntryMediaField {
  /** The content type's table. */
  table: string;
  linkTable: string;
  /** Only the rows of the given row's locale are linked. */
  localized: boolean;
  multiple: boolean;
}

/**
 * Link files to `field` on every row of the document that row `rowId` belongs to (drafts and
 * published; only the row's locale when the field is localized), so publishing later keeps the
 * link. Returns how many rows were linked: 0 when no row has that id.
 */
export async function linkFilesToEntry(db: Db, schema: string, field: EntryMediaField, rowId: string, fileIds: readonly string[]): Promise<number> {
  const linked = await column(db, documentRowsSql(schema, field.table, field.localized), [rowId]);
  for (const row of linked) await linkFiles(db, schema, field.linkTable, row, fileIds, field.multiple);
  return linked.length;
}

/** Ids of every row of the document that row $1 belongs to (of its locale only, when `sameLocale`). */
function documentRowsSql(schema: string, table: string, sameLocale: boolean): string {
  const t = qualify(schema, table);
  const [id, documentId, locale] = [q(COLUMNS.id), q(COLUMNS.documentId), q(COLUMNS.locale)];
  return `SELECT r.${id}::text FROM ${t} r JOIN ${t} given ON given.${documentId} = r.${documentId} ` +
    `${sameLocale ? `AND given.${locale} IS NOT DISTINCT FROM r.${locale} ` : ''}WHERE given.${id} = $1 ORDER BY r.${id}`;
}

/** Link files to one row's media attribute: a single one is replaced, a multiple one gets the files appended after its current ones. */
async function linkFiles(db: Db, schema: string, linkTable: string, rowId: string, fileIds: readonly string[], multiple: boolean): Promise<void> {
  const link = qualify(schema, linkTable);
  const [source, file, ord] = [COLUMNS.sourceId, COLUMNS.fileId, COLUMNS.ord].map(q);
  const ids = multiple ? fileIds : fileIds.slice(-1);
  if (!multiple) await rows(db, `DELETE FROM ${link} WHERE ${source} = $1`, [rowId]);
  await rows(db,
    `INSERT INTO ${link} (${source}, ${file}, ${ord})
     SELECT $1, u.f, u.o + COALESCE((SELECT max(${ord}) FROM ${link} WHERE ${source} = $1), 0)
     FROM unnest($2::bigint[]) WITH ORDINALITY AS u(f, o)
     ON CONFLICT DO NOTHING`, [rowId, ids]);
}
