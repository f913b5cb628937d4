// Adding an entry to a release (`POST /v1/projects/{slug}/releases/{id}/actions`): to publish or
// unpublish it with the others. The project's releases are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, type RequestBody } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type AddReleaseActionBody = RequestBody<'/v1/projects/{slug}/releases/{id}/actions', 'post'>;

export async function addReleaseAction({ slug, releaseId, body }: { slug: string; releaseId: number; body: AddReleaseActionBody }) {
  return (await unwrap(client.POST('/v1/projects/{slug}/releases/{id}/actions', { params: { path: { slug, id: releaseId } }, body }))).data;
}

export function useAddReleaseAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addReleaseAction,
    onSuccess: (_action, { slug }) => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'releases') }),
  });
}
