// Creating an API token (`POST /v1/projects/{slug}/api-tokens`): the answer holds its access key,
// shown this once; the project's tokens are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, type RequestBody } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type CreateApiTokenBody = RequestBody<'/v1/projects/{slug}/api-tokens', 'post'>;

export async function createApiToken(slug: string, body: CreateApiTokenBody) {
  return unwrap(client.POST('/v1/projects/{slug}/api-tokens', { params: { path: { slug } }, body }));
}

export function useCreateApiToken(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiTokenBody) => createApiToken(slug, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'api-tokens') }),
  });
}
