// Saving a project's end-user settings (`PUT /v1/projects/{slug}/settings/users-permissions`): the
// answer is the settings as saved, cached as they are.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { UsersSettings } from './get-users-settings.ts';

export async function updateUsersSettings(slug: string, settings: UsersSettings): Promise<UsersSettings> {
  return (await unwrap(client.PUT('/v1/projects/{slug}/settings/users-permissions', { params: { path: { slug } }, body: settings }))).usersPermissions;
}

export function useUpdateUsersSettings(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: UsersSettings) => updateUsersSettings(slug, settings),
    onSuccess: (saved) => queryClient.setQueryData(projectKeys.feature(slug, 'settings', 'users-permissions'), saved),
  });
}
