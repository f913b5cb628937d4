// A project's busiest routes over the Usage page's window (`GET /v1/projects/{slug}/usage/routes`).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import { USAGE_DAYS } from './get-daily-usage.ts';

export const TOP_ROUTES = 10;

export type RouteUsage = AnswerOf<'/v1/projects/{slug}/usage/routes', 'get'>['routes'][number];

export async function getTopRoutes(slug: string): Promise<RouteUsage[]> {
  return (await unwrap(client.GET('/v1/projects/{slug}/usage/routes', { params: { path: { slug }, query: { days: USAGE_DAYS, limit: TOP_ROUTES } } }))).routes;
}

export const topRoutesQueryOptions = (slug: string) => queryOptions({ queryKey: projectKeys.feature(slug, 'usage', 'routes'), queryFn: () => getTopRoutes(slug) });

export function useTopRoutes(slug: string) {
  return useQuery(topRoutesQueryOptions(slug));
}
