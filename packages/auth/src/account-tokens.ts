// Single-use, expiring tokens mailed to an account: e-mail verification (24 hours) and password
// reset (1 hour). The token is random and only its keyed hash is stored; using one checks and
// spends it in the same statement, so two concurrent uses cannot both succeed.
import { compiledQuery, type Db } from '@cms/db';
import { deriveKey, keyedHash, randomToken } from './secrets.ts';

export type AccountTokenPurpose = 'verify-email' | 'reset-password';

const LIFETIMES: Record<AccountTokenPurpose, string> = { 'verify-email': '24 hours', 'reset-password': '1 hour' };
const TOKEN_PREFIX = 'cms_a_';

export class AccountTokenService {
  private readonly key: Buffer;

  constructor(private readonly db: Db, appSecret: string) {
    this.key = deriveKey(appSecret, 'account-token');
  }

  hash(token: string): string {
    return keyedHash(this.key, token);
  }

  /** A new token for the account; returned once, only its hash is kept. */
  async issue(accountId: number, purpose: AccountTokenPurpose, db: Db = this.db): Promise<string> {
    const token = randomToken(TOKEN_PREFIX);
    await db.query(compiledQuery({
      text: `INSERT INTO platform.account_tokens (account_id, purpose, token_hash, expires_at) VALUES ($1, $2, $3, now() + interval '${LIFETIMES[purpose]}')`,
      values: [accountId, purpose, this.hash(token)],
    }));
    return token;
  }

  /**
   * Spend a token: the account it was issued to, or null when it is unknown, of another purpose,
   * already used or expired (the caller cannot tell which).
   */
  async consume(token: string, purpose: AccountTokenPurpose, db: Db = this.db): Promise<number | null> {
    if (!token.startsWith(TOKEN_PREFIX) || token.length > 100) return null;
    const accountId = await db.maybeOneFirst(compiledQuery({
      text: `UPDATE platform.account_tokens SET used_at = now()
             WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now() RETURNING account_id`,
      values: [this.hash(token), purpose],
    }));
    return (accountId as number | null) ?? null;
  }

  /** Spend every other live token of the account for `purpose` (a used link retires its older siblings). */
  async retireAll(accountId: number, purpose: AccountTokenPurpose, db: Db = this.db): Promise<void> {
    await db.query(compiledQuery({
      text: 'UPDATE platform.account_tokens SET used_at = now() WHERE account_id = $1 AND purpose = $2 AND used_at IS NULL',
      values: [accountId, purpose],
    }));
  }
}
