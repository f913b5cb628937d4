// Renaming or moving a media folder (`PATCH /v1/projects/{slug}/media/folders/{id}`): the library
// is read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, type RequestBody } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type UpdateFolderBody = RequestBody<'/v1/projects/{slug}/media/folders/{id}', 'patch'>;

export async function updateFolder({ slug, id, body }: { slug: string; id: number; body: UpdateFolderBody }) {
  return (await unwrap(client.PATCH('/v1/projects/{slug}/media/folders/{id}', { params: { path: { slug, id } }, body }))).folder;
}

export function useUpdateFolder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFolder,
    onSuccess: (_folder, { slug }) => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'media') }),
  });
}
