// Outgoing e-mail behind one interface: SMTP through nodemailer when SMTP_URL is set, else the
// log (the embedded default: a newcomer reads reset links in the console). nodemailer is imported
// with the first e-mail sent, not by every process that might send one.
import type { Transporter } from 'nodemailer';
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
  private transport: Promise<Transporter> | null = null;

  constructor(private readonly smtpUrl: string, private readonly from: string, private readonly logger: Logger) {
    // What nodemailer takes as a URL (anything else it reads as options, and fails on): checked
    // here, so a wrong SMTP_URL still stops the start rather than the first e-mail.
    if (!/^(smtps?|direct):/i.test(smtpUrl)) throw new Error('SMTP_URL must be an smtp:// or smtps:// URL');
  }

  private transporter(): Promise<Transporter> {
    this.transport ??= import('nodemailer').then((m) => m.default.createTransport(this.smtpUrl), (err: unknown) => {
      this.transport = null;
      throw err;
    });
    return this.transport;
  }

  async send(mail: Mail): Promise<void> {
    await (await this.transporter()).sendMail({
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
    const made = this.transport;
    this.transport = null;
    void made?.then((transport) => transport.close(), () => undefined);
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
