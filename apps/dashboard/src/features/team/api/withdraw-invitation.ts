// Withdrawing a pending invitation (`DELETE /v1/projects/{slug}/invitations/{id}`, owners): its
// link stops working, and the team is refreshed.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export async function withdrawInvitation(slug: string, id: number): Promise<void> {
  await unwrap(client.DELETE('/v1/projects/{slug}/invitations/{id}', { params: { path: { slug, id } } }));
}

export function useWithdrawInvitation(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => withdrawInvitation(slug, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'members') }),
  });
}
