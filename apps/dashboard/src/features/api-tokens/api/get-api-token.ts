// One API token (`GET /v1/projects/{slug}/api-tokens/{id}`): with its description and last use,
// which the list has not.
import { queryOptions, useQueries } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type ApiTokenDetail = AnswerOf<'/v1/projects/{slug}/api-tokens/{id}', 'get'>['apiToken'];

export async function getApiToken(slug: string, id: number): Promise<ApiTokenDetail> {
  return (await unwrap(client.GET('/v1/projects/{slug}/api-tokens/{id}', { params: { path: { slug, id } } }))).apiToken;
}

export const apiTokenQueryOptions = (slug: string, id: number) =>
  queryOptions({ queryKey: projectKeys.feature(slug, 'api-tokens', 'detail', id), queryFn: () => getApiToken(slug, id) });

/** The details of the tokens `ids`, in their order. */
export function useApiTokenDetails(slug: string, ids: number[]) {
  return useQueries({ queries: ids.map((id) => apiTokenQueryOptions(slug, id)) });
}
