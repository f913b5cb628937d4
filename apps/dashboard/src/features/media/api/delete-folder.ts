// Deleting a media folder with its sub-folders and files (`DELETE /v1/projects/{slug}/media/folders/{id}`):
// the library is read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export async function deleteFolder({ slug, id }: { slug: string; id: number }): Promise<void> {
  await unwrap(client.DELETE('/v1/projects/{slug}/media/folders/{id}', { params: { path: { slug, id } } }));
}

export function useDeleteFolder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFolder,
    onSuccess: (_answer, { slug }) => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'media') }),
  });
}
