// Creating a webhook (`POST /v1/projects/{slug}/webhooks`): the answer holds its signing secret,
// shown this once; the project's webhooks are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf, type RequestBody } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type CreateWebhookBody = RequestBody<'/v1/projects/{slug}/webhooks', 'post'>;

export async function createWebhook(slug: string, body: CreateWebhookBody): Promise<AnswerOf<'/v1/projects/{slug}/webhooks', 'post', 201>> {
  return unwrap(client.POST('/v1/projects/{slug}/webhooks', { params: { path: { slug } }, body }));
}

export function useCreateWebhook(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWebhookBody) => createWebhook(slug, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'webhooks') }),
  });
}
