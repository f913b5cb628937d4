// A project's documents: distinct document ids over its content types' tables (every locale
// and the draft and published versions of a document are one document).
import { qualify } from '@cms/db';

/** An SQL expression counting the documents of `tables` in `schema`. */
export function documentCountSql(schema: string, tables: readonly string[]): string {
  if (tables.length === 0) return '0';
  return tables.map((t) => `(SELECT count(DISTINCT document_id) FROM ${qualify(schema, t)})`).join(' + ');
}
