// The plain-text part of an HTML e-mail: paragraphs, line breaks and list items kept, links
// written out (a mail client showing the text part must still show where a link goes).

const ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', rsquo: '’', lsquo: '‘', rdquo: '”', ldquo: '“',
  hellip: '…', mdash: '—', ndash: '–', copy: '©', reg: '®', euro: '€',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

const stripTags = (html: string) => html.replace(/<[^>]*>/g, '');
const BLOCK = /<\/?(?:p|div|h[1-6]|ul|ol|table|tr|blockquote|pre|section|article|header|footer|hr|center)\b[^>]*>/gi;

export function htmlToText(html: string): string {
  const text = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(head|style|script|title)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    // Source line breaks are spaces in HTML; the tags below decide the text's lines.
    .replace(/\s+/g, ' ')
    .replace(/<a\b[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>([\s\S]*?)<\/a\s*>/gi, (_m, dq?: string, sq?: string, bare?: string, label = '') => {
      const href = decodeEntities(dq ?? sq ?? bare ?? '').trim();
      const shown = decodeEntities(stripTags(label)).trim();
      return !shown || shown === href || !href ? shown || href : `${shown} (${href})`;
    })
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<\/t[dh]\s*>/gi, ' ')
    .replace(BLOCK, '\n\n');
  return decodeEntities(stripTags(text))
    .split('\n').map((line) => line.trim()).join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim() + '\n';
}
