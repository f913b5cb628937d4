// The end users table of a project schema (`base_0002_users`). Emails are stored lower-case;
// usernames as given. Only the library's own lookups live here; reads clients see go through
// @cms/query's users view.
import { createId } from '@paralleldrive/cuid2';
import { column, qualify, rows, type Db } from '@cms/db';
import { USERS_TABLE } from '@cms/tables';

export interface UserRow {
  id: string;
  /** For the templates of the user's e-mails (`USER.username`, `USER.email`). */
  username: string;
  email: string;
  password: string | null;
  confirmed: boolean;
  blocked: boolean;
  role: string;
}

export interface NewUser {
  username: string;
  email: string;
  password: string | null;
  confirmed: boolean;
  blocked: boolean;
  role: string;
  confirmationToken?: string | null;
}

const ROW = `id::text AS id, username, email, password, confirmed, blocked, role`;
const table = (schema: string) => qualify(schema, USERS_TABLE);

export async function insertUser(db: Db, schema: string, user: NewUser): Promise<string> {
  const [id] = await column(db,
    `INSERT INTO ${table(schema)} (document_id, username, email, password, confirmed, blocked, role, confirmation_token)
     VALUES ($1, $2, lower($3), $4, $5, $6, $7, $8) RETURNING id`,
    [createId(), user.username, user.email, user.password, user.confirmed, user.blocked, user.role, user.confirmationToken ?? null]);
  return id!;
}

export async function userById(db: Db, schema: string, id: string): Promise<UserRow | null> {
  const [row] = await rows<UserRow>(db, `SELECT ${ROW} FROM ${table(schema)} WHERE id = $1`, [id]);
  return row ?? null;
}

/** The usernames of these users (content history's authors); deleted ones are absent. */
export async function usernamesOf(db: Db, schema: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const found = await rows<{ id: string; username: string }>(db, `SELECT id::text AS id, username FROM ${table(schema)} WHERE id = ANY($1::bigint[])`, [[...ids]]);
  return new Map(found.map((r) => [r.id, r.username]));
}

/** Login: an identifier is an e-mail (any case) or a username (exact). */
export async function userByIdentifier(db: Db, schema: string, identifier: string): Promise<UserRow | null> {
  const [row] = await rows<UserRow>(db,
    `SELECT ${ROW} FROM ${table(schema)} WHERE lower(email) = lower($1) OR username = $1 ORDER BY (lower(email) = lower($1)) DESC, id LIMIT 1`, [identifier]);
  return row ?? null;
}

export async function userByEmail(db: Db, schema: string, email: string): Promise<UserRow | null> {
  const [row] = await rows<UserRow>(db, `SELECT ${ROW} FROM ${table(schema)} WHERE lower(email) = lower($1)`, [email]);
  return row ?? null;
}

/** Is the e-mail or the username taken (by another user than `exceptId`)? */
export async function identityTaken(db: Db, schema: string, email: string | undefined, username: string | undefined, exceptId?: string): Promise<boolean> {
  const found = await column(db,
    `SELECT 1 FROM ${table(schema)} WHERE (lower(email) = lower($1) OR username = $2) AND ($3::bigint IS NULL OR id <> $3) LIMIT 1`,
    [email ?? null, username ?? null, exceptId ?? null]);
  return found.length > 0;
}

export type UserChanges = Partial<Pick<NewUser, 'username' | 'email' | 'password' | 'confirmed' | 'blocked' | 'role'>> & {
  resetPasswordToken?: string | null;
  confirmationToken?: string | null;
};

const CHANGE_COLUMNS: Record<keyof UserChanges, string> = {
  username: 'username', email: 'email', password: 'password', confirmed: 'confirmed', blocked: 'blocked', role: 'role',
  resetPasswordToken: 'reset_password_token', confirmationToken: 'confirmation_token',
};

export async function updateUser(db: Db, schema: string, id: string, changes: UserChanges): Promise<boolean> {
  const values: unknown[] = [id];
  const sets = ['updated_at = now()'];
  for (const [key, value] of Object.entries(changes) as Array<[keyof UserChanges, unknown]>) {
    if (value === undefined) continue;
    values.push(value);
    sets.push(key === 'email' ? `email = lower($${values.length})` : `${CHANGE_COLUMNS[key]} = $${values.length}`);
  }
  return (await column(db, `UPDATE ${table(schema)} SET ${sets.join(', ')} WHERE id = $1 RETURNING id`, values)).length === 1;
}

export async function deleteUser(db: Db, schema: string, id: string): Promise<boolean> {
  return (await column(db, `DELETE FROM ${table(schema)} WHERE id = $1 RETURNING id`, [id])).length === 1;
}

/** The user holding a one-time token (`reset_password_token` or `confirmation_token`). */
export async function userByToken(db: Db, schema: string, kind: 'reset' | 'confirmation', token: string): Promise<UserRow | null> {
  const col = kind === 'reset' ? 'reset_password_token' : 'confirmation_token';
  const [row] = await rows<UserRow>(db, `SELECT ${ROW} FROM ${table(schema)} WHERE ${col} = $1`, [token]);
  return row ?? null;
}

export async function reassignRole(db: Db, schema: string, from: string, to: string): Promise<void> {
  await rows(db, `UPDATE ${table(schema)} SET role = $2, updated_at = now() WHERE role = $1`, [from, to]);
}
