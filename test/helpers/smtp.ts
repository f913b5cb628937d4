// A real SMTP server (smtp-server) on a free port that keeps every message it receives, for
// tests of e-mails the platform sends through SMTP_URL.
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** The Subject header, unfolded, with MIME encoded-words decoded. */
  subject: string;
  /** The text body with quoted-printable soft breaks and escapes decoded. */
  text: string;
}

export interface TestSmtp {
  url: string;
  mails: ReceivedMail[];
  /** The next mail to `to` (waits for it); with `subject`, the next one of that subject. */
  next(to: string, ms?: number, subject?: string): Promise<ReceivedMail>;
  close(): Promise<void>;
}

const decodeQuotedPrintable = (s: string) =>
  s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

function subjectOf(raw: string): string {
  const headers = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  const line = /^subject: ?(.*)$/im.exec(headers)?.[1] ?? '';
  // RFC 2047 encoded-words (=?UTF-8?Q?…?= / =?UTF-8?B?…?=), adjacent ones joined.
  return line.replace(/\?=\s+=\?/g, '?==?').replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset: string, enc: string, data: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_h, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8'));
}

export async function startSmtp(): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (d: string) => (raw += d));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject: subjectOf(raw),
          text: decodeQuotedPrintable(raw.slice(raw.indexOf('\r\n\r\n') + 4)),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  const taken = new Set<ReceivedMail>();
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async next(to, ms = 10_000, subject) {
      const deadline = Date.now() + ms;
      for (;;) {
        const mail = mails.find((m) => !taken.has(m) && m.to.includes(to) && (subject === undefined || m.subject === subject));
        if (mail) {
          taken.add(mail);
          return mail;
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${ms} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
