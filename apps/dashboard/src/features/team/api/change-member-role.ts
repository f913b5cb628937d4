// Changing a member's role (`PATCH /v1/projects/{slug}/members/{accountId}`, owners): the team is
// refreshed, and the project too when the member is the signed-in account (its own role changed).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import { sessionQueryOptions } from '../../auth/api/get-session.ts';
import type { ProjectRole } from '../../projects/api/get-project.ts';
import type { Member } from './get-team.ts';

export async function changeMemberRole(slug: string, accountId: number, role: ProjectRole): Promise<Member> {
  return (await unwrap(client.PATCH('/v1/projects/{slug}/members/{accountId}', { params: { path: { slug, accountId } }, body: { role } }))).member;
}

export function useChangeMemberRole(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ accountId, role }: { accountId: number; role: ProjectRole }) => changeMemberRole(slug, accountId, role),
    onSuccess: async (_member, { accountId }) => {
      await queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'members') });
      if (accountId === queryClient.getQueryData(sessionQueryOptions().queryKey)?.id) {
        await queryClient.invalidateQueries({ queryKey: projectKeys.detail(slug) });
      }
    },
  });
}
