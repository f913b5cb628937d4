// A webhook's delivery log (`GET /v1/projects/{slug}/webhooks/{id}/deliveries`), newest first, each
// with its attempts; refreshed while something is on its way.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type Delivery = AnswerOf<'/v1/projects/{slug}/webhooks/{id}/deliveries', 'get'>['deliveries'][number];
export type DeliveryStatus = Delivery['status'];

const REFRESH_MS = 2000;

export async function getDeliveries(slug: string, webhookId: number): Promise<Delivery[]> {
  return (await unwrap(client.GET('/v1/projects/{slug}/webhooks/{id}/deliveries', { params: { path: { slug, id: webhookId } } }))).deliveries;
}

export const deliveriesQueryOptions = (slug: string, webhookId: number) =>
  queryOptions({
    queryKey: projectKeys.feature(slug, 'webhooks', 'detail', webhookId, 'deliveries'),
    queryFn: () => getDeliveries(slug, webhookId),
    refetchInterval: REFRESH_MS,
  });

export function useDeliveries(slug: string, webhookId: number) {
  return useQuery(deliveriesQueryOptions(slug, webhookId));
}
