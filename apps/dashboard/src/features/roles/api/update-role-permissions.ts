// Saving what an end-user role may do through the content API
// (`PUT /v1/projects/{slug}/roles/{type}/permissions`): the roles are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, type Schemas } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export async function updateRolePermissions(slug: string, type: string, permissions: Schemas['PermissionMap']) {
  return (await unwrap(client.PUT('/v1/projects/{slug}/roles/{type}/permissions', { params: { path: { slug, type } }, body: { permissions } }))).role;
}

export function useUpdateRolePermissions(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ type, permissions }: { type: string; permissions: Schemas['PermissionMap'] }) => updateRolePermissions(slug, type, permissions),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.feature(slug, 'roles') }),
  });
}
