// Saving end-user e-mail templates (`PUT /v1/projects/{slug}/settings/email-templates`, the
// templates given): the answer is every template as saved, cached as it is.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { EmailTemplate, EmailTemplatesAnswer, TemplateName } from './get-email-templates.ts';

export type EmailTemplatesBody = Partial<Record<TemplateName, EmailTemplate>>;

export async function updateEmailTemplates(slug: string, templates: EmailTemplatesBody): Promise<EmailTemplatesAnswer> {
  return unwrap(client.PUT('/v1/projects/{slug}/settings/email-templates', { params: { path: { slug } }, body: templates }));
}

export function useUpdateEmailTemplates(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (templates: EmailTemplatesBody) => updateEmailTemplates(slug, templates),
    onSuccess: (saved) => queryClient.setQueryData(projectKeys.feature(slug, 'settings', 'email-templates'), saved),
  });
}
