// End-user JWTs (users-permissions): HS256, payload `{id, iat, exp}` as Strapi's,
// signed with a key derived per project, so a JWT of one project is invalid in every other.
import { jwtVerify, SignJWT } from 'jose';
import { deriveKey } from '@cms/auth';

const MAX_TOKEN_LENGTH = 2000;

export class UserTokens {
  constructor(private readonly appSecret: string) {}

  private keyOf(projectId: number): Uint8Array {
    return deriveKey(this.appSecret, `project-jwt:${projectId}`);
  }

  sign(projectId: number, userId: string, expiresInSeconds: number): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ id: Number(userId) }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now).setExpirationTime(now + expiresInSeconds).sign(this.keyOf(projectId));
  }

  /** The user id of a valid, unexpired JWT of this project, else null. */
  async verify(projectId: number, token: string): Promise<string | null> {
    if (token.length > MAX_TOKEN_LENGTH) return null;
    try {
      const { payload } = await jwtVerify(token, this.keyOf(projectId), { algorithms: ['HS256'], requiredClaims: ['exp', 'iat'] });
      const id = payload.id;
      return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? String(id) : null;
    } catch {
      return null;
    }
  }
}

/** API tokens are hex; JWTs have three dot-separated parts. */
export const looksLikeJwt = (token: string) => token.split('.').length === 3;
