// A project's security rule (`GET /v1/projects/{slug}/settings/security`): whether its members
// must use two-factor authentication (docs/two-factor.md).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type SecuritySettings = AnswerOf<'/v1/projects/{slug}/settings/security', 'get'>['security'];

export async function getSecuritySettings(slug: string): Promise<SecuritySettings> {
  return (await unwrap(client.GET('/v1/projects/{slug}/settings/security', { params: { path: { slug } } }))).security;
}

export const securitySettingsQueryOptions = (slug: string) =>
  queryOptions({ queryKey: projectKeys.feature(slug, 'settings', 'security'), queryFn: () => getSecuritySettings(slug) });

export function useSecuritySettings(slug: string) {
  return useQuery(securitySettingsQueryOptions(slug));
}
