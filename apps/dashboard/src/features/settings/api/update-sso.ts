// Saving a project's single sign-on (`PUT /v1/projects/{slug}/sso`; the client secret only when it
// changes): the answer is the connection as saved, cached as it is.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, type RequestBody } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { SsoAnswer } from './get-sso.ts';

export type SsoBody = RequestBody<'/v1/projects/{slug}/sso', 'put'>;

export async function updateSso(slug: string, body: SsoBody): Promise<SsoAnswer> {
  return unwrap(client.PUT('/v1/projects/{slug}/sso', { params: { path: { slug } }, body }));
}

export function useUpdateSso(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SsoBody) => updateSso(slug, body),
    onSuccess: (saved) => queryClient.setQueryData<SsoAnswer>(projectKeys.feature(slug, 'sso'), saved),
  });
}
