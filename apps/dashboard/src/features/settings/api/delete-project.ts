// Deleting a project (`DELETE /v1/projects/{slug}`, owners; restorable for 7 days from the
// projects page): everything cached under it is forgotten and the project list read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export async function deleteProject(slug: string): Promise<void> {
  await unwrap(client.DELETE('/v1/projects/{slug}', { params: { path: { slug } } }));
}

export function useDeleteProject(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteProject(slug),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: projectKeys.all(slug) });
      await queryClient.invalidateQueries({ queryKey: projectKeys.list() });
    },
  });
}
