// Saving a project's browser access (`PUT /v1/projects/{slug}/settings/cors`): the settings are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { CorsSettings } from './get-cors-settings.ts';

export async function updateCorsSettings(slug: string, settings: CorsSettings): Promise<CorsSettings> {
  return (await unwrap(client.PUT('/v1/projects/{slug}/settings/cors', { params: { path: { slug } }, body: settings }))).cors;
}

export function useUpdateCorsSettings(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: CorsSettings) => updateCorsSettings(slug, settings),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'settings', 'cors') }),
  });
}
