// Replaying a failed delivery (`POST /v1/projects/{slug}/webhooks/{id}/deliveries/{deliveryId}/replay`):
// it is queued again; the webhooks and their logs are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export async function replayDelivery(slug: string, webhookId: number, deliveryId: number) {
  const path = { slug, id: webhookId, deliveryId };
  return (await unwrap(client.POST('/v1/projects/{slug}/webhooks/{id}/deliveries/{deliveryId}/replay', { params: { path } }))).delivery;
}

export function useReplayDelivery(slug: string, webhookId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: number) => replayDelivery(slug, webhookId, deliveryId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'webhooks') }),
  });
}
