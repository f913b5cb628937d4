// Creating a media folder (`POST /v1/projects/{slug}/media/folders`): the library is read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, type RequestBody } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type CreateFolderBody = RequestBody<'/v1/projects/{slug}/media/folders', 'post'>;

export async function createFolder({ slug, body }: { slug: string; body: CreateFolderBody }) {
  return (await unwrap(client.POST('/v1/projects/{slug}/media/folders', { params: { path: { slug } }, body }))).folder;
}

export function useCreateFolder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFolder,
    onSuccess: (_folder, { slug }) => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'media') }),
  });
}
