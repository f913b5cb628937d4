// A release's actions (`GET /v1/projects/{slug}/releases/{id}/actions`): all of them, in the order
// they were added, read in pages of 100.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type ReleaseAction = AnswerOf<'/v1/projects/{slug}/releases/{id}/actions', 'get'>['data'][number];
export type ActionType = ReleaseAction['type'];

export async function getReleaseActions(slug: string, id: string): Promise<ReleaseAction[]> {
  const out: ReleaseAction[] = [];
  for (let page = 1; ; page++) {
    const res = await unwrap(client.GET('/v1/projects/{slug}/releases/{id}/actions', {
      params: { path: { slug, id }, query: { page: String(page), pageSize: '100' } },
    }));
    out.push(...res.data);
    if (page >= res.meta.pagination.pageCount) return out;
  }
}

export const releaseActionsQueryOptions = (slug: string, id: string) =>
  queryOptions({ queryKey: projectKeys.feature(slug, 'releases', 'actions', id), queryFn: () => getReleaseActions(slug, id) });

export function useReleaseActions(slug: string, id: string) {
  return useQuery(releaseActionsQueryOptions(slug, id));
}
