// A project's end-user roles (`GET /v1/projects/{slug}/roles`): public (requests without
// credentials), authenticated (any end user's JWT) and custom roles, each with its permissions.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type Schemas } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type Role = Schemas['Role'];

export async function getRoles(slug: string): Promise<Role[]> {
  return (await unwrap(client.GET('/v1/projects/{slug}/roles', { params: { path: { slug } } }))).roles;
}

export const rolesQueryOptions = (slug: string) => queryOptions({ queryKey: projectKeys.feature(slug, 'roles'), queryFn: () => getRoles(slug) });

export function useRoles(slug: string) {
  return useQuery(rolesQueryOptions(slug));
}

/** The roles an end user may have (every role but public), as select options. */
export function useUserRoles(slug: string) {
  const roles = useRoles(slug);
  return { ...roles, options: (roles.data ?? []).filter((r) => r.type !== 'public').map((r) => ({ value: r.type, label: r.name })) };
}
