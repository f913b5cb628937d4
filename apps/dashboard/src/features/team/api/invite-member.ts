// Inviting someone by e-mail with a role (`POST /v1/projects/{slug}/invitations`, owners): the
// team's pending invitations are refreshed.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, type RequestBody } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { Invitation } from './get-team.ts';

export type InviteBody = RequestBody<'/v1/projects/{slug}/invitations', 'post'>;

export async function inviteMember(slug: string, body: InviteBody): Promise<Invitation> {
  return (await unwrap(client.POST('/v1/projects/{slug}/invitations', { params: { path: { slug } }, body }))).invitation;
}

export function useInviteMember(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: InviteBody) => inviteMember(slug, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'members') }),
  });
}
