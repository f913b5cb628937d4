// A project's webhooks (`GET /v1/projects/{slug}/webhooks`), oldest first, never their secrets.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type Schemas } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type Webhook = Schemas['Webhook'];
export type WebhookEvent = Webhook['events'][number];

export async function getWebhooks(slug: string): Promise<Webhook[]> {
  return (await unwrap(client.GET('/v1/projects/{slug}/webhooks', { params: { path: { slug } } }))).webhooks;
}

export const webhooksQueryOptions = (slug: string) => queryOptions({ queryKey: projectKeys.feature(slug, 'webhooks', 'list'), queryFn: () => getWebhooks(slug) });

export function useWebhooks(slug: string) {
  return useQuery(webhooksQueryOptions(slug));
}
