// A project's GraphQL settings (`GET /v1/projects/{slug}/settings/graphql`): page sizes, depth and
// cost limits, introspection and the playground.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type GraphqlSettings = AnswerOf<'/v1/projects/{slug}/settings/graphql', 'get'>['graphql'];

export async function getGraphqlSettings(slug: string): Promise<GraphqlSettings> {
  return (await unwrap(client.GET('/v1/projects/{slug}/settings/graphql', { params: { path: { slug } } }))).graphql;
}

export const graphqlSettingsQueryOptions = (slug: string) =>
  queryOptions({ queryKey: projectKeys.feature(slug, 'settings', 'graphql'), queryFn: () => getGraphqlSettings(slug) });

export function useGraphqlSettings(slug: string) {
  return useQuery(graphqlSettingsQueryOptions(slug));
}
