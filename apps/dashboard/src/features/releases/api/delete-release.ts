// Deleting a release (`DELETE /v1/projects/{slug}/releases/{id}`; its entries do not change): the
// release lists are read again (not the release itself: it is gone, its page is left).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export async function deleteRelease({ slug, id }: { slug: string; id: number }): Promise<void> {
  await unwrap(client.DELETE('/v1/projects/{slug}/releases/{id}', { params: { path: { slug, id } } }));
}

export function useDeleteRelease() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRelease,
    onSuccess: (_answer, { slug }) => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'releases', 'list') }),
  });
}
