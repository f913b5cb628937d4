// A document's scheduled publishes and unpublishes still to run
// (`GET /v1/projects/{slug}/scheduled-actions?documentId=…&status=scheduled`, every locale, soonest
// first): read again every 2 s while one is due soon.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import { isDueSoon } from './get-release.ts';

export type ScheduledAction = AnswerOf<'/v1/projects/{slug}/scheduled-actions', 'get'>['data'][number];

export async function getScheduledActions(slug: string, documentId: string): Promise<ScheduledAction[]> {
  return (await unwrap(client.GET('/v1/projects/{slug}/scheduled-actions', { params: { path: { slug }, query: { documentId, status: 'scheduled' } } }))).data;
}

const dueSoon = (list: ScheduledAction[] | undefined) => (list ?? []).some((a) => isDueSoon(a.scheduledFor.datetime));

export const scheduledActionsQueryOptions = (slug: string, documentId: string) =>
  queryOptions({
    queryKey: projectKeys.feature(slug, 'scheduled-actions', documentId),
    queryFn: () => getScheduledActions(slug, documentId),
    refetchInterval: ({ state: { data } }) => (dueSoon(data) ? 2000 : false),
  });

export function useScheduledActions(slug: string, documentId: string) {
  return useQuery(scheduledActionsQueryOptions(slug, documentId));
}
