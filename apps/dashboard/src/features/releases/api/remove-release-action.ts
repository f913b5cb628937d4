// Removing an entry from a release (`DELETE /v1/projects/{slug}/releases/{id}/actions/{actionId}`):
// the project's releases are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export async function removeReleaseAction({ slug, releaseId, actionId }: { slug: string; releaseId: number; actionId: number }): Promise<void> {
  const path = { slug, id: releaseId, actionId };
  await unwrap(client.DELETE('/v1/projects/{slug}/releases/{id}/actions/{actionId}', { params: { path } }));
}

export function useRemoveReleaseAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeReleaseAction,
    onSuccess: (_answer, { slug }) => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'releases') }),
  });
}
