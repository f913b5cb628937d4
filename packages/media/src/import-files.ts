// Files imported from another Strapi keep their documentId: it is how a file sent again (an
// import resumed after an interruption) is recognised instead of stored twice.
import { column, qualify, type Db } from '@cms/db';
import { FILES_TABLE } from '@cms/tables';

/** The id of the project's file with this documentId, if there is one. */
export async function fileIdByDocumentId(db: Db, schema: string, documentId: string): Promise<string | null> {
  const [id] = await column(db, `SELECT id::text FROM ${qualify(schema, FILES_TABLE)} WHERE document_id = $1`, [documentId]);
  return id ?? null;
}

/** Give a file just created (in the same transaction) the documentId it had where it came from. */
/**
 * An imported file takes the documentId it had, and when given its source's timestamps (upload
 * and last change; published with its upload, as Strapi's files are).
 */
export async function setFileDocumentId(
  tx: Db, schema: string, id: string, documentId: string, times: { createdAt?: string; updatedAt?: string } = {},
): Promise<void> {
  await column(tx, `UPDATE ${qualify(schema, FILES_TABLE)} SET document_id = $2,
      created_at = coalesce($3::timestamptz, created_at), published_at = coalesce($3::timestamptz, published_at),
      updated_at = coalesce($4::timestamptz, $3::timestamptz, updated_at)
    WHERE id = $1 RETURNING id`, [id, documentId, times.createdAt ?? null, times.updatedAt ?? null]);
}
