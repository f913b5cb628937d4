// A page of the media library's files (`GET /v1/projects/{slug}/media/files`): one folder's or,
// searching, every folder's; by type, sorted. Read again while an image still lacks its formats.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

/** A page of files; each as the upload API answers it (`focalPoint` `{x, y}`, `formats` by name), plus its folder. */
export type FilePage = AnswerOf<'/v1/projects/{slug}/media/files', 'get'>;
export type LibraryFile = FilePage['files'][number];

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

/** The listing's query string parameters, in the order they are sent (the given ones only). */
function paramsOf(query: FileQuery) {
  return {
    ...(query.folder !== undefined ? { folder: query.folder } : {}),
    ...(query.q ? { q: query.q } : {}),
    ...(query.types?.length ? { type: query.types.join(',') } : {}),
    ...(query.sort ? { sort: query.sort } : {}),
    ...(query.page ? { page: query.page } : {}),
    ...(query.pageSize ? { pageSize: query.pageSize } : {}),
  };
}

export async function getFiles(slug: string, query: FileQuery): Promise<FilePage> {
  return unwrap(client.GET('/v1/projects/{slug}/media/files', { params: { path: { slug }, query: paramsOf(query) } }));
}

export const filesQueryOptions = (slug: string, query: FileQuery) =>
  queryOptions({
    queryKey: projectKeys.feature(slug, 'media', 'files', paramsOf(query)),
    queryFn: () => getFiles(slug, query),
    placeholderData: (previous) => previous,
    // Formats appear when the worker has made them: poll while an image still lacks them.
    refetchInterval: (q) => (q.state.data?.files.some(awaitsFormats) ? 1500 : false),
  });

export function useFiles(slug: string, query: FileQuery) {
  return useQuery(filesQueryOptions(slug, query));
}
