// A project's e-mails to its end users (apps/gateway/src/management/email-settings.ts): the
// templates (Strapi's users-permissions "Email templates") and how the platform delivers them.
import { NO_PROJECT, withErrors } from '../errors.ts';
import { defineRoute } from '../route.ts';
import { nullableString } from '../shapes.ts';

const EmailTemplate = {
  type: 'object',
  required: ['fromName', 'replyTo', 'subject', 'message'],
  properties: {
    fromName: { ...nullableString, description: 'Display name of the sender (1–100 characters); null: the address alone' },
    replyTo: { ...nullableString, description: 'Where replies go (an e-mail address); null: the sender address' },
    subject: { type: 'string', description: 'One line of 1–200 characters; may use the subject\'s variables' },
    message: { type: 'string', description: '1–20000 characters of HTML (or plain text without tags); may use the message\'s variables' },
  },
} as const;

/** A PUT's body as shown (the handler checks it, naming each bad key): any subset of the templates, each any subset of its fields. */
const TemplatesChange = {
  type: 'object',
  description: 'The templates to change (any subset), each any subset of its fields; the others keep their value',
  additionalProperties: false,
  properties: Object.fromEntries(['emailConfirmation', 'resetPassword'].map((name) => [name, {
    type: 'object',
    additionalProperties: false,
    properties: {
      ...EmailTemplate.properties,
      fromName: { ...EmailTemplate.properties.fromName, description: `${EmailTemplate.properties.fromName.description} (\`""\` too)` },
    },
  }])) as Record<'emailConfirmation' | 'resetPassword', object>,
  examples: [{ resetPassword: { subject: 'Reset your password', message: '<p>Follow <a href="<%= URL %>?code=<%= TOKEN %>">this link</a>.</p>' } }],
} as const;

const Variables = {
  type: 'object',
  description: 'The variables (`<%= NAME %>`) a template\'s subject and message may use',
  required: ['subject', 'message'],
  properties: { subject: { type: 'array', items: { type: 'string' } }, message: { type: 'array', items: { type: 'string' } } },
} as const;

const templatesAnswer = (description: string) => ({
  description,
  type: 'object',
  required: ['emailTemplates', 'variables'],
  properties: {
    emailTemplates: {
      type: 'object',
      description: 'The effective templates (defaults where none were set)',
      required: ['emailConfirmation', 'resetPassword'],
      properties: { emailConfirmation: EmailTemplate, resetPassword: EmailTemplate },
    },
    variables: {
      type: 'object',
      required: ['emailConfirmation', 'resetPassword'],
      properties: { emailConfirmation: Variables, resetPassword: Variables },
    },
  },
  examples: [{
    emailTemplates: {
      emailConfirmation: { fromName: null, replyTo: null, subject: 'Account confirmation', message: '<p>Confirm your address: <a href="<%= URL %>?confirmation=<%= CODE %>">this link</a>.</p>' },
      resetPassword: { fromName: 'My blog', replyTo: 'support@example.com', subject: 'Reset your password', message: '<p>Follow <a href="<%= URL %>?code=<%= TOKEN %>">this link</a>.</p>' },
    },
    variables: {
      emailConfirmation: { subject: ['USER.username', 'USER.email'], message: ['URL', 'CODE', 'SERVER_URL', 'USER.username', 'USER.email'] },
      resetPassword: { subject: ['USER.username', 'USER.email'], message: ['URL', 'TOKEN', 'SERVER_URL', 'USER.username', 'USER.email'] },
    },
  }],
}) as const;

export const emailSettingsRoutes = {
  getTemplates: defineRoute({
    tags: ['Settings'],
    summary: 'Get the end users\' e-mail templates',
    description: 'The address confirmation and password reset e-mails of the project\'s end users, and the variables each field may use. Any member.',
    response: withErrors({ 200: templatesAnswer('The templates and their variables') }, { 404: NO_PROJECT }),
  }),

  updateTemplates: defineRoute({
    tags: ['Settings'],
    summary: 'Change the end users\' e-mail templates',
    description: 'The body is any subset of the templates (`emailConfirmation`, `resetPassword`), each any subset of `fromName`, `replyTo`, `subject`, `message`, merged over the current ones. Variables are written `<%= NAME %>`; each field takes only those listed in `variables`. Owners and editors.',
    docBody: TemplatesChange,
    response: withErrors({ 200: templatesAnswer('The templates after the change, and their variables') }, {
      400: 'Unknown keys, other variables, any other `<% … %>`, bad values: each named in `details.errors` (nothing is saved)',
      403: 'Viewers may read the templates, not change them',
      404: NO_PROJECT,
    }),
  }),

  getTransport: defineRoute({
    tags: ['Settings'],
    summary: 'How the platform sends e-mails',
    description: 'The same for every project: real e-mails through SMTP, or only the platform\'s log. Never the SMTP credentials. Any member.',
    response: withErrors({
      200: {
        description: 'The transport',
        type: 'object',
        required: ['email'],
        properties: {
          email: {
            type: 'object',
            required: ['transport', 'from', 'host'],
            properties: {
              transport: { type: 'string', enum: ['smtp', 'log'] },
              from: { type: 'string', description: 'The sender address of every e-mail (`EMAIL_FROM`)' },
              host: { ...nullableString, description: '`host[:port]` of the SMTP server; null when e-mails are only logged' },
            },
          },
        },
        examples: [{ email: { transport: 'smtp', from: 'no-reply@example.com', host: 'smtp.example.com:587' } }],
      },
    }, { 404: NO_PROJECT }),
  }),
};
