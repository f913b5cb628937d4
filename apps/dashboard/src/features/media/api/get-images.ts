// The newest images of the media library whose name contains a search, for the blocks editor's
// image picker, through the project's upload API (`GET /api/upload/files`). One more than shown
// is asked for: it tells whether more follow.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { contentApi, strapiQuery } from '../../../content-api.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

/** A file as `GET /api/upload/files` answers it. */
export interface UploadFile {
  id: number;
  name: string;
  alternativeText: string | null;
  caption: string | null;
  width: number | null;
  height: number | null;
  formats: Record<string, { url: string }> | null;
  hash: string;
  ext: string;
  mime: string;
  size: number;
  url: string;
  previewUrl: string | null;
  provider: string;
  createdAt: string;
  updatedAt: string;
}

const imagesQuery = (search: string, shown: number) => strapiQuery({
  sort: ['createdAt:desc', 'id:desc'],
  filters: { mime: { $startsWith: 'image/' }, ...(search ? { name: { $containsi: search } } : {}) },
  pagination: { start: 0, limit: shown + 1 },
});

export async function getImages(slug: string, search: string, shown: number): Promise<UploadFile[]> {
  return contentApi<UploadFile[]>(slug, 'GET', `/api/upload/files${imagesQuery(search, shown)}`);
}

export const imagesQueryOptions = (slug: string, search: string, shown: number) =>
  queryOptions({
    queryKey: projectKeys.feature(slug, 'media', 'images', search, shown),
    queryFn: () => getImages(slug, search, shown),
    placeholderData: keepPreviousData,
  });

/** Read on every opening (`enabled`; never stale-cached): uploads made meanwhile show up. */
export function useImages(slug: string, search: string, shown: number, enabled: boolean) {
  return useQuery({ ...imagesQueryOptions(slug, search, shown), enabled });
}
