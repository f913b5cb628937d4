// A release's actions (`GET /v1/projects/{slug}/releases/{id}/actions`): all of them, in the order
// they were added, read in pages of 100.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type ReleaseAction = AnswerOf<'/v1/projects/{slug}/releases/{id}/actions', 'get'>['data'][number];
export type ActionType = ReleaseAction['type'];

/** `id`: the release's, as the page's URL has it (text; a malformed one names nothing: 404). */
export async function getReleaseActions(slug: string, id: string): Promise<ReleaseAction[]> {
  const out: ReleaseAction[] = [];
  for (let page = 1; ; page++) {
    const res = await unwrap(client.GET('/v1/projects/{slug}/releases/{id}/actions', {
      params: { path: { slug, id: Number(id) }, query: { page, pageSize: 100 } },
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
