// Platform accounts: signup, login, lookup, password change and reset, e-mail verification, deletion.
import { compiledQuery, type Db } from '@cms/db';
import { UnauthorizedError, ValidationError, type FieldError } from '@cms/errors';
import type { AccountTokenService } from './account-tokens.ts';
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN, verifyPassword } from './passwords.ts';
import type { SessionService } from './sessions.ts';

export interface Account {
  id: number;
  email: string;
  name: string | null;
  emailVerified: boolean;
  /** Two-factor sign-in is on (two-factor.ts). */
  twoFactorEnabled: boolean;
}

const ACCOUNT_COLUMNS = `id, email, name, email_verified_at IS NOT NULL AS "emailVerified",
  EXISTS (SELECT 1 FROM platform.account_two_factor tf WHERE tf.account_id = accounts.id AND tf.enabled_at IS NOT NULL) AS "twoFactorEnabled"`;

// Pragmatic e-mail check: one @, no spaces, a dotted domain; the full RFC grammar is not useful here.
const EMAIL = /^[^\s@"(),:;<>[\\\]]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

const field = (path: string, message: string, value?: unknown): FieldError => ({ path: [path], message, name: 'ValidationError', value });

/** The same answer for an unknown, used and expired link: the caller learns nothing more. */
export const INVALID_LINK_MESSAGE = 'This link is invalid or has expired';
const invalidToken = () => ValidationError.fromFieldErrors([field('token', INVALID_LINK_MESSAGE)]);

function newPasswordErrors(password: string): FieldError[] {
  if (password.length < PASSWORD_MIN) return [field('password', `password must be at least ${PASSWORD_MIN} characters`)];
  if (password.length > PASSWORD_MAX) return [field('password', `password must be at most ${PASSWORD_MAX} characters`)];
  return [];
}

export class AccountService {
  constructor(
    private readonly db: Db,
    private readonly tokens: AccountTokenService,
    private readonly sessions: SessionService,
  ) {}

  async signup(input: { email: string; password: string; name?: string }): Promise<Account> {
    const errors: FieldError[] = [];
    if (!isEmail(input.email)) errors.push(field('email', 'email must be a valid email', input.email));
    errors.push(...newPasswordErrors(input.password));
    if (input.name !== undefined && input.name.length > 200) errors.push(field('name', 'name must be at most 200 characters'));
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    const passwordHash = await hashPassword(input.password);
    const row = await this.db.maybeOne(compiledQuery({
      text: `INSERT INTO platform.accounts (email, name, password_hash) VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING RETURNING ${ACCOUNT_COLUMNS}`,
      values: [input.email, input.name ?? null, passwordHash],
    }));
    if (!row) throw ValidationError.fromFieldErrors([field('email', 'This email is already taken', input.email)]);
    return row as unknown as Account;
  }

  async login(email: string, password: string): Promise<Account> {
    const row = (await this.db.maybeOne(compiledQuery({
      text: `SELECT ${ACCOUNT_COLUMNS}, password_hash FROM platform.accounts WHERE lower(email) = lower($1)`,
      values: [email],
    }))) as (Account & { password_hash: string }) | null;
    const ok = await verifyPassword(password, row?.password_hash ?? null);
    if (!row || !ok) throw new UnauthorizedError('Invalid email or password');
    return { id: row.id, email: row.email, name: row.name, emailVerified: row.emailVerified, twoFactorEnabled: row.twoFactorEnabled };
  }

  /** Change the password after checking the current one (a wrong one is a field error, not a 401). */
  async changePassword(id: number, currentPassword: string, password: string): Promise<void> {
    const errors: FieldError[] = [];
    if (!(await this.passwordMatches(id, currentPassword))) errors.push(field('currentPassword', 'The current password is not correct'));
    errors.push(...newPasswordErrors(password));
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    await this.db.query(compiledQuery({ text: 'UPDATE platform.accounts SET password_hash = $2, updated_at = now() WHERE id = $1', values: [id, await hashPassword(password)] }));
  }

  /** For confirming a destructive act: a wrong password is a 400 on `password`. */
  async checkPassword(id: number, password: string): Promise<void> {
    if (!(await this.passwordMatches(id, password))) throw ValidationError.fromFieldErrors([field('password', 'The password is not correct')]);
  }

  private async passwordMatches(id: number, password: string): Promise<boolean> {
    const row = (await this.db.maybeOne(compiledQuery({ text: 'SELECT password_hash FROM platform.accounts WHERE id = $1', values: [id] }))) as { password_hash: string } | null;
    return verifyPassword(password, row?.password_hash ?? null);
  }

  async get(id: number): Promise<Account | null> {
    return (await this.db.maybeOne(compiledQuery({ text: `SELECT ${ACCOUNT_COLUMNS} FROM platform.accounts WHERE id = $1`, values: [id] }))) as Account | null;
  }

  /** What to call each of these accounts (content history's authors): its name, else its e-mail; deleted ones are absent. */
  async displayNames(ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const found = (await this.db.any(compiledQuery({ text: 'SELECT id, coalesce(name, email) AS name FROM platform.accounts WHERE id = ANY($1::bigint[])', values: [[...ids]] }))) as unknown as Array<{ id: number | string; name: string }>;
    return new Map(found.map((r) => [Number(r.id), r.name]));
  }

  /** The account of an e-mail address (case-insensitive), or null. */
  async findByEmail(email: string): Promise<Account | null> {
    return (await this.db.maybeOne(compiledQuery({ text: `SELECT ${ACCOUNT_COLUMNS} FROM platform.accounts WHERE lower(email) = lower($1)`, values: [email] }))) as Account | null;
  }

  /** Spend a verify-email token and mark the account's address verified; a bad token is a 400 on `token`. */
  async verifyEmail(token: string): Promise<Account> {
    const account = await this.db.transaction(async (tx) => {
      const accountId = await this.tokens.consume(token, 'verify-email', tx);
      if (accountId === null) return null;
      await this.tokens.retireAll(accountId, 'verify-email', tx);
      return (await tx.maybeOne(compiledQuery({
        text: `UPDATE platform.accounts SET email_verified_at = coalesce(email_verified_at, now()) WHERE id = $1 RETURNING ${ACCOUNT_COLUMNS}`,
        values: [accountId],
      }))) as Account | null;
    });
    if (!account) throw invalidToken();
    return account;
  }

  /**
   * Spend a reset-password token: set the password, mark the e-mail verified (the link proved
   * access to the mailbox) and end every session. A password refused by the rules is a 400 on
   * `password` and leaves the token unspent.
   */
  async resetPassword(token: string, password: string): Promise<number> {
    const errors = newPasswordErrors(password);
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    const passwordHash = await hashPassword(password);
    const accountId = await this.db.transaction(async (tx) => {
      const id = await this.tokens.consume(token, 'reset-password', tx);
      if (id === null) return null;
      await this.tokens.retireAll(id, 'reset-password', tx);
      await tx.query(compiledQuery({
        text: 'UPDATE platform.accounts SET password_hash = $2, email_verified_at = coalesce(email_verified_at, now()), updated_at = now() WHERE id = $1',
        values: [id, passwordHash],
      }));
      await this.sessions.revokeAll(id, undefined, tx);
      return id;
    });
    if (accountId === null) throw invalidToken();
    return accountId;
  }

  /** Delete the account row (its sessions, tokens and memberships go with it); `db` may be the caller's transaction. */
  async delete(id: number, db: Db = this.db): Promise<void> {
    await db.query(compiledQuery({ text: 'DELETE FROM platform.accounts WHERE id = $1', values: [id] }));
  }
}
