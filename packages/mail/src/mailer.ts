// Outgoing e-mail behind one interface: SMTP through nodemailer when SMTP_URL is set, else the
// log (the embedded default: a newcomer reads reset links in the console).
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from '@cms/telemetry';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative of `text` (multipart/alternative when given). */
  html?: string;
  /** Display name of the sender; the address stays the platform's EMAIL_FROM (the only one it may send as). */
  fromName?: string;
  replyTo?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** Send without waiting (the answer must not depend on the SMTP server); failures are logged. */
  post(mail: Mail): void;
  close(): void;
}

export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(smtpUrl: string, private readonly from: string, private readonly logger: Logger) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(mail: Mail): Promise<void> {
    await this.transport.sendMail({
      from: mail.fromName ? { name: mail.fromName, address: this.from } : this.from,
      to: mail.to, subject: mail.subject, text: mail.text,
      ...(mail.html ? { html: mail.html } : {}),
      ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
    });
  }

  post(mail: Mail): void {
    this.send(mail).catch((err) => this.logger.error({ err, subject: mail.subject }, 'could not send e-mail'));
  }

  close(): void {
    this.transport.close();
  }
}

export class LogMailer implements Mailer {
  constructor(private readonly logger: Logger) {}

  async send(mail: Mail): Promise<void> {
    // The text part carries every link; the HTML alternative would only repeat it in the log.
    const { to, subject, text, fromName, replyTo } = mail;
    this.logger.info({ mail: { to, subject, text, ...(fromName ? { fromName } : {}), ...(replyTo ? { replyTo } : {}) } }, 'e-mail (no SMTP_URL set: logged instead of sent)');
  }

  post(mail: Mail): void {
    void this.send(mail);
  }

  close(): void {}
}

export function createMailer(config: { smtpUrl?: string; from: string }, logger: Logger): Mailer {
  return config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.from, logger) : new LogMailer(logger);
}

/** How the platform delivers e-mail, as customers may see it: never the SMTP credentials. */
export interface MailTransport {
  transport: 'smtp' | 'log';
  /** The sender address of every e-mail (EMAIL_FROM). */
  from: string;
  /** `host[:port]` of the SMTP server; null when e-mails are only logged. */
  host: string | null;
}

export function mailTransportOf(config: { smtpUrl?: string; from: string }): MailTransport {
  if (!config.smtpUrl) return { transport: 'log', from: config.from, host: null };
  let host: string | null = null;
  try {
    host = new URL(config.smtpUrl).host || null;
  } catch {
    // nodemailer also takes forms URL does not parse; the host is then not shown.
  }
  return { transport: 'smtp', from: config.from, host };
}
