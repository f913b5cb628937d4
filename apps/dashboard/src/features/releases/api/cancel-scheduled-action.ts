// Cancelling a scheduled action (`DELETE /v1/projects/{slug}/scheduled-actions/{id}`): the
// document's scheduled actions are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export async function cancelScheduledAction({ slug, id }: { slug: string; id: number; documentId: string }): Promise<void> {
  await unwrap(client.DELETE('/v1/projects/{slug}/scheduled-actions/{id}', { params: { path: { slug, id } } }));
}

export function useCancelScheduledAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelScheduledAction,
    onSuccess: (_answer, { slug, documentId }) => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'scheduled-actions', documentId) }),
  });
}
