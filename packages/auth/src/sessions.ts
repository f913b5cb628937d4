// Dashboard and automation sessions of platform accounts: opaque random tokens stored as keyed
// hashes, so a session can be listed and revoked ("log out everywhere") on every instance at once.
// A session lives 7 days after its last use.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { compiledQuery, type Db } from '@cms/db';
import { deviceLabel } from './device-label.ts';
import { deriveKey, keyedHash, randomToken } from './secrets.ts';

const IDLE_LIFETIME = '7 days';
const TOKEN_PREFIX = 'cms_s_';

export interface SessionInfo {
  id: number;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
  userAgent: string | null;
  /** A human label of the device, parsed from the user agent ("Chrome 120 on macOS"). */
  device: string;
  /** The client IP at sign-in, and of the session's last use (updated at most once a minute). */
  ip: string | null;
  lastSeenIp: string | null;
}

export interface VerifiedSession {
  accountId: number;
  sessionId: number;
}

const COLUMNS = `id::int AS id, created_at AS "createdAt", last_used_at AS "lastUsedAt", expires_at AS "expiresAt", user_agent AS "userAgent",
  ip, coalesce(last_seen_ip, ip) AS "lastSeenIp"`;
const IP_MAX = 64;

export class SessionService {
  private readonly hashKey: Buffer;
  private readonly csrfKey: Buffer;

  constructor(private readonly db: Db, appSecret: string) {
    this.hashKey = deriveKey(appSecret, 'session-token');
    this.csrfKey = deriveKey(appSecret, 'session-csrf');
  }

  private hash(token: string): string {
    return keyedHash(this.hashKey, token);
  }

  /** A new session for the account, opened from `ip`; the token is returned once, only its hash is kept. */
  async create(accountId: number, userAgent: string | undefined, ip?: string): Promise<string> {
    const token = randomToken(TOKEN_PREFIX);
    await this.db.query(compiledQuery({
      text: `INSERT INTO platform.sessions (account_id, token_hash, user_agent, ip, expires_at) VALUES ($1, $2, $3, $4, now() + interval '${IDLE_LIFETIME}')`,
      values: [accountId, this.hash(token), userAgent?.slice(0, 300) ?? null, ip?.slice(0, IP_MAX) ?? null],
    }));
    return token;
  }

  /**
   * The live session of a presented token, or null: read from Postgres on every call (nothing
   * caches a session, so an ended one is refused at once by every instance). Use extends it and
   * records the client IP (`ip`), written at most once a minute.
   */
  async verify(token: string, ip?: string): Promise<VerifiedSession | null> {
    if (!token.startsWith(TOKEN_PREFIX) || token.length > 100) return null;
    const row = await this.db.maybeOne(compiledQuery({
      text: `WITH found AS (SELECT id, account_id, last_used_at FROM platform.sessions WHERE token_hash = $1 AND expires_at > now()),
             touched AS (UPDATE platform.sessions s SET last_used_at = now(), expires_at = now() + interval '${IDLE_LIFETIME}',
                                last_seen_ip = coalesce($2, s.last_seen_ip)
                         FROM found WHERE s.id = found.id AND found.last_used_at < now() - interval '1 minute')
             SELECT id::int AS "sessionId", account_id::int AS "accountId" FROM found`,
      values: [this.hash(token), ip?.slice(0, IP_MAX) ?? null],
    }));
    return (row as VerifiedSession | null) ?? null;
  }

  async list(accountId: number): Promise<SessionInfo[]> {
    const rows = (await this.db.any(compiledQuery({
      text: `SELECT ${COLUMNS} FROM platform.sessions WHERE account_id = $1 AND expires_at > now() ORDER BY last_used_at DESC, id DESC`,
      values: [accountId],
    }))) as unknown as Array<Omit<SessionInfo, 'device'>>;
    return rows.map((row) => ({ ...row, device: deviceLabel(row.userAgent) }));
  }

  /** End one session of the account; false when it has no such session. */
  async revoke(accountId: number, sessionId: number): Promise<boolean> {
    const row = await this.db.maybeOne(compiledQuery({ text: 'DELETE FROM platform.sessions WHERE account_id = $1 AND id = $2 RETURNING id', values: [accountId, sessionId] }));
    return row !== null;
  }

  /** End every session of the account but `keep` (none when omitted); `db` may be the caller's transaction. */
  async revokeAll(accountId: number, keep?: number, db: Db = this.db): Promise<void> {
    await db.query(compiledQuery({ text: 'DELETE FROM platform.sessions WHERE account_id = $1 AND id IS DISTINCT FROM $2', values: [accountId, keep ?? null] }));
  }

  /** The CSRF token bound to a session token (sent back in `x-csrf-token` by the dashboard). */
  csrfToken(sessionToken: string): string {
    return createHmac('sha256', this.csrfKey).update(sessionToken).digest('base64url');
  }

  csrfMatches(sessionToken: string, presented: string | undefined): boolean {
    if (!presented) return false;
    const expected = Buffer.from(this.csrfToken(sessionToken));
    const given = Buffer.from(presented);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
