// The dashboard's listing of a project's files (the management API's `GET …/media/files`): by
// folder, name search, type and sort, one page at a time. Each file is shaped as the upload API
// answers it, plus the `folder` it is in (Strapi's answers have no such key, so it is only here).
import { qualify, rows, type Db } from '@cms/db';
import { FILES_TABLE } from '@cms/tables';
import { ValidationError } from '@cms/errors';
import { idOf } from './folder-input.ts';

export const FILE_TYPES = ['image', 'video', 'audio', 'file'] as const;
export type FileType = (typeof FILE_TYPES)[number];

const SORT_COLUMNS = { name: 'name', createdAt: 'created_at', updatedAt: 'updated_at', size: 'size' } as const;
type SortField = keyof typeof SORT_COLUMNS;

export const DEFAULT_FILE_PAGE_SIZE = 50;
export const MAX_FILE_PAGE_SIZE = 100;
const MAX_SEARCH = 200;
const KEYS = ['folder', 'q', 'type', 'sort', 'page', 'pageSize'];

export interface FileListQuery {
  /** A folder id, `root` (files in no folder), or undefined (every file). */
  folder?: string | 'root';
  q?: string;
  /** Files of any of these types (`file`: neither image, video nor audio). */
  types: FileType[];
  sort: { field: SortField; direction: 'asc' | 'desc' };
  page: number;
  pageSize: number;
}

export interface ListedFile {
  id: number;
  documentId: string;
  name: string;
  alternativeText: string | null;
  caption: string | null;
  focalPoint: { x: number; y: number } | null;
  width: number | null;
  height: number | null;
  formats: Record<string, unknown> | null;
  hash: string;
  ext: string | null;
  mime: string;
  size: number;
  url: string;
  previewUrl: string | null;
  provider: string;
  provider_metadata: unknown;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  /** The folder's id; null at the root. */
  folder: number | null;
}

export interface FilePage {
  files: ListedFile[];
  pagination: { page: number; pageSize: number; pageCount: number; total: number };
}

const invalid = (key: string, message: string) =>
  ValidationError.fromFieldErrors([{ path: [key], message: message.slice(0, 300), name: 'ValidationError' }]);

function positiveInt(key: string, raw: string, max: number): number {
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) throw invalid(key, `${key} must be an integer from 1 to ${max}`);
  return Number(raw);
}

/** The query string of the listing; unknown keys and malformed values are a 400 naming the key. */
export function parseFileListQuery(query: Record<string, unknown>): FileListQuery {
  const text: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (!KEYS.includes(key)) throw invalid(key, `${key} is not a valid key`);
    if (typeof value !== 'string') throw invalid(key, `${key} must be given once, as text`);
    text[key] = value;
  }
  const out: FileListQuery = { types: [], sort: { field: 'createdAt', direction: 'desc' }, page: 1, pageSize: DEFAULT_FILE_PAGE_SIZE };
  if (text.folder !== undefined && text.folder !== '') {
    const id = text.folder === 'root' ? 'root' : idOf(text.folder);
    if (id === null) throw invalid('folder', 'folder must be a folder id or root');
    out.folder = id;
  }
  if (text.q !== undefined && text.q.trim() !== '') {
    if (text.q.length > MAX_SEARCH) throw invalid('q', `q must be at most ${MAX_SEARCH} characters`);
    out.q = text.q.trim();
  }
  if (text.type !== undefined && text.type !== '') {
    for (const type of text.type.split(',')) {
      if (!(FILE_TYPES as readonly string[]).includes(type)) throw invalid('type', `type must be one or more of ${FILE_TYPES.join(', ')}, separated by commas`);
      if (!out.types.includes(type as FileType)) out.types.push(type as FileType);
    }
  }
  if (text.sort !== undefined && text.sort !== '') {
    const [field, direction = 'asc', extra] = text.sort.split(':');
    if (!Object.hasOwn(SORT_COLUMNS, field!) || (direction !== 'asc' && direction !== 'desc') || extra !== undefined) {
      throw invalid('sort', `sort must be one of ${Object.keys(SORT_COLUMNS).join(', ')}, with :asc or :desc`);
    }
    out.sort = { field: field as SortField, direction };
  }
  if (text.page !== undefined) out.page = positiveInt('page', text.page, 1_000_000);
  if (text.pageSize !== undefined) out.pageSize = positiveInt('pageSize', text.pageSize, MAX_FILE_PAGE_SIZE);
  return out;
}

const MEDIA_PREFIXES: Record<Exclude<FileType, 'file'>, string> = { image: 'image/', video: 'video/', audio: 'audio/' };

/** One page of files matching the query. The caller checks that a given folder exists. */
export async function listFiles(db: Db, schema: string, query: FileListQuery): Promise<FilePage> {
  const values: unknown[] = [];
  const bind = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const where: string[] = [];
  if (query.folder === 'root') where.push('folder_id IS NULL');
  else if (query.folder !== undefined) where.push(`folder_id = ${bind(query.folder)}`);
  // Case-insensitive "contains", the search term taken literally.
  if (query.q !== undefined) where.push(`name ILIKE '%' || ${bind(query.q.replace(/[\\%_]/g, (c) => `\\${c}`))} || '%'`);
  if (query.types.length > 0) {
    const media = Object.values(MEDIA_PREFIXES).map((p) => `mime LIKE '${p}%'`);
    where.push(`(${query.types.map((type) => type === 'file' ? `NOT (${media.join(' OR ')})` : `mime LIKE ${bind(`${MEDIA_PREFIXES[type]}%`)}`).join(' OR ')})`);
  }
  const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const column = SORT_COLUMNS[query.sort.field];
  const order = `${column === 'name' ? 'lower(name)' : column} ${query.sort.direction}, id ${query.sort.direction}`;
  const table = qualify(schema, FILES_TABLE);
  const offset = (query.page - 1) * query.pageSize;
  const found = await rows<ListedFile & { total: number }>(db,
    `SELECT id, document_id AS "documentId", name, alternative_text AS "alternativeText", caption, focal_point AS "focalPoint",
       width, height, formats, hash, ext, mime, size::float8 AS size, url, preview_url AS "previewUrl", provider,
       provider_metadata, created_at AS "createdAt", updated_at AS "updatedAt", published_at AS "publishedAt",
       folder_id AS folder, count(*) OVER ()::int AS total
     FROM ${table} ${filter} ORDER BY ${order} LIMIT ${bind(query.pageSize)} OFFSET ${bind(offset)}`, values);
  // Past the last page there is no row to carry the total: count on its own.
  const total = found[0]?.total ?? (offset === 0 ? 0 : (await rows<{ n: number }>(db,
    `SELECT count(*)::int AS n FROM ${table} ${filter}`, values.slice(0, -2)))[0]!.n);
  return {
    files: found.map(({ total: _total, ...file }) => file),
    pagination: { page: query.page, pageSize: query.pageSize, pageCount: Math.ceil(total / query.pageSize), total },
  };
}
