// A project's e-mail templates for its end users (`settings.emailTemplates`): Strapi's
// users-permissions "Email templates" — address confirmation and password reset — with Strapi's
// `<%= VARIABLE %>` placeholders. The sender address is always the platform's (EMAIL_FROM); a
// project chooses the sender's name and a reply-to address.
import { isEmail } from '@cms/auth';
import { ValidationError, type FieldError } from '@cms/errors';

export interface EmailTemplate {
  /** Display name of the sender (null: the address alone). */
  fromName: string | null;
  /** Where replies go (null: to the sender address). */
  replyTo: string | null;
  /** Plain text; may use the subject's variables. */
  subject: string;
  /** HTML (or plain text when it has no tags). */
  message: string;
}

export const EMAIL_TEMPLATE_NAMES = ['emailConfirmation', 'resetPassword'] as const;
export type EmailTemplateName = (typeof EMAIL_TEMPLATE_NAMES)[number];
export type EmailTemplates = Record<EmailTemplateName, EmailTemplate>;

const USER_VARIABLES = ['USER.username', 'USER.email'] as const;

/**
 * What each template may use, as Strapi names it. URL: the confirmation endpoint, or the
 * project's `resetPasswordUrl` (Strapi's `email_reset_password`); CODE and TOKEN: the one-time
 * codes; SERVER_URL: the project's API base URL. Subjects get the user only, as in Strapi.
 */
export const EMAIL_TEMPLATE_VARIABLES: Readonly<Record<EmailTemplateName, { subject: readonly string[]; message: readonly string[] }>> = Object.freeze({
  emailConfirmation: { subject: USER_VARIABLES, message: ['URL', 'CODE', 'SERVER_URL', ...USER_VARIABLES] },
  resetPassword: { subject: USER_VARIABLES, message: ['URL', 'TOKEN', 'SERVER_URL', ...USER_VARIABLES] },
});

/** The reset message sent when the project has no reset page (`resetPasswordUrl`) and kept the default template. */
export const RESET_CODE_ONLY_MESSAGE = `<p>We heard that you lost your password. Sorry about that!</p>

<p>Your reset code: <%= TOKEN %></p>`;

export const DEFAULT_EMAIL_TEMPLATES: Readonly<EmailTemplates> = Object.freeze({
  emailConfirmation: Object.freeze({
    fromName: null,
    replyTo: null,
    subject: 'Account confirmation',
    message: `<p>Thank you for registering!</p>

<p>Confirm your e-mail address with this link:</p>

<p><a href="<%= URL %>?confirmation=<%= CODE %>"><%= URL %>?confirmation=<%= CODE %></a></p>`,
  }),
  resetPassword: Object.freeze({
    fromName: null,
    replyTo: null,
    subject: 'Reset password',
    message: `<p>We heard that you lost your password. Sorry about that!</p>

<p>Use this link to reset it:</p>

<p><a href="<%= URL %>?code=<%= TOKEN %>"><%= URL %>?code=<%= TOKEN %></a></p>`,
  }),
});

const effective = new WeakMap<object, Readonly<EmailTemplates>>();

/** Stored templates → effective templates (defaults for what was never set), cached per project settings object. */
export function emailTemplatesOf(projectSettings: Record<string, unknown> | undefined): Readonly<EmailTemplates> {
  if (!projectSettings) return DEFAULT_EMAIL_TEMPLATES;
  let templates = effective.get(projectSettings);
  if (!templates) {
    const stored = projectSettings.emailTemplates as Partial<Record<EmailTemplateName, Partial<EmailTemplate>>> | undefined;
    templates = stored && typeof stored === 'object'
      ? Object.freeze({
        emailConfirmation: Object.freeze({ ...DEFAULT_EMAIL_TEMPLATES.emailConfirmation, ...stored.emailConfirmation }),
        resetPassword: Object.freeze({ ...DEFAULT_EMAIL_TEMPLATES.resetPassword, ...stored.resetPassword }),
      })
      : DEFAULT_EMAIL_TEMPLATES;
    effective.set(projectSettings, templates);
  }
  return templates;
}

