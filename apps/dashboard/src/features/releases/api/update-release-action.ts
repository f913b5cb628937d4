// Switching a release's action between publish and unpublish
// (`PUT /v1/projects/{slug}/releases/{id}/actions/{actionId}`): the project's releases are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { ActionType } from './get-release-actions.ts';

export async function updateReleaseAction({ slug, releaseId, actionId, type }: { slug: string; releaseId: number; actionId: number; type: ActionType }) {
  const path = { slug, id: releaseId, actionId };
  return (await unwrap(client.PUT('/v1/projects/{slug}/releases/{id}/actions/{actionId}', { params: { path }, body: { type } }))).data;
}

export function useUpdateReleaseAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateReleaseAction,
    onSuccess: (_action, { slug }) => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'releases') }),
  });
}
