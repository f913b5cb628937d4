// Platform accounts: signup, login, lookup.
import { compiledQuery, type Db } from '@cms/db';
import { UnauthorizedError, ValidationError, type FieldError } from '@cms/errors';
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN, verifyPassword } from './passwords.ts';

export interface Account {
  id: number;
  email: string;
  name: string | null;
}

// Pragmatic e-mail check: one @, no spaces, a dotted domain; the full RFC grammar is not useful here.
const EMAIL = /^[^\s@"(),:;<>[\\\]]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

const field = (path: string, message: string, value?: unknown): FieldError => ({ path: [path], message, name: 'ValidationError', value });

export class AccountService {
  constructor(private readonly db: Db) {}

  async signup(input: { email: string; password: string; name?: string }): Promise<Account> {
    const errors: FieldError[] = [];
    if (!isEmail(input.email)) errors.push(field('email', 'email must be a valid email', input.email));
    if (input.password.length < PASSWORD_MIN) errors.push(field('password', `password must be at least ${PASSWORD_MIN} characters`));
    if (input.password.length > PASSWORD_MAX) errors.push(field('password', `password must be at most ${PASSWORD_MAX} characters`));
    if (input.name !== undefined && input.name.length > 200) errors.push(field('name', 'name must be at most 200 characters'));
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    const passwordHash = await hashPassword(input.password);
    const row = await this.db.maybeOne(compiledQuery({
      text: `INSERT INTO platform.accounts (email, name, password_hash) VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING RETURNING id, email, name`,
      values: [input.email, input.name ?? null, passwordHash],
    }));
    if (!row) throw ValidationError.fromFieldErrors([field('email', 'This email is already taken', input.email)]);
    return row as unknown as Account;
  }

  async login(email: string, password: string): Promise<Account> {
    const row = (await this.db.maybeOne(compiledQuery({
      text: 'SELECT id, email, name, password_hash FROM platform.accounts WHERE lower(email) = lower($1)',
      values: [email],
    }))) as (Account & { password_hash: string }) | null;
    const ok = await verifyPassword(password, row?.password_hash ?? null);
    if (!row || !ok) throw new UnauthorizedError('Invalid email or password');
    return { id: row.id, email: row.email, name: row.name };
  }

  /** Change the password after checking the current one (a wrong one is a field error, not a 401). */
  async changePassword(id: number, currentPassword: string, password: string): Promise<void> {
    const row = (await this.db.maybeOne(compiledQuery({ text: 'SELECT password_hash FROM platform.accounts WHERE id = $1', values: [id] }))) as { password_hash: string } | null;
    const errors: FieldError[] = [];
    if (!(await verifyPassword(currentPassword, row?.password_hash ?? null))) errors.push(field('currentPassword', 'The current password is not correct'));
    if (password.length < PASSWORD_MIN) errors.push(field('password', `password must be at least ${PASSWORD_MIN} characters`));
    if (password.length > PASSWORD_MAX) errors.push(field('password', `password must be at most ${PASSWORD_MAX} characters`));
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    await this.db.query(compiledQuery({ text: 'UPDATE platform.accounts SET password_hash = $2, updated_at = now() WHERE id = $1', values: [id, await hashPassword(password)] }));
  }

  async get(id: number): Promise<Account | null> {
    return (await this.db.maybeOne(compiledQuery({ text: 'SELECT id, email, name FROM platform.accounts WHERE id = $1', values: [id] }))) as Account | null;
  }
}
