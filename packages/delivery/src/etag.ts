// Strong entity tags of answers, and `If-None-Match` as RFC 9110 § 13.1.2 reads it (weak
// comparison: a `W/` tag matches the strong one with the same opaque value).
import { createHash } from 'node:crypto';

/** A strong ETag of the exact bytes: `"` + 27 characters of base64url SHA-1 + `"`. */
export function strongEtag(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** Whether `If-None-Match` names `etag` (or is `*`): the client's copy is current → 304. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined || header === '') return false;
  if (header.trim() === '*') return true;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const raw of header.split(',')) {
    const tag = raw.trim();
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === opaque) return true;
  }
  return false;
}
