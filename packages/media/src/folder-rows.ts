// The media library's folders (`upload_folders`, Strapi's `plugin::upload.folder`) and the folder
// each file is in. Every change to the tree runs under the project's folder lock, so two moves
// at once cannot make a cycle and two creates cannot make twins.
import { column, exec, qualify, rows, sqlState, type Db } from '@cms/db';
import { FILES_TABLE } from '@cms/tables';
import { NotFoundError, ValidationError } from '@cms/errors';

export const FOLDERS_TABLE = 'upload_folders';

/** A folder as the management API answers it. */
export interface Folder {
  id: number;
  name: string;
  /** The parent folder's id; null at the root. */
  parent: number | null;
  /** Ids from the root down (`/3/7`), as Strapi's folder path. */
  path: string;
  createdAt: string;
  updatedAt: string;
  /** Files directly in the folder (not in its sub-folders). */
  fileCount: number;
}

/** A file deleted with its folder: what the library needs to delete its stored objects. */
export interface DeletedFile {
  id: string;
  hash: string;
  ext: string;
}

const UNIQUE_VIOLATION = '23505';

const fieldError = (path: string[], message: string) =>
  ValidationError.fromFieldErrors([{ path, message, name: 'ValidationError' }]);

export const folderNotFound = () => new NotFoundError('folder.notFound');

function selectFolders(schema: string, where: string): string {
  return `SELECT f.id, f.name, f.parent_id AS parent, f.path, f.created_at AS "createdAt", f.updated_at AS "updatedAt",
      (SELECT count(*)::int FROM ${qualify(schema, FILES_TABLE)} WHERE folder_id = f.id) AS "fileCount"
    FROM ${qualify(schema, FOLDERS_TABLE)} f ${where}`;
}

/** Every folder of the project, parents before children (by path), siblings by name. */
export function listFolders(db: Db, schema: string): Promise<Folder[]> {
  return rows<Folder>(db, `${selectFolders(schema, '')} ORDER BY f.path, f.name`);
}

export async function findFolder(db: Db, schema: string, id: string): Promise<Folder | null> {
  const [folder] = await rows<Folder>(db, selectFolders(schema, 'WHERE f.id = $1'), [id]);
  return folder ?? null;
}

/**
 * The path of a folder named in a request; an unknown one is a 400 on `field` (a reference in a
 * body is the caller's mistake, not a missing resource).
 */
export async function folderPathOf(db: Db, schema: string, id: string, field: string[]): Promise<string> {
  const [path] = await column(db, `SELECT path FROM ${qualify(schema, FOLDERS_TABLE)} WHERE id = $1`, [id]);
  if (path === undefined) throw fieldError(field, `Folder ${id} does not exist`);
  return path;
}

/** Put files in a folder (null: the root), keeping Strapi's `folder_path` in step. */
export async function setFilesFolder(db: Db, schema: string, fileIds: readonly string[], folderId: string | null, field: string[]): Promise<void> {
  const path = folderId === null ? '/' : await folderPathOf(db, schema, folderId, field);
  await exec(db, `UPDATE ${qualify(schema, FILES_TABLE)} SET folder_id = $2, folder_path = $3 WHERE id = ANY($1::bigint[])`,
    [fileIds, folderId, path]);
}

async function lockFolders(db: Db, schema: string): Promise<void> {
  await column(db, 'SELECT pg_advisory_xact_lock(hashtext($1))::text', [`${schema}:upload-folders`]);
}

async function assertFreeName(db: Db, schema: string, parent: string | null, name: string, except: string | null): Promise<void> {
  const [taken] = await column(db,
    `SELECT id FROM ${qualify(schema, FOLDERS_TABLE)} WHERE parent_id IS NOT DISTINCT FROM $1 AND name = $2 AND id IS DISTINCT FROM $3`,
    [parent, name, except]);
  if (taken !== undefined) throw sameName(name);
}

const sameName = (name: string) => fieldError(['name'], `A folder named "${name}" already exists here`);

