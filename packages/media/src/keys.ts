// Key and prefix validation. Every driver checks keys before touching storage: on disk a key is a
// path under the root, so this is what stops `../` traversal, absolute paths and NUL tricks.
import { ValidationError } from '@cms/errors';

export const MAX_KEY_LENGTH = 512;
// Below NAME_MAX (255) with room for the suffixes disk-backed stores add (temp names, s3rver's
// `._S3rver_object`), so a valid key never fails on a filesystem with ENAMETOOLONG.
export const MAX_SEGMENT_LENGTH = 200;

// Only URL-safe characters, so a key can be appended to a base URL without encoding.
const KEY_CHARS = /^[A-Za-z0-9._/-]+$/;

/** Why `key` is not a valid object key (or prefix, with `prefix`), or null when it is valid. */
function problem(key: string, prefix: boolean): string | null {
  if (typeof key !== 'string' || key.length === 0) return 'is empty';
  if (key.length > MAX_KEY_LENGTH) return `is longer than ${MAX_KEY_LENGTH} characters`;
  if (!KEY_CHARS.test(key)) return 'contains characters other than A-Z a-z 0-9 . _ / -';
  if (key.startsWith('/')) return 'starts with /';
  if (key.includes('..')) return 'contains ..';
  if (prefix && !key.endsWith('/')) return 'does not end with /';
  if (!prefix && key.endsWith('/')) return 'ends with /';
  // `a//b` and `a/./b` name the same file as `a/b` on disk but a different S3 object.
  const segments = (prefix ? key.slice(0, -1) : key).split('/');
  if (segments.some((s) => s === '' || s === '.')) return 'has an empty or . path segment';
  if (segments.some((s) => s.length > MAX_SEGMENT_LENGTH)) return `has a path segment longer than ${MAX_SEGMENT_LENGTH} characters`;
  return null;
}

function invalid(kind: 'key' | 'prefix', key: string, reason: string): ValidationError {
  return new ValidationError(`Invalid media ${kind}: ${reason}`, { [kind]: String(key).slice(0, MAX_KEY_LENGTH + 1) });
}

/** Throw a ValidationError unless `key` is a valid object key. */
export function assertValidKey(key: string): void {
  const reason = problem(key, false);
  if (reason) throw invalid('key', key, reason);
}

/**
 * Throw a ValidationError unless `prefix` is a valid prefix. It must end with `/` so that deleting
 * project `1` (`1/`) can never touch project `12`.
 */
export function assertValidPrefix(prefix: string): void {
  const reason = problem(prefix, true);
  if (reason) throw invalid('prefix', prefix, reason);
}

export function isValidKey(key: string): boolean {
  return problem(key, false) === null;
}

/** `base` + `/` + key, whatever trailing slashes the configured base has. */
export function joinUrl(base: string, key: string): string {
  return `${base.replace(/\/+$/, '')}/${key}`;
}
