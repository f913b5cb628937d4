// Removing a member, or leaving the project (`DELETE /v1/projects/{slug}/members/{accountId}`). An
// owner removing someone refreshes the team; leaving forgets everything cached under the project
// and refreshes the account's project list.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export async function removeMember(slug: string, accountId: number): Promise<void> {
  await unwrap(client.DELETE('/v1/projects/{slug}/members/{accountId}', { params: { path: { slug, accountId } } }));
}

export function useRemoveMember(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (accountId: number) => removeMember(slug, accountId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'members') }),
  });
}

/** Leaving: removes the signed-in account (`accountId`) from the project. */
export function useLeaveProject(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (accountId: number) => removeMember(slug, accountId),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: projectKeys.all(slug) });
      return queryClient.invalidateQueries({ queryKey: projectKeys.list() });
    },
  });
}