/** The unique index catches what the lock cannot (a caller without it); same answer. */
async function orSameName<T>(name: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (sqlState(err) === UNIQUE_VIOLATION) throw sameName(name);
    throw err;
  }
}

/** A new folder in `parent` (null: the root). `tx` must be a transaction. */
export async function createFolder(tx: Db, schema: string, input: { name: string; parent: string | null }): Promise<Folder> {
  await lockFolders(tx, schema);
  const parentPath = input.parent === null ? '' : await folderPathOf(tx, schema, input.parent, ['parent']);
  await assertFreeName(tx, schema, input.parent, input.name, null);
  const table = qualify(schema, FOLDERS_TABLE);
  const [id] = await orSameName(input.name, () => column(tx,
    `INSERT INTO ${table} (name, parent_id, path) VALUES ($1, $2, '') RETURNING id`, [input.name, input.parent]));
  await exec(tx, `UPDATE ${table} SET path = $2 WHERE id = $1`, [id, `${parentPath}/${id}`]);
  return (await findFolder(tx, schema, id!))!;
}

/**
 * Rename and/or move a folder (`parent` null: to the root). Moving rewrites the paths of the
 * folder's whole subtree and of the files in it. `tx` must be a transaction.
 */
export async function updateFolder(tx: Db, schema: string, id: string, change: { name?: string; parent?: string | null }): Promise<Folder> {
  await lockFolders(tx, schema);
  const before = await findFolder(tx, schema, id);
  if (!before) throw folderNotFound();
  const name = change.name ?? before.name;
  const parent = change.parent === undefined ? (before.parent === null ? null : String(before.parent)) : change.parent;
  let path = before.path;
  if (change.parent !== undefined) {
    const parentPath = parent === null ? '' : await folderPathOf(tx, schema, parent, ['parent']);
    if (parentPath === before.path || parentPath.startsWith(`${before.path}/`)) {
      throw fieldError(['parent'], 'A folder cannot be moved into itself or one of its sub-folders');
    }
    path = `${parentPath}/${id}`;
  }
  await assertFreeName(tx, schema, parent, name, id);
  await orSameName(name, () => exec(tx,
    `UPDATE ${qualify(schema, FOLDERS_TABLE)} SET name = $2, parent_id = $3, updated_at = now() WHERE id = $1`, [id, name, parent]));
  if (path !== before.path) {
    // Paths hold only digits and slashes: nothing to escape for LIKE.
    await exec(tx, `UPDATE ${qualify(schema, FILES_TABLE)} SET folder_path = $2 || substr(folder_path, length($1) + 1)
      WHERE folder_path = $1 OR folder_path LIKE $1 || '/%'`, [before.path, path]);
    await exec(tx, `UPDATE ${qualify(schema, FOLDERS_TABLE)} SET path = $2 || substr(path, length($1) + 1)
      WHERE path = $1 OR path LIKE $1 || '/%'`, [before.path, path]);
  }
  return (await findFolder(tx, schema, id))!;
}

/**
 * Delete a folder with its sub-folders and every file in them, as Strapi does; resolves with the
 * deleted files (their stored objects are the caller's to delete, after the commit). `tx` must
 * be a transaction.
 */
export async function deleteFolderTree(tx: Db, schema: string, id: string): Promise<DeletedFile[]> {
  await lockFolders(tx, schema);
  const folder = await findFolder(tx, schema, id);
  if (!folder) throw folderNotFound();
  const folders = qualify(schema, FOLDERS_TABLE);
  const files = await rows<DeletedFile>(tx,
    `DELETE FROM ${qualify(schema, FILES_TABLE)} WHERE folder_id IN (SELECT id FROM ${folders} WHERE path = $1 OR path LIKE $1 || '/%')
     RETURNING id::text AS id, hash, COALESCE(ext, '') AS ext`, [folder.path]);
  // Sub-folders go with it (ON DELETE CASCADE).
  await exec(tx, `DELETE FROM ${folders} WHERE id = $1`, [id]);
  return files;
}