export const SUBJECT_MAX = 200;
export const MESSAGE_MAX = 20_000;
const FROM_NAME_MAX = 100;
const TEMPLATE_KEYS = ['fromName', 'replyTo', 'subject', 'message'] as const;
// A variable as Strapi writes it; any other `<%` (code, `<%-`) is refused.
export const VARIABLE = /<%=\s*([^%<>]*?)\s*%>/g;
// Control characters; line breaks are allowed where `multiline`.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const LINE_BREAK = /[\r\n]/;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Problems with a template text's variables, or null. */
function variableProblem(text: string, allowed: readonly string[]): string | null {
  const unknown = new Set<string>();
  for (const [, name] of text.matchAll(VARIABLE)) if (!allowed.includes(name!)) unknown.add(name!);
  if (unknown.size) return `Unknown variable${unknown.size > 1 ? 's' : ''} ${[...unknown].map((n) => `<%= ${n.slice(0, 40)} %>`).join(', ')} (known: ${allowed.join(', ')})`;
  if (text.replace(VARIABLE, '').includes('<%')) return `Only variables can be used, written <%= NAME %> (known: ${allowed.join(', ')})`;
  return null;
}

/** A templates update: any subset of templates, each any subset of its keys, over `current`. */
export function parseEmailTemplates(body: unknown, current: Readonly<EmailTemplates>): EmailTemplates {
  if (!isObject(body)) throw new ValidationError('Email templates must be an object');
  const next: EmailTemplates = { emailConfirmation: { ...current.emailConfirmation }, resetPassword: { ...current.resetPassword } };
  const errors: FieldError[] = [];
  const fail = (path: string[], message: string) => errors.push({ path, message, name: 'ValidationError' });
  for (const [name, value] of Object.entries(body)) {
    if (!(EMAIL_TEMPLATE_NAMES as readonly string[]).includes(name)) {
      fail([name], `${name.slice(0, 100)} is not a valid key`);
      continue;
    }
    const templateName = name as EmailTemplateName;
    if (!isObject(value)) {
      fail([name], `${name} must be an object`);
      continue;
    }
    const template = next[templateName];
    const variables = EMAIL_TEMPLATE_VARIABLES[templateName];
    for (const [key, field] of Object.entries(value)) {
      const path = [name, key];
      switch (key as (typeof TEMPLATE_KEYS)[number]) {
        case 'subject': {
          const problem = typeof field !== 'string' || field.trim().length === 0 || field.length > SUBJECT_MAX || CONTROL.test(field) || LINE_BREAK.test(field)
            ? `subject must be one line of 1 to ${SUBJECT_MAX} characters`
            : variableProblem(field, variables.subject);
          if (problem) fail(path, problem);
          else template.subject = (field as string).trim();
          break;
        }
        case 'message': {
          const problem = typeof field !== 'string' || field.trim().length === 0 || field.length > MESSAGE_MAX || CONTROL.test(field)
            ? `message must be text of 1 to ${MESSAGE_MAX} characters`
            : variableProblem(field, variables.message);
          if (problem) fail(path, problem);
          else template.message = field as string;
          break;
        }
        case 'fromName':
          if (field === null || field === '') template.fromName = null;
          else if (typeof field === 'string' && field.trim().length > 0 && field.length <= FROM_NAME_MAX && !CONTROL.test(field) && !LINE_BREAK.test(field)) template.fromName = field.trim();
          else fail(path, `fromName must be one line of 1 to ${FROM_NAME_MAX} characters, or null`);
          break;
        case 'replyTo':
          if (field === null || field === '') template.replyTo = null;
          else if (typeof field === 'string' && isEmail(field)) template.replyTo = field;
          else fail(path, 'replyTo must be an e-mail address, or null');
          break;
        default:
          fail(path, `${key.slice(0, 100)} is not a valid key`);
      }
    }
  }
  if (errors.length) throw ValidationError.fromFieldErrors(errors);
  return next;
}
