// One release (`GET /v1/projects/{slug}/releases/{id}`): read again every 2 s while its schedule
// is due soon and it is not done.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { Release } from './get-releases.ts';

/** Is `iso` from a minute ahead to five minutes past: a schedule about to run (or running late)? */
export function isDueSoon(iso: string): boolean {
  const left = Date.parse(iso) - Date.now();
  return left < 60_000 && left > -300_000;
}

/** `id`: as the page's URL has it (text; a malformed one names nothing: 404). */
export async function getRelease(slug: string, id: string): Promise<Release> {
  return (await unwrap(client.GET('/v1/projects/{slug}/releases/{id}', { params: { path: { slug, id: Number(id) } } }))).data;
}

export const releaseQueryOptions = (slug: string, id: string) =>
  queryOptions({
    queryKey: projectKeys.feature(slug, 'releases', 'detail', id),
    queryFn: () => getRelease(slug, id),
    refetchInterval: ({ state: { data } }) => (data?.scheduledAt && data.status !== 'done' && isDueSoon(data.scheduledAt) ? 2000 : false),
  });

export function useRelease(slug: string, id: string) {
  return useQuery(releaseQueryOptions(slug, id));
}
