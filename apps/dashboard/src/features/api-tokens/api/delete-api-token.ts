// Revoking an API token (`DELETE /v1/projects/{slug}/api-tokens/{id}`: apps using it get 401 from
// then on): the project's tokens are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export async function deleteApiToken(slug: string, id: number): Promise<void> {
  await unwrap(client.DELETE('/v1/projects/{slug}/api-tokens/{id}', { params: { path: { slug, id } } }));
}

export function useDeleteApiToken(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteApiToken(slug, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'api-tokens') }),
  });
}
