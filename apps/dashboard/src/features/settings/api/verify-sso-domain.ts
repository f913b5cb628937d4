// Proving a single sign-on's e-mail domain (`POST /v1/projects/{slug}/sso/verify-domain`: the API
// looks up its DNS TXT record): the answer is the connection, its domain verified, cached as it is.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { SsoAnswer } from './get-sso.ts';

export async function verifySsoDomain(slug: string): Promise<SsoAnswer> {
  return unwrap(client.POST('/v1/projects/{slug}/sso/verify-domain', { params: { path: { slug } } }));
}

export function useVerifySsoDomain(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => verifySsoDomain(slug),
    onSuccess: (verified) => queryClient.setQueryData<SsoAnswer>(projectKeys.feature(slug, 'sso'), verified),
  });
}
