// A project's CORS settings, its browser access (`GET /v1/projects/{slug}/settings/cors`): the
// allowed origins, credentials, and how long a preflight is cached.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type CorsSettings = AnswerOf<'/v1/projects/{slug}/settings/cors', 'get'>['cors'];

export async function getCorsSettings(slug: string): Promise<CorsSettings> {
  return (await unwrap(client.GET('/v1/projects/{slug}/settings/cors', { params: { path: { slug } } }))).cors;
}

export const corsSettingsQueryOptions = (slug: string) =>
  queryOptions({ queryKey: projectKeys.feature(slug, 'settings', 'cors'), queryFn: () => getCorsSettings(slug) });

export function useCorsSettings(slug: string) {
  return useQuery(corsSettingsQueryOptions(slug));
}
