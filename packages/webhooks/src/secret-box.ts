// Webhook signing secrets at rest: AES-256-GCM under a key derived from APP_SECRET
// (`v1.<iv>.<tag>.<ciphertext>`, base64url). Delivery needs the secret itself to sign, so
// unlike API tokens it cannot be kept as a hash; a database dump alone does not reveal it.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { deriveKey } from '@cms/auth';

export class SecretBox {
  private readonly key: Buffer;

  constructor(appSecret: string) {
    this.key = deriveKey(appSecret, 'webhook-secret');
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
  }

  open(box: string): string {
    const [version, iv, tag, data] = box.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown webhook secret format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}
