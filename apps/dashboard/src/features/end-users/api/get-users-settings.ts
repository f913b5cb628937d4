// A project's end-user settings (`GET /v1/projects/{slug}/settings/users-permissions`, Strapi's
// "Advanced settings" of the plugin): registration, e-mail confirmation, default role, JWT
// lifetime and the pages its e-mails lead to.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type UsersSettings = AnswerOf<'/v1/projects/{slug}/settings/users-permissions', 'get'>['usersPermissions'];

export async function getUsersSettings(slug: string): Promise<UsersSettings> {
  return (await unwrap(client.GET('/v1/projects/{slug}/settings/users-permissions', { params: { path: { slug } } }))).usersPermissions;
}

export const usersSettingsQueryOptions = (slug: string) =>
  queryOptions({ queryKey: projectKeys.feature(slug, 'settings', 'users-permissions'), queryFn: () => getUsersSettings(slug) });

export function useUsersSettings(slug: string) {
  return useQuery(usersSettingsQueryOptions(slug));
}
