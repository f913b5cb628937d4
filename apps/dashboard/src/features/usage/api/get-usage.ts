// A project's usage this month against its plan's limits (`GET /v1/projects/{slug}/usage`): read
// by the Overview (first steps), Billing and Usage pages, under one key with this one type.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type Usage = AnswerOf<'/v1/projects/{slug}/usage', 'get'>;
/** A plan's limits; a negative limit means none. */
export type PlanLimits = Usage['limits'];

export async function getUsage(slug: string): Promise<Usage> {
  return unwrap(client.GET('/v1/projects/{slug}/usage', { params: { path: { slug } } }));
}

export const usageQueryOptions = (slug: string) => queryOptions({ queryKey: projectKeys.feature(slug, 'usage', 'month'), queryFn: () => getUsage(slug) });

export function useUsage(slug: string) {
  return useQuery(usageQueryOptions(slug));
}
