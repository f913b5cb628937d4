// Removing a project's single sign-on (`DELETE /v1/projects/{slug}/sso`): its members signed in
// through the provider are signed out; the cached connection becomes none (the callback URL stays).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { SsoAnswer } from './get-sso.ts';

export async function deleteSso(slug: string): Promise<void> {
  await unwrap(client.DELETE('/v1/projects/{slug}/sso', { params: { path: { slug } } }));
}

export function useDeleteSso(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteSso(slug),
    onSuccess: () => queryClient.setQueryData<SsoAnswer>(projectKeys.feature(slug, 'sso'), (old) => old && { ...old, sso: null }),
  });
}
