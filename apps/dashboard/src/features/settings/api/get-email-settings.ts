// How the platform delivers a project's e-mails (`GET /v1/projects/{slug}/settings/email`): through
// an SMTP server or only to its log, and the sender address.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type MailTransport = AnswerOf<'/v1/projects/{slug}/settings/email', 'get'>['email'];

export async function getEmailSettings(slug: string): Promise<MailTransport> {
  return (await unwrap(client.GET('/v1/projects/{slug}/settings/email', { params: { path: { slug } } }))).email;
}

export const emailSettingsQueryOptions = (slug: string) =>
  queryOptions({ queryKey: projectKeys.feature(slug, 'settings', 'email'), queryFn: () => getEmailSettings(slug) });

export function useEmailSettings(slug: string) {
  return useQuery(emailSettingsQueryOptions(slug));
}
