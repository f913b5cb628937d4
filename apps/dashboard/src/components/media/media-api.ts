// The media library's data: folders and the file listing from the management API (session
// cookie), file changes through the project's upload API (content access key), as Strapi's own
// admin does them. Queries live under ['project', slug, 'media', …].
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api.ts';
import { contentApi } from '../../content-api.ts';
import { projectKey } from '../../project.ts';
import type { MediaFile } from './media-file.ts';

export interface Folder {
  id: number;
  name: string;
  parent: number | null;
  /** Ids from the root down (`/3/7`). */
  path: string;
  createdAt: string;
  updatedAt: string;
  fileCount: number;
}

/** A file as the management listing answers it (the upload API's shape plus its folder). */
export interface LibraryFile extends MediaFile {
  documentId: string;
  caption: string | null;
  focalPoint: { x: number; y: number } | null;
  width: number | null;
  height: number | null;
  hash: string;
  ext: string | null;
  /** kB (1000 bytes) */
  size: number;
  createdAt: string;
  updatedAt: string;
  folder: number | null;
}

export interface FilePage {
  files: LibraryFile[];
  pagination: { page: number; pageSize: number; pageCount: number; total: number };
}

export interface FileUsage {
  uid: string;
  documentId: string;
  locale: string | null;
  status: 'draft' | 'published';
  field: string;
  label: string;
}

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

export const mediaKey = (slug: string, ...rest: string[]) => projectKey(slug, 'media', ...rest);

const base = (slug: string) => `/v1/projects/${slug}/media`;

export function useFolders(slug: string) {
  return useQuery({ queryKey: mediaKey(slug, 'folders'), queryFn: async () => (await api<{ folders: Folder[] }>('GET', `${base(slug)}/folders`)).folders });
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

export function useFiles(slug: string, query: FileQuery) {
  const params = new URLSearchParams();
  if (query.folder !== undefined) params.set('folder', String(query.folder));
  if (query.q) params.set('q', query.q);
  if (query.types?.length) params.set('type', query.types.join(','));
  if (query.sort) params.set('sort', query.sort);
  if (query.page) params.set('page', String(query.page));
  if (query.pageSize) params.set('pageSize', String(query.pageSize));
  const search = params.toString();
  return useQuery({
    queryKey: mediaKey(slug, 'files', search),
    queryFn: () => api<FilePage>('GET', `${base(slug)}/files${search ? `?${search}` : ''}`),
    placeholderData: (previous) => previous,
    // Formats appear when the worker has made them: poll while an image still lacks them.
    refetchInterval: (q) => (q.state.data?.files.some(awaitsFormats) ? 1500 : false),
  });
}

export function useFileUsages(slug: string, fileId: number | null) {
  return useQuery({
    queryKey: mediaKey(slug, 'usages', String(fileId)),
    queryFn: async () => (await api<{ usages: FileUsage[] }>('GET', `${base(slug)}/files/${fileId}/usages`)).usages,
    enabled: fileId !== null,
  });
}

export const createFolder = (slug: string, body: { name: string; parent: number | null }) =>
  api<{ folder: Folder }>('POST', `${base(slug)}/folders`, body);

export const updateFolder = (slug: string, id: number, body: { name?: string; parent?: number | null }) =>
  api<{ folder: Folder }>('PATCH', `${base(slug)}/folders/${id}`, body);

export const deleteFolder = (slug: string, id: number) => api<void>('DELETE', `${base(slug)}/folders/${id}`);

export interface FileInfoChange {
  name?: string;
  alternativeText?: string | null;
  caption?: string | null;
  focalPoint?: { x: number; y: number } | null;
  folder?: number | null;
}

/** Strapi's `POST /api/upload?id=` with only `fileInfo`. */
export const updateFileInfo = (slug: string, id: number, fileInfo: FileInfoChange) =>
  contentApi<MediaFile>(slug, 'POST', `/api/upload?id=${id}`, { fileInfo });

export const deleteFile = (slug: string, id: number) => contentApi<MediaFile>(slug, 'DELETE', `/api/upload/files/${id}`);
