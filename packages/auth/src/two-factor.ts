// Two-factor sign-in of platform accounts (docs/two-factor.md): TOTP per RFC 6238 (SHA-1, 6 digits,
// 30-second steps, one step of clock drift either way) and ten single-use recovery codes.
//
// The TOTP secret is kept encrypted (sealed.ts, bound to the account) because checking a code needs
// it back; recovery codes are kept as keyed hashes, like session tokens. A code is accepted once:
// the last accepted time step is stored and only a later step passes (an atomic compare-and-set, so
// two requests racing with the same code cannot both win). Wrong codes are the caller's to count
// (the gateway rate-limits them); this module answers null for them.
import { randomInt } from 'node:crypto';
import { compiledQuery, type Db } from '@cms/db';
import { ApplicationError } from '@cms/errors';
import { generateSecret, generateURI, verify } from 'otplib';
import { seal, unseal } from './sealed.ts';
import { deriveKey, keyedHash } from './secrets.ts';

/** The issuer authenticator apps show next to the account's e-mail. */
export const TOTP_ISSUER = 'Content Platform';
export const RECOVERY_CODE_COUNT = 10;
const TOTP = { algorithm: 'sha1', digits: 6, period: 30 } as const;
/** ±1 step of 30 s. */
const DRIFT_SECONDS = 30;
const TOTP_CODE = /^\d{6}$/;
// Recovery codes: 10 characters of an alphabet without look-alikes (0/o, 1/l/i), shown as xxxxx-xxxxx.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_LENGTH = 10;

export interface TotpSetup {
  /** Base32, for typing into an authenticator app. */
  secret: string;
  /** `otpauth://totp/...`, for a QR code. */
  otpauthUrl: string;
}

export type SecondFactor = 'totp' | 'recovery-code';

export interface TwoFactorStatus {
  enabled: boolean;
  /** Unused recovery codes (0 when off). */
  recoveryCodesLeft: number;
}

/** What a presented recovery code is compared as: lower case, letters and digits only. */
export function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < RECOVERY_LENGTH; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/**
 * The time step a TOTP `code` of `secret` is valid for at `epoch` (seconds; now by default) with
 * one step of drift either way, if later than `afterStep`; else null.
 */
export async function totpStep(secret: string, code: string, afterStep: number, epoch?: number): Promise<number | null> {
  if (!TOTP_CODE.test(code)) return null;
  const result = await verify({ secret, token: code, epochTolerance: DRIFT_SECONDS, afterTimeStep: afterStep, epoch, ...TOTP });
  // The TOTP strategy's result carries the step it matched (the union type also covers HOTP's).
  const step = result.valid ? (result as { timeStep?: number }).timeStep : undefined;
  return typeof step === 'number' ? step : null;
}

const notOn = () => new ApplicationError('Two-factor authentication is not on for this account');

export class TwoFactorService {
  private readonly secretKey: Buffer;
  private readonly recoveryKey: Buffer;

  constructor(private readonly db: Db, appSecret: string, private readonly issuer = TOTP_ISSUER) {
    this.secretKey = deriveKey(appSecret, 'two-factor-secret');
    this.recoveryKey = deriveKey(appSecret, 'two-factor-recovery');
  }

  async isEnabled(accountId: number): Promise<boolean> {
    return (await this.status(accountId)).enabled;
  }

  async status(accountId: number): Promise<TwoFactorStatus> {
    const row = (await this.db.maybeOne(compiledQuery({
      text: `SELECT (SELECT count(*)::int FROM platform.account_recovery_codes WHERE account_id = $1 AND used_at IS NULL) AS left
             FROM platform.account_two_factor WHERE account_id = $1 AND enabled_at IS NOT NULL`,
      values: [accountId],
    }))) as { left: number } | null;
    return { enabled: row !== null, recoveryCodesLeft: row?.left ?? 0 };
  }

  /**
   * A new secret awaiting confirmation (`enable`); a second setup replaces the first. Refused (409)
   * while two-factor is on: it is turned off first, with a code.
   */
  async setup(account: { id: number; email: string }): Promise<TotpSetup> {
    const secret = generateSecret();
    const row = await this.db.maybeOne(compiledQuery({
      text: `INSERT INTO platform.account_two_factor (account_id, pending_secret) VALUES ($1, $2)
             ON CONFLICT (account_id) DO UPDATE SET pending_secret = EXCLUDED.pending_secret, updated_at = now()
               WHERE account_two_factor.enabled_at IS NULL
             RETURNING account_id`,
      values: [account.id, this.seal(account.id, secret)],
    }));
    if (!row) throw new ApplicationError('Two-factor authentication is already on; turn it off first to set up a new authenticator', {}, 409);
    return { secret, otpauthUrl: generateURI({ issuer: this.issuer, label: account.email, secret, ...TOTP }) };
  }

