// Changing a project's security rule (`PUT /v1/projects/{slug}/settings/security`, owners with
// two-factor on): the answer is the rule as saved, cached as it is.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap, type RequestBody } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { SecuritySettings } from './get-security-settings.ts';

export type SecuritySettingsBody = RequestBody<'/v1/projects/{slug}/settings/security', 'put'>;

export async function updateSecuritySettings(slug: string, body: SecuritySettingsBody): Promise<SecuritySettings> {
  return (await unwrap(client.PUT('/v1/projects/{slug}/settings/security', { params: { path: { slug } }, body }))).security;
}

export function useUpdateSecuritySettings(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SecuritySettingsBody) => updateSecuritySettings(slug, body),
    onSuccess: (security) => queryClient.setQueryData(projectKeys.feature(slug, 'settings', 'security'), security),
  });
}
