// Changing a release's name or schedule (`PUT /v1/projects/{slug}/releases/{id}`; null unschedules
// it): the project's releases are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, type RequestBody } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type UpdateReleaseBody = RequestBody<'/v1/projects/{slug}/releases/{id}', 'put'>;

export async function updateRelease({ slug, id, body }: { slug: string; id: number; body: UpdateReleaseBody }) {
  return (await unwrap(client.PUT('/v1/projects/{slug}/releases/{id}', { params: { path: { slug, id } }, body }))).data;
}

export function useUpdateRelease() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateRelease,
    onSuccess: (_release, { slug }) => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'releases') }),
  });
}
