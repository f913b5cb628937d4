// Deleting a custom end-user role (`DELETE /v1/projects/{slug}/roles/{type}`; its users become
// authenticated users): the roles are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export async function deleteRole(slug: string, type: string): Promise<void> {
  await unwrap(client.DELETE('/v1/projects/{slug}/roles/{type}', { params: { path: { slug, type } } }));
}

export function useDeleteRole(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (type: string) => deleteRole(slug, type),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'roles') }),
  });
}
