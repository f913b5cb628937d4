// Saving a project's GraphQL settings (`PUT /v1/projects/{slug}/settings/graphql`): the settings
// are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { GraphqlSettings } from './get-graphql-settings.ts';

export async function updateGraphqlSettings(slug: string, settings: GraphqlSettings): Promise<GraphqlSettings> {
  return (await unwrap(client.PUT('/v1/projects/{slug}/settings/graphql', { params: { path: { slug } }, body: settings }))).graphql;
}

export function useUpdateGraphqlSettings(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: GraphqlSettings) => updateGraphqlSettings(slug, settings),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'settings', 'graphql') }),
  });
}
