// An e-mail template filled in for one user. Values are escaped in the HTML part (a username is
// the user's own text: it must not become markup or a link in their mail), inserted as they are
// in the text part and the subject. A message without tags is sent as plain text only.
import { escapeHtml, htmlToText, type Mail } from '@cms/mail';
import { VARIABLE, type EmailTemplate } from './email-templates.ts';

export type TemplateValues = Readonly<Record<string, string>>;

const HAS_TAGS = /<\/?[a-z][^>]*>/i;
// Stands for a variable while the HTML becomes text: NUL never occurs in a stored template.
const mark = (i: number) => `\u0000${i}\u0000`;

function fill(text: string, values: TemplateValues, encode: (value: string) => string): string {
  return text.replace(VARIABLE, (_m, name: string) => encode(values[name] ?? ''));
}

function textPart(message: string, values: TemplateValues): string {
  // One mark per variable, so a link whose text is its address reads the same either way.
  const names: string[] = [];
  const marked = message.replace(VARIABLE, (_m, name: string) => mark(names.includes(name) ? names.indexOf(name) : names.push(name) - 1));
  return htmlToText(marked).replace(/\u0000(\d+)\u0000/g, (_m, i: string) => values[names[Number(i)]!] ?? '');
}

export function templateMail(to: string, template: EmailTemplate, values: TemplateValues): Mail {
  const subject = fill(template.subject, values, (v) => v.replace(/[\r\n]+/g, ' '));
  const mail: Mail = HAS_TAGS.test(template.message.replace(VARIABLE, ''))
    ? { to, subject, text: textPart(template.message, values), html: fill(template.message, values, escapeHtml) }
    : { to, subject, text: fill(template.message, values, (v) => v) };
  if (template.fromName) mail.fromName = template.fromName;
  if (template.replyTo) mail.replyTo = template.replyTo;
  return mail;
}
