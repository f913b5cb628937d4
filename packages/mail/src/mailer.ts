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
    await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text, ...(mail.html ? { html: mail.html } : {}) });
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
    this.logger.info({ mail: { to: mail.to, subject: mail.subject, text: mail.text } }, 'e-mail (no SMTP_URL set: logged instead of sent)');
  }

  post(mail: Mail): void {
    void this.send(mail);
  }

  close(): void {}
}

export function createMailer(config: { smtpUrl?: string; from: string }, logger: Logger): Mailer {
  return config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.from, logger) : new LogMailer(logger);
}
