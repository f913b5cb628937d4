// Adding a custom end-user role (`POST /v1/projects/{slug}/roles`): the roles are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, type RequestBody } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type CreateRoleBody = RequestBody<'/v1/projects/{slug}/roles', 'post'>;

export async function createRole(slug: string, body: CreateRoleBody) {
  return (await unwrap(client.POST('/v1/projects/{slug}/roles', { params: { path: { slug } }, body }))).role;
}

export function useCreateRole(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateRoleBody) => createRole(slug, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'roles') }),
  });
}
