// Content access keys: what the dashboard presents to a project's content API on behalf of a
// signed-in member. Stateless and short-lived (nothing stored, nothing to clean up): an HMAC over
// `{project, account, access, expiry}` under a key of their own, so a key of one project is
// refused by every other and a forged or altered one fails its signature.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { deriveKey } from './secrets.ts';

export type ContentAccessLevel = 'full-access' | 'read-only';

export interface ContentAccessGrant {
  projectId: number;
  accountId: number;
  access: ContentAccessLevel;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export const CONTENT_ACCESS_KEY_PREFIX = 'cmsk_';
/** Long enough for a page's work, short enough that a member's removal soon takes effect. */
export const CONTENT_ACCESS_KEY_TTL_MS = 10 * 60_000;

export const isContentAccessKey = (token: string) => token.startsWith(CONTENT_ACCESS_KEY_PREFIX);

export class ContentAccessKeys {
  private readonly key: Buffer;

  constructor(appSecret: string, private readonly now: () => number = Date.now) {
    this.key = deriveKey(appSecret, 'content-access-key');
  }

  issue(grant: Omit<ContentAccessGrant, 'expiresAt'>): { accessKey: string; expiresAt: Date } {
    const expiresAt = this.now() + CONTENT_ACCESS_KEY_TTL_MS;
    const payload = Buffer.from(JSON.stringify([grant.projectId, grant.accountId, grant.access, expiresAt])).toString('base64url');
    return { accessKey: `${CONTENT_ACCESS_KEY_PREFIX}${payload}.${this.sign(payload)}`, expiresAt: new Date(expiresAt) };
  }

  /** The grant of a well-formed, correctly signed key; `expired` past its time; null otherwise. */
  verify(token: string): ContentAccessGrant | 'expired' | null {
    if (!isContentAccessKey(token)) return null;
    const [payload, signature, extra] = token.slice(CONTENT_ACCESS_KEY_PREFIX.length).split('.');
    if (!payload || !signature || extra !== undefined) return null;
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let fields: unknown;
    try {
      fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    if (!Array.isArray(fields) || fields.length !== 4) return null;
    const [projectId, accountId, access, expiresAt] = fields as unknown[];
    if (!Number.isSafeInteger(projectId) || !Number.isSafeInteger(accountId) || !Number.isSafeInteger(expiresAt)) return null;
    if (access !== 'full-access' && access !== 'read-only') return null;
    if ((expiresAt as number) <= this.now()) return 'expired';
    return { projectId: projectId as number, accountId: accountId as number, access, expiresAt: expiresAt as number };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
