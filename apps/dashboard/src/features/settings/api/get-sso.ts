// A project's single sign-on (`GET /v1/projects/{slug}/sso`, owners of an enterprise project): its
// OpenID Connect connection (null when none is set up) and the callback URL to register at the
// provider.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type SsoAnswer = AnswerOf<'/v1/projects/{slug}/sso', 'get'>;
export type SsoConnection = NonNullable<SsoAnswer['sso']>;

export async function getSso(slug: string): Promise<SsoAnswer> {
  return unwrap(client.GET('/v1/projects/{slug}/sso', { params: { path: { slug } } }));
}

export const ssoQueryOptions = (slug: string) => queryOptions({ queryKey: projectKeys.feature(slug, 'sso'), queryFn: () => getSso(slug) });

export function useSso(slug: string) {
  return useQuery(ssoQueryOptions(slug));
}
