// The devices each account has signed in from, so that a sign-in from a new one can be mailed.
// A browser is known by a long-lived random device cookie; a client without cookies (the CLI,
// scripts) by its user agent and IP. Both are stored as keyed hashes per account, never as sent.
import { compiledQuery, type Db } from '@cms/db';
import { deriveKey, keyedHash, randomToken } from './secrets.ts';

const COOKIE_PREFIX = 'cms_d_';
/** Devices kept per account (the most recently seen); older ones count as new again. */
const KEPT_PER_ACCOUNT = 50;

export interface DeviceSighting {
  /** The device cookie the client sent, if any (validated here). */
  cookie?: string;
  userAgent?: string;
  ip: string;
}

export interface DeviceRecord {
  /** The device cookie the client should hold from now on (the one it sent, or a new one). */
  cookie: string;
  /** This device had not signed in to the account before, and the account had signed in before. */
  isNew: boolean;
}

export class KnownDevices {
  private readonly key: Buffer;

  constructor(private readonly db: Db, appSecret: string) {
    this.key = deriveKey(appSecret, 'device-cookie');
  }

  /**
   * Record a sign-in of the account from this device. The device is identified by its cookie
   * when it sent one, else by (user agent, IP); both are remembered for next time. The account's
   * first device ever (its signup, or the first sign-in since devices are recorded) is never new.
   */
  async record(accountId: number, sighting: DeviceSighting): Promise<DeviceRecord> {
    const sent = sighting.cookie && isDeviceCookie(sighting.cookie) ? sighting.cookie : undefined;
    const cookie = sent ?? randomToken(COOKIE_PREFIX);
    const client = keyedHash(this.key, `client:${sighting.userAgent?.slice(0, 300) ?? ''}\0${sighting.ip}`);
    const identity = sent ? keyedHash(this.key, `cookie:${sent}`) : client;
    const remembered = [keyedHash(this.key, `cookie:${cookie}`), client];
    const row = await this.db.maybeOne(compiledQuery({
      text: `WITH seen AS (SELECT count(*) > 0 AS "any", coalesce(bool_or(device_hash = $2), false) AS "known"
                          FROM platform.account_devices WHERE account_id = $1),
             saved AS (INSERT INTO platform.account_devices (account_id, device_hash) SELECT $1, unnest($3::text[])
                       ON CONFLICT (account_id, device_hash) DO UPDATE SET last_seen_at = now()),
             pruned AS (DELETE FROM platform.account_devices WHERE account_id = $1 AND device_hash NOT IN
                          (SELECT device_hash FROM platform.account_devices WHERE account_id = $1 ORDER BY last_seen_at DESC LIMIT ${KEPT_PER_ACCOUNT}))
             SELECT "any", "known" FROM seen`,
      values: [accountId, identity, remembered],
    })) as { any: boolean; known: boolean } | null;
    return { cookie, isNew: row !== null && row.any && !row.known };
  }
}

export function isDeviceCookie(value: string): boolean {
  return value.startsWith(COOKIE_PREFIX) && value.length <= 100 && /^[A-Za-z0-9_-]+$/.test(value);
}
