// A page of the media library's files (`GET /v1/projects/{slug}/media/files`): one folder's or,
// searching, every folder's; by type, sorted. Read again while an image still lacks its formats.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { FocalPoint } from '../components/FocalPointPicker.tsx';
import type { MediaFile } from '../components/media-file.ts';

type FileList = AnswerOf<'/v1/projects/{slug}/media/files', 'get'>;
type ListedFile = FileList['files'][number];

/**
 * A file as the listing answers it (the upload API's shape plus its folder). The document types
 * `focalPoint` and `formats` as open objects: they are the upload API's `{x, y}` and formats by name.
 */
export type LibraryFile = Omit<ListedFile, 'focalPoint' | 'formats'> & { focalPoint: FocalPoint; formats: MediaFile['formats'] };

export type FilePage = Omit<FileList, 'files'> & { files: LibraryFile[] };

export type FileTypeFilter = 'image' | 'video' | 'audio' | 'file';

export interface FileQuery {
  /** A folder id, or `root`; undefined lists every file. */
  folder?: number | 'root';
  q?: string;
  types?: FileTypeFilter[];
  sort?: string;
  page?: number;
  pageSize?: number;
}

/**
 * Resizable images get their formats (and dimensions) from a worker after the upload. Width is
 * recorded when processing ends, so a null width means it has not: wait, but not forever (an
 * image the worker cannot decode stays without them).
 */
const RESIZABLE = /^image\/(jpeg|png|webp|tiff|gif|avif)$/;
const MAX_WAIT_MS = 60_000;
export const awaitsFormats = (file: LibraryFile) =>
  file.formats === null && file.width === null && RESIZABLE.test(file.mime) && Date.now() - Date.parse(file.updatedAt) < MAX_WAIT_MS;

/** The listing's query string parameters, in the order they are sent. */
function searchOf(query: FileQuery): Record<string, string> {
  const params: Record<string, string> = {};
  if (query.folder !== undefined) params.folder = String(query.folder);
  if (query.q) params.q = query.q;
  if (query.types?.length) params.type = query.types.join(',');
  if (query.sort) params.sort = query.sort;
  if (query.page) params.page = String(query.page);
  if (query.pageSize) params.pageSize = String(query.pageSize);
  return params;
}

export async function getFiles(slug: string, query: FileQuery): Promise<FilePage> {
  const page = await unwrap(client.GET('/v1/projects/{slug}/media/files', { params: { path: { slug }, query: searchOf(query) } }));
  // focalPoint and formats: see LibraryFile.
  return page as FilePage;
}

export const filesQueryOptions = (slug: string, query: FileQuery) =>
  queryOptions({
    queryKey: projectKeys.feature(slug, 'media', 'files', new URLSearchParams(searchOf(query)).toString()),
    queryFn: () => getFiles(slug, query),
    placeholderData: (previous) => previous,
    // Formats appear when the worker has made them: poll while an image still lacks them.
    refetchInterval: (q) => (q.state.data?.files.some(awaitsFormats) ? 1500 : false),
  });

export function useFiles(slug: string, query: FileQuery) {
  return useQuery(filesQueryOptions(slug, query));
}
