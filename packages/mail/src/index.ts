// @cms/mail: outgoing e-mail (SMTP when SMTP_URL is set, else the log) and the platform's mail layouts.
export { createMailer, LogMailer, mailTransportOf, SmtpMailer, type Mail, type Mailer, type MailTransport } from './mailer.ts';
export { escapeHtml, linkMail, type LinkMail } from './templates.ts';
export { decodeEntities, htmlToText } from './html-text.ts';
