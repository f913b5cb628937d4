// A project's delivery settings (`GET /v1/projects/{slug}/settings/delivery`): how long CDNs keep
// its public answers, and whether the gateways answer repeated reads from memory.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type DeliverySettings = AnswerOf<'/v1/projects/{slug}/settings/delivery', 'get'>['delivery'];

export async function getDeliverySettings(slug: string): Promise<DeliverySettings> {
  return (await unwrap(client.GET('/v1/projects/{slug}/settings/delivery', { params: { path: { slug } } }))).delivery;
}

export const deliverySettingsQueryOptions = (slug: string) =>
  queryOptions({ queryKey: projectKeys.feature(slug, 'settings', 'delivery'), queryFn: () => getDeliverySettings(slug) });

export function useDeliverySettings(slug: string) {
  return useQuery(deliverySettingsQueryOptions(slug));
}
