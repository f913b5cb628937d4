// Sending a webhook a test event (`POST /v1/projects/{slug}/webhooks/{id}/test`): the answer is the
// delivery and its attempt; the webhooks and their logs are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export async function testWebhook(slug: string, id: number) {
  return (await unwrap(client.POST('/v1/projects/{slug}/webhooks/{id}/test', { params: { path: { slug, id } } }))).delivery;
}

export function useTestWebhook(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => testWebhook(slug, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'webhooks') }),
  });
}
