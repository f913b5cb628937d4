// Deleting a webhook (`DELETE /v1/projects/{slug}/webhooks/{id}`) with its delivery log: the
// project's webhooks are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export async function deleteWebhook(slug: string, id: number): Promise<void> {
  await unwrap(client.DELETE('/v1/projects/{slug}/webhooks/{id}', { params: { path: { slug, id } } }));
}

export function useDeleteWebhook(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteWebhook(slug, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'webhooks') }),
  });
}
