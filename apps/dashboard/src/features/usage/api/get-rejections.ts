// A project's requests refused by rate limits over the Usage page's window, per day and in total, by
// the limit that refused them (`GET /v1/projects/{slug}/usage/rejections`).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import { USAGE_DAYS } from './get-daily-usage.ts';

export type UsageRejections = AnswerOf<'/v1/projects/{slug}/usage/rejections', 'get'>;
/** Rejections by limit: per second, the monthly quota, the end users' auth routes. */
export type Rejections = UsageRejections['total'];

export async function getRejections(slug: string): Promise<UsageRejections> {
  return unwrap(client.GET('/v1/projects/{slug}/usage/rejections', { params: { path: { slug }, query: { days: USAGE_DAYS } } }));
}

export const rejectionsQueryOptions = (slug: string) => queryOptions({ queryKey: projectKeys.feature(slug, 'usage', 'rejections'), queryFn: () => getRejections(slug) });

export function useRejections(slug: string) {
  return useQuery(rejectionsQueryOptions(slug));
}
