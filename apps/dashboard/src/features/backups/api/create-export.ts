// Starting an export (`POST /v1/projects/{slug}/exports`, owners): an archive for a self-hosted
// Strapi 5, written in the background; `useExport` follows it by its id.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export async function createExport(slug: string) {
  return (await unwrap(client.POST('/v1/projects/{slug}/exports', { params: { path: { slug } }, body: {} }))).export;
}

export function useCreateExport(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => createExport(slug),
    onSuccess: (started) => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'exports', started.id) }),
  });
}
