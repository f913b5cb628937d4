// Purpose-specific keys derived from APP_SECRET, so one leaked key never serves another purpose.
import { hkdfSync } from 'node:crypto';

export type KeyPurpose = 'session-token' | 'session-csrf' | 'api-token-hmac' | `project-jwt:${number}`;

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
