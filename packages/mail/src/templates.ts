// The platform's own e-mails (to accounts, not to projects' end users): a few paragraphs and one
// link, as plain text and as simple HTML with every interpolated value escaped.
import type { Mail } from './mailer.ts';

export interface LinkMail {
  to: string;
  subject: string;
  /** Paragraphs before the link (plain text; escaped in the HTML part). */
  intro: string[];
  /** The button's label in HTML. */
  action: string;
  link: string;
  /** Paragraphs after the link. */
  outro?: string[];
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A mail whose point is one link: text and HTML parts saying the same. */
export function linkMail(m: LinkMail): Mail {
  const outro = m.outro ?? [];
  const text = [...m.intro, m.link, ...outro].join('\n\n') + '\n';
  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s)}</p>`;
  const link = escapeHtml(m.link);
  const html = '<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;font-size:15px;line-height:1.5;color:#1a1b1e">'
    + m.intro.map(p).join('')
    + `<p style="margin:0 0 16px"><a href="${link}" style="display:inline-block;padding:10px 18px;border-radius:6px;background:#228be6;color:#fff;text-decoration:none">${escapeHtml(m.action)}</a></p>`
    + `<p style="margin:0 0 16px;font-size:13px;color:#555">Or open this address: <a href="${link}">${link}</a></p>`
    + outro.map(p).join('')
    + '</body></html>';
  return { to: m.to, subject: m.subject, text, html };
}
