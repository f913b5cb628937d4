// The files table of a project schema (`base_0001_files`): the SQL the media library runs on it.
// Reads that clients see go through @cms/query's files view; these are the writes and the raw
// lookups the library itself needs (hash, extension and formats to find stored objects).
import { createId } from '@paralleldrive/cuid2';
import { column, qualify, rows, type Db } from '@cms/db';
import { FILES_TABLE } from '@cms/tables';
import { folderPathOf } from './folder-rows.ts';

const TABLE = FILES_TABLE;

export interface ImageFormat {
  name: string;
  hash: string;
  ext: string;
  mime: string;
  path: null;
  width: number;
  height: number;
  /** kB (1000 bytes), two decimals */
  size: number;
  sizeInBytes: number;
  url: string;
}

export type Formats = Record<string, ImageFormat>;

export interface FileInfo {
  name?: string;
  alternativeText?: string | null;
  caption?: string | null;
  focalPoint?: { x: number; y: number } | null;
  /** The folder's id; null: the root. */
  folder?: string | null;
}

/** The stored content of a file: what a replace changes. */
export interface FileContent {
  name: string;
  hash: string;
  ext: string;
  mime: string;
  /** kB (1000 bytes), two decimals */
  size: number;
  url: string;
  provider: string;
}

export interface NewFile extends FileContent {
  alternativeText: string | null;
  caption: string | null;
  focalPoint: { x: number; y: number } | null;
}

/** A file row as the library needs it. */
export interface FileRow {
  id: string;
  documentId: string;
  hash: string;
  ext: string;
  size: number;
  formats: Formats | null;
}

const ROW = `id::text AS "id", document_id AS "documentId", hash, COALESCE(ext, '') AS ext, size::float8 AS size, formats`;

export async function insertFile(db: Db, schema: string, file: NewFile): Promise<FileRow> {
  const [row] = await rows<FileRow>(db,
    `INSERT INTO ${qualify(schema, TABLE)} (document_id, name, alternative_text, caption, focal_point, hash, ext, mime, size, url, provider)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10, $11) RETURNING ${ROW}`,
    [createId(), file.name, file.alternativeText, file.caption, file.focalPoint === null ? null : JSON.stringify(file.focalPoint),
      file.hash, file.ext, file.mime, file.size, file.url, file.provider]);
  return row!;
}

/**
 * Bytes the project's files take (originals, as recorded). With `lockQuota`, first takes the
 * project's quota lock for the rest of the transaction, so concurrent uploads are counted one
 * after the other and none can pass the quota by racing another.
 */
export async function storedBytes(db: Db, schema: string, lockQuota = false): Promise<number> {
  if (lockQuota) await column(db, 'SELECT pg_advisory_xact_lock(hashtext($1))::text', [`${schema}:storage-quota`]);
  const [bytes] = await column(db, `SELECT COALESCE(round(sum(size) * 1000), 0)::text FROM ${qualify(schema, TABLE)}`, []);
  return Number(bytes);
}

/** Every file row of a schema, a page at a time (by id). */
export async function* allFileRows(db: Db, schema: string): AsyncGenerator<FileRow> {
  for (let after = '0'; ;) {
    const page = await rows<FileRow>(db, `SELECT ${ROW} FROM ${qualify(schema, TABLE)} WHERE id > $1 ORDER BY id LIMIT 500`, [after]);
    yield* page;
    if (page.length < 500) return;
    after = page[page.length - 1]!.id;
  }
}

export async function findFileRow(db: Db, schema: string, id: string): Promise<FileRow | null> {
  const [row] = await rows<FileRow>(db, `SELECT ${ROW} FROM ${qualify(schema, TABLE)} WHERE id = $1`, [id]);
  return row ?? null;
}

/** Change name, alternative text, caption, focal point or folder; keys absent from `info` are kept. */
export async function updateFileInfo(db: Db, schema: string, id: string, info: FileInfo): Promise<boolean> {
  const sets: string[] = [];
  const values: unknown[] = [id];
  const set = (col: string, value: unknown, cast = '') => {
    values.push(value);
    sets.push(`${col} = $${values.length}${cast}`);
  };
  if (info.name !== undefined) set('name', info.name);
  if (info.alternativeText !== undefined) set('alternative_text', info.alternativeText);
  if (info.caption !== undefined) set('caption', info.caption);
  if (info.focalPoint !== undefined) set('focal_point', info.focalPoint === null ? null : JSON.stringify(info.focalPoint), '::jsonb');
  if (info.folder !== undefined) {
    set('folder_id', info.folder);
    set('folder_path', info.folder === null ? '/' : await folderPathOf(db, schema, info.folder, ['fileInfo', 'folder']));
  }
  const updated = await column(db,
    `UPDATE ${qualify(schema, TABLE)} SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1 RETURNING id`, values);
  return updated.length === 1;
}

/** New content under the same id and hash; dimensions and formats wait for processing. */
export async function replaceFileContent(db: Db, schema: string, id: string, content: FileContent, previousHash = content.hash): Promise<FileRow | null> {
  // `previousHash` guards the row; a new hash (content another project still shows) replaces it.
  const [row] = await rows<FileRow>(db,
    `UPDATE ${qualify(schema, TABLE)} SET name = $2, ext = $3, mime = $4, size = $5, url = $6, provider = $7,
       width = NULL, height = NULL, formats = NULL, hash = $9, updated_at = now()
     WHERE id = $1 AND hash = $8 RETURNING ${ROW}`,
    [id, content.name, content.ext, content.mime, content.size, content.url, content.provider, previousHash, content.hash]);
  return row ?? null;
}

/**
 * Record what processing found. Guarded by the content it processed (hash, extension, size), so a
 * job that finishes after the file was replaced or deleted changes nothing.
 */
export async function recordProcessing(
  db: Db, schema: string, id: string, guard: { hash: string; ext: string; size: number },
  result: { width: number | null; height: number | null; formats: Formats | null },
): Promise<boolean> {
  const updated = await column(db,
    `UPDATE ${qualify(schema, TABLE)} SET width = $5, height = $6, formats = $7::jsonb
     WHERE id = $1 AND hash = $2 AND COALESCE(ext, '') = $3 AND size = $4 RETURNING id`,
    [id, guard.hash, guard.ext, guard.size, result.width, result.height, result.formats === null ? null : JSON.stringify(result.formats)]);
  return updated.length === 1;
}

export async function deleteFileRow(db: Db, schema: string, id: string): Promise<FileRow | null> {
  const [row] = await rows<FileRow>(db, `DELETE FROM ${qualify(schema, TABLE)} WHERE id = $1 RETURNING ${ROW}`, [id]);
  return row ?? null;
}

/**
 * Whether a file row of any of `schemas` (another project's: an environment of the project)
 * stores content under `hash` and `ext`, and so may point at this project's stored object.
 */
export async function fileInSchemas(db: Db, schemas: string[], hash: string, ext: string | null): Promise<boolean> {
  if (schemas.length === 0) return false;
  // Only the schemas that still exist (an environment dropped meanwhile names nothing), so no
  // error aborts the caller's transaction.
  const present = await column(db, `SELECT s FROM unnest($1::text[]) s WHERE to_regclass(quote_ident(s) || '.${TABLE}') IS NOT NULL`, [schemas]);
  if (present.length === 0) return false;
  schemas = present;
  const [found] = await column(db,
    `SELECT EXISTS (${schemas.map((s) => `SELECT 1 FROM ${qualify(s, TABLE)} WHERE hash = $1 AND COALESCE(ext, '') = $2`).join(' UNION ALL ')})`, [hash, ext ?? '']);
  return found === 'true';
}
