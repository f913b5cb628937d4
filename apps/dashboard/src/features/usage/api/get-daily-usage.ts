// A project's requests per day over the Usage page's window, oldest first, zeros included, with the
// requests rate limits refused (`GET /v1/projects/{slug}/usage/daily`).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

/** The window of the Usage page: the last 30 days, today included (UTC). */
export const USAGE_DAYS = 30;

export type UsageDay = AnswerOf<'/v1/projects/{slug}/usage/daily', 'get'>['days'][number];

export async function getDailyUsage(slug: string): Promise<UsageDay[]> {
  return (await unwrap(client.GET('/v1/projects/{slug}/usage/daily', { params: { path: { slug }, query: { days: USAGE_DAYS } } }))).days;
}

export const dailyUsageQueryOptions = (slug: string) => queryOptions({ queryKey: projectKeys.feature(slug, 'usage', 'daily'), queryFn: () => getDailyUsage(slug) });

export function useDailyUsage(slug: string) {
  return useQuery(dailyUsageQueryOptions(slug));
}
