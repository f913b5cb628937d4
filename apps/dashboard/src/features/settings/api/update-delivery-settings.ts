// Saving a project's delivery settings (`PUT /v1/projects/{slug}/settings/delivery`): the settings are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { DeliverySettings } from './get-delivery-settings.ts';

export async function updateDeliverySettings(slug: string, settings: DeliverySettings): Promise<DeliverySettings> {
  return (await unwrap(client.PUT('/v1/projects/{slug}/settings/delivery', { params: { path: { slug } }, body: settings }))).delivery;
}

export function useUpdateDeliverySettings(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: DeliverySettings) => updateDeliverySettings(slug, settings),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'settings', 'delivery') }),
  });
}
