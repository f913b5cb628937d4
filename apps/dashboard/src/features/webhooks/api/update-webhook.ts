// Changing a webhook (`PUT /v1/projects/{slug}/webhooks/{id}`: the fields given; the others keep
// their value): the project's webhooks are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, type RequestBody } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type UpdateWebhookBody = RequestBody<'/v1/projects/{slug}/webhooks/{id}', 'put'>;

export async function updateWebhook(slug: string, id: number, body: UpdateWebhookBody) {
  return (await unwrap(client.PUT('/v1/projects/{slug}/webhooks/{id}', { params: { path: { slug, id } }, body }))).webhook;
}

export function useUpdateWebhook(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateWebhookBody }) => updateWebhook(slug, id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'webhooks') }),
  });
}
