// Creating a release (`POST /v1/projects/{slug}/releases`): the project's releases are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, type RequestBody } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type CreateReleaseBody = RequestBody<'/v1/projects/{slug}/releases', 'post'>;

export async function createRelease({ slug, body }: { slug: string; body: CreateReleaseBody }) {
  return (await unwrap(client.POST('/v1/projects/{slug}/releases', { params: { path: { slug } }, body }))).data;
}

export function useCreateRelease() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRelease,
    onSuccess: (_release, { slug }) => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'releases') }),
  });
}
