// Management-API session tokens: HS256 JWTs for platform accounts.
import { jwtVerify, SignJWT } from 'jose';
import { deriveKey } from './secrets.ts';

const AUDIENCE = 'management';
const LIFETIME = '7d';

export class SessionTokens {
  private readonly key: Uint8Array;
  constructor(appSecret: string) {
    this.key = deriveKey(appSecret, 'session-token');
  }

  sign(accountId: number): Promise<string> {
    return new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(String(accountId)).setAudience(AUDIENCE)
      .setIssuedAt().setExpirationTime(LIFETIME).sign(this.key);
  }

  /** The account id, or null for anything that is not a valid, unexpired session token. */
  async verify(token: string): Promise<number | null> {
    if (token.length > 2000) return null;
    try {
      const { payload } = await jwtVerify(token, this.key, { audience: AUDIENCE, algorithms: ['HS256'] });
      const id = Number(payload.sub);
      return Number.isSafeInteger(id) && id > 0 ? id : null;
    } catch {
      return null;
    }
  }
}
