// A project's API tokens (`GET /v1/projects/{slug}/api-tokens`): name, type, permissions, dates;
// never their keys. Their last use is in each token's detail (get-api-token.ts).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type Schemas } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type ApiToken = Schemas['ApiToken'];

export async function getApiTokens(slug: string): Promise<ApiToken[]> {
  return (await unwrap(client.GET('/v1/projects/{slug}/api-tokens', { params: { path: { slug } } }))).apiTokens;
}

export const apiTokensQueryOptions = (slug: string) =>
  queryOptions({ queryKey: projectKeys.feature(slug, 'api-tokens', 'list'), queryFn: () => getApiTokens(slug) });

export function useApiTokens(slug: string) {
  return useQuery(apiTokensQueryOptions(slug));
}
