// A project's e-mails to its end users: the templates (Strapi's users-permissions "Email
// templates": address confirmation and password reset) and how the platform delivers them
// (SMTP or only the log), which a customer needs to know before relying on those e-mails.
import type { FastifyInstance } from 'fastify';
import { mailTransportOf } from '@cms/mail';
import { emailSettingsRoutes as schemas } from '@cms/management-api';
import { EMAIL_TEMPLATE_VARIABLES, emailTemplatesOf, parseEmailTemplates, type EmailTemplates } from '@cms/users';
import type { ManagementOptions } from './options.ts';
import { projectOf } from './request-context.ts';

const answer = (emailTemplates: Readonly<EmailTemplates>) => ({ emailTemplates, variables: EMAIL_TEMPLATE_VARIABLES });

export async function emailSettingsRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  app.get('/projects/:slug/settings/email-templates', { schema: schemas.getTemplates }, async (request) => answer(emailTemplatesOf(projectOf(request).settings)));

  app.put('/projects/:slug/settings/email-templates', { schema: schemas.updateTemplates }, async (request) => {
    const project = projectOf(request);
    const emailTemplates = parseEmailTemplates(request.body, emailTemplatesOf(project.settings));
    await platform.projects.updateSettings(project, 'emailTemplates', emailTemplates);
    return answer(emailTemplates);
  });

  // The same for every project: the platform's transport, without its credentials.
  const transport = mailTransportOf(platform.config.email);
  app.get('/projects/:slug/settings/email', { schema: schemas.getTransport }, async () => ({ email: transport }));
}
