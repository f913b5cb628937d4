// Accepting an invitation with its mailed token (`POST /v1/invitations/accept`): the project joined
// is cached as it answers (its page opens next) and the account's project list is refreshed.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import { projectQueryOptions, type Project } from '../../projects/api/get-project.ts';

export async function acceptInvitation(token: string): Promise<Project> {
  return (await unwrap(client.POST('/v1/invitations/accept', { body: { token } }))).project;
}

export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptInvitation,
    onSuccess: (project) => {
      queryClient.setQueryData(projectQueryOptions(project.slug).queryKey, project);
      return queryClient.invalidateQueries({ queryKey: projectKeys.list() });
    },
  });
}
