// The media library in Strapi's data-transfer format (exports): each file row as an entity of
// `plugin::upload.file`, and its stored objects (the original and every format) as assets with
// the metadata Strapi's import needs to find the row again (`hash`, and a format's `mainHash`).
import { isoTimestamp, qualify, rows, type Db } from '@cms/db';
import { FILES_TABLE } from '@cms/tables';
import type { Formats } from './file-rows.ts';

const PAGE = 500;

export interface ExportedFile {
  id: string;
  /** The entity's `data`, as Strapi's export writes it. */
  data: Record<string, unknown>;
  /** The stored objects of the file: the original first, then its formats. */
  assets: Array<{ fileName: string; metadata: Record<string, unknown> }>;
}

interface Row {
  id: string;
  documentId: string;
  name: string;
  alternativeText: string | null;
  caption: string | null;
  focalPoint: unknown;
  width: number | null;
  height: number | null;
  formats: Formats | null;
  hash: string;
  ext: string | null;
  mime: string;
  size: number;
  url: string;
  previewUrl: string | null;
  provider: string;
  provider_metadata: unknown;
  folderPath: string;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
}

const SELECT = `SELECT id::text AS id, document_id AS "documentId", name, alternative_text AS "alternativeText", caption,
  focal_point AS "focalPoint", width, height, formats, hash, ext, mime, size::float8 AS size, url, preview_url AS "previewUrl",
  provider, provider_metadata, folder_path AS "folderPath", ${isoTimestamp('created_at')} AS "createdAt",
  ${isoTimestamp('updated_at')} AS "updatedAt", CASE WHEN published_at IS NULL THEN NULL ELSE ${isoTimestamp('published_at')} END AS "publishedAt"`;

/** Strapi's URL of a stored object on its `local` provider (what a Strapi app serves the file at). */
const localUrl = (hash: string, ext: string) => `/uploads/${hash}${ext}`;

export async function* exportFiles(db: Db, schema: string): AsyncGenerator<ExportedFile> {
  const text = `${SELECT} FROM ${qualify(schema, FILES_TABLE)} WHERE id > $1 ORDER BY id LIMIT ${PAGE}`;
  for (let after = '0'; ;) {
    const page = await rows<Row>(db, text, [after]);
    for (const row of page) yield exported(row);
    if (page.length < PAGE) return;
    after = page[page.length - 1]!.id;
  }
}

function exported(row: Row): ExportedFile {
  const ext = row.ext ?? '';
  // URLs as a Strapi on its local provider has them: a Strapi importing the archive stores the
  // objects with its own provider and rewrites them.
  const formats = row.formats && Object.fromEntries(Object.entries(row.formats).map(([name, f]) => [name, { ...f, url: localUrl(f.hash, f.ext) }]));
  const { id, ...fields } = row;
  const data = { ...fields, ext: row.ext, formats, url: localUrl(row.hash, ext), provider: 'local', locale: null };
  const assets: ExportedFile['assets'] = [{ fileName: `${row.hash}${ext}`, metadata: { id: Number(id), ...data } }];
  for (const [type, f] of Object.entries(row.formats ?? {})) {
    assets.push({ fileName: `${f.hash}${f.ext}`, metadata: { ...f, url: localUrl(f.hash, f.ext), type, id: Number(id), mainHash: row.hash } });
  }
  return { id, data, assets };
}
