// Purpose-specific keys derived from APP_SECRET, so one leaked key never serves another purpose,
// and the keyed hash under which presented secrets (session tokens, mailed links) are stored.
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';

export type KeyPurpose =
  | 'session-token' | 'session-csrf' | 'api-token-hmac' | 'account-token' | 'project-invitation' | 'content-access-key' | 'webhook-secret' | `project-jwt:${number}`
  | 'two-factor-secret' | 'two-factor-recovery'
  | 'device-cookie' | 'sign-in-lockout'
  | 'sso-secret' | 'sso-login';

const cache = new Map<string, Buffer>();

export function deriveKey(appSecret: string, purpose: KeyPurpose): Buffer {
  const id = `${purpose}\0${appSecret}`;
  let key = cache.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', appSecret, 'content-platform', purpose, 32));
    cache.set(id, key);
  }
  return key;
}

/** HMAC-SHA256 of a presented secret under a purpose key, in hex: what is stored instead of the secret. */
export function keyedHash(key: Buffer, secret: string): string {
  return createHmac('sha256', key).update(secret).digest('hex');
}

/** A new random secret token (256 bits, base64url) with a recognisable prefix. */
export function randomToken(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}
