// What an uploaded file is called: its display name, its storage hash and its extension, the way
// Strapi's upload plugin derives them. Only the hash and extension reach storage
// keys and URLs, so they are reduced to key-safe characters here.
import { randomBytes } from 'node:crypto';

const MAX_NAME_LENGTH = 255;
const MAX_HASH_BASE_LENGTH = 100;
const EXT_PATTERN = /^\.[a-z0-9]{1,15}$/;

/** The name a client sent, without any directory part or control characters; spaces are kept. */
export function displayName(filename: string): string {
  const base = filename.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (clean.length <= MAX_NAME_LENGTH) return clean || 'file';
  // Shorten the base name, keeping the extension (it decides the stored type).
  const ext = extensionOf(clean);
  return clean.slice(0, MAX_NAME_LENGTH - ext.length) + clean.slice(clean.length - ext.length);
}

/** The lower-case extension of a file name (`.png`), or '' when it has none usable in a key. */
export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  if (dot <= 0) return '';
  const ext = filename.slice(dot).toLowerCase();
  return EXT_PATTERN.test(ext) ? ext : '';
}

/** The name without its extension. */
export function baseNameOf(filename: string, ext: string): string {
  return ext && filename.toLowerCase().endsWith(ext) ? filename.slice(0, -ext.length) : filename;
}

/** Strapi's hash: the base name slugged with `_` (case kept) plus `_` and 10 random hex digits. */
export function fileHash(baseName: string): string {
  const slug = baseName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_HASH_BASE_LENGTH);
  return `${slug || 'file'}_${randomBytes(5).toString('hex')}`;
}

/** Sizes are reported in kB (1000 bytes) with two decimals, as Strapi does. */
export function kilobytes(bytes: number): number {
  return Math.round((bytes / 1000) * 100) / 100;
}
