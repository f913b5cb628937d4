// A project's releases (`GET /v1/projects/{slug}/releases`), a page at a time, pending or done,
// newest first; and the pending ones an entry can be added to.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type ReleaseList = AnswerOf<'/v1/projects/{slug}/releases', 'get'>;
export type Release = ReleaseList['data'][number];
export type ReleaseStatus = Release['status'];
/** The Releases page's tabs. */
export type ReleaseFilter = 'pending' | 'done';

export async function getReleases(slug: string, status: ReleaseFilter, page = 1, pageSize?: number): Promise<ReleaseList> {
  const query = { status, ...(pageSize ? { pageSize } : { page }) };
  return unwrap(client.GET('/v1/projects/{slug}/releases', { params: { path: { slug }, query } }));
}

export const releasesQueryOptions = (slug: string, status: ReleaseFilter, page = 1) =>
  queryOptions({ queryKey: projectKeys.feature(slug, 'releases', 'list', status, page), queryFn: () => getReleases(slug, status, page) });

export function useReleases(slug: string, status: ReleaseFilter, page = 1) {
  return useQuery(releasesQueryOptions(slug, status, page));
}

/** Pending releases to add an entry to (the first 100). */
export const pendingReleasesQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: projectKeys.feature(slug, 'releases', 'list', 'pending', 'all'),
    queryFn: async () => (await getReleases(slug, 'pending', 1, 100)).data,
  });

export function usePendingReleases(slug: string) {
  return useQuery(pendingReleasesQueryOptions(slug));
}
