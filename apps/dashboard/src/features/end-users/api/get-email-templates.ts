// The e-mails a project sends its end users (`GET /v1/projects/{slug}/settings/email-templates`):
// address confirmation and password reset, and the variables each may use.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type EmailTemplatesAnswer = AnswerOf<'/v1/projects/{slug}/settings/email-templates', 'get'>;
export type TemplateName = keyof EmailTemplatesAnswer['emailTemplates'];
export type EmailTemplate = EmailTemplatesAnswer['emailTemplates'][TemplateName];

export async function getEmailTemplates(slug: string): Promise<EmailTemplatesAnswer> {
  return unwrap(client.GET('/v1/projects/{slug}/settings/email-templates', { params: { path: { slug } } }));
}

export const emailTemplatesQueryOptions = (slug: string) =>
  queryOptions({ queryKey: projectKeys.feature(slug, 'settings', 'email-templates'), queryFn: () => getEmailTemplates(slug) });

export function useEmailTemplates(slug: string) {
  return useQuery(emailTemplatesQueryOptions(slug));
}