  /**
   * Confirm the pending secret with a code of it: two-factor is on and the ten recovery codes
   * (returned once, kept hashed) replace any earlier ones. Null when the code is wrong.
   */
  async enable(accountId: number, code: string): Promise<string[] | null> {
    return this.db.transaction(async (tx) => {
      const row = (await tx.maybeOne(compiledQuery({
        text: 'SELECT pending_secret, last_step::text AS last_step, enabled_at IS NOT NULL AS enabled FROM platform.account_two_factor WHERE account_id = $1 FOR UPDATE',
        values: [accountId],
      }))) as { pending_secret: string | null; last_step: string; enabled: boolean } | null;
      if (row?.enabled) throw new ApplicationError('Two-factor authentication is already on', {}, 409);
      const secret = row?.pending_secret ? this.unseal(accountId, row.pending_secret) : null;
      if (!row || !secret) throw new ApplicationError('Start with the setup: there is no authenticator waiting for confirmation');
      const step = await totpStep(secret, code, Number(row.last_step));
      if (step === null) return null;
      await tx.query(compiledQuery({
        text: `UPDATE platform.account_two_factor SET secret = pending_secret, pending_secret = NULL, enabled_at = now(), last_step = $2, updated_at = now()
               WHERE account_id = $1`,
        values: [accountId, step],
      }));
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      await tx.query(compiledQuery({ text: 'DELETE FROM platform.account_recovery_codes WHERE account_id = $1', values: [accountId] }));
      await tx.query(compiledQuery({
        text: 'INSERT INTO platform.account_recovery_codes (account_id, code_hash) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING',
        values: [accountId, codes.map((c) => this.recoveryHash(accountId, c))],
      }));
      return codes;
    });
  }

  /**
   * Spend a second factor of an account with two-factor on: a TOTP code of a step later than the
   * last accepted one, or an unused recovery code. Null when it is neither (or two-factor is off).
   */
  async check(accountId: number, code: string): Promise<SecondFactor | null> {
    const presented = code.trim();
    if (TOTP_CODE.test(presented)) {
      const row = (await this.db.maybeOne(compiledQuery({
        text: 'SELECT secret, last_step::text AS last_step FROM platform.account_two_factor WHERE account_id = $1 AND enabled_at IS NOT NULL',
        values: [accountId],
      }))) as { secret: string; last_step: string } | null;
      const secret = row ? this.unseal(accountId, row.secret) : null;
      if (!row || !secret) return null;
      const step = await totpStep(secret, presented, Number(row.last_step));
      if (step === null) return null;
      // Only one request can move the step forward past this value: a concurrent replay loses.
      const moved = await this.db.maybeOne(compiledQuery({
        text: 'UPDATE platform.account_two_factor SET last_step = $2 WHERE account_id = $1 AND last_step < $2 AND enabled_at IS NOT NULL RETURNING account_id',
        values: [accountId, step],
      }));
      return moved ? 'totp' : null;
    }
    const normalised = normaliseRecoveryCode(presented);
    if (normalised.length !== RECOVERY_LENGTH) return null;
    const used = await this.db.maybeOne(compiledQuery({
      text: `UPDATE platform.account_recovery_codes SET used_at = now() WHERE account_id = $1 AND code_hash = $2 AND used_at IS NULL
               AND EXISTS (SELECT 1 FROM platform.account_two_factor WHERE account_id = $1 AND enabled_at IS NOT NULL)
             RETURNING account_id`,
      values: [accountId, this.recoveryHash(accountId, normalised)],
    }));
    return used ? 'recovery-code' : null;
  }

  /** Turn two-factor off with a second factor (spent); null when the code is wrong. */
  async disable(accountId: number, code: string): Promise<SecondFactor | null> {
    if (!(await this.isEnabled(accountId))) throw notOn();
    const factor = await this.check(accountId, code);
    if (!factor) return null;
    await this.db.transaction(async (tx) => {
      await tx.query(compiledQuery({ text: 'DELETE FROM platform.account_recovery_codes WHERE account_id = $1', values: [accountId] }));
      await tx.query(compiledQuery({ text: 'DELETE FROM platform.account_two_factor WHERE account_id = $1', values: [accountId] }));
    });
    return factor;
  }

  private seal(accountId: number, secret: string): string {
    return seal(this.secretKey, secret, `account:${accountId}`);
  }

  private unseal(accountId: number, sealed: string): string | null {
    return unseal(this.secretKey, sealed, `account:${accountId}`);
  }

  private recoveryHash(accountId: number, code: string): string {
    return keyedHash(this.recoveryKey, `${accountId}:${normaliseRecoveryCode(code)}`);
  }
}
