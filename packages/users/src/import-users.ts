// Users imported from another Strapi (users-permissions), keeping their documentId and their
// password hash (bcrypt, verified at login and replaced by argon2id then). Idempotent: a user is
// matched by e-mail (any case), so sending the same batch again updates instead of adding.
import { createId } from '@paralleldrive/cuid2';
import { isBcryptHash } from '@cms/auth';
import { column, qualify, type Db } from '@cms/db';
import { ValidationError, type FieldError } from '@cms/errors';
import { USERS_TABLE } from '@cms/tables';

export interface ImportedUser {
  documentId: string | null;
  username: string;
  email: string;
  /** A bcrypt or argon2 hash, or null (a user of an external provider). */
  password: string | null;
  provider: string;
  confirmed: boolean;
  blocked: boolean;
  /** The role's type (`authenticated`, a custom role's type). */
  role: string;
}

export const MAX_IMPORT_USERS = 500;

const isDict = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The batch's users, checked one by one; the first bad one refuses the batch with its index. */
export function parseImportedUsers(body: unknown, roleTypes: readonly string[]): ImportedUser[] {
  const list = isDict(body) ? body.users : undefined;
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_IMPORT_USERS) {
    throw new ValidationError(`users must be a list of 1 to ${MAX_IMPORT_USERS} users`);
  }
  return list.map((item, i) => {
    const fail = (field: string, message: string): never => {
      const error: FieldError = { path: ['users', String(i), field], message: `users[${i}].${field} ${message}`, name: 'ValidationError' };
      throw ValidationError.fromFieldErrors([error]);
    };
    if (!isDict(item)) return fail('', 'must be an object');
    const text = (key: string, max: number): string => {
      const v = item[key];
      return typeof v === 'string' && v.length > 0 && v.length <= max && !v.includes('\0') ? v : fail(key, `must be a text of 1 to ${max} characters`);
    };
    const flag = (key: string): boolean => (item[key] === undefined || item[key] === null ? false : typeof item[key] === 'boolean' ? item[key] as boolean : fail(key, 'must be a boolean'));
    const email = text('email', 254).toLowerCase();
    if (!EMAIL.test(email)) fail('email', 'must be an e-mail address');
    const password = item.password === null || item.password === undefined ? null : text('password', 200);
    if (password !== null && !isBcryptHash(password) && !password.startsWith('$argon2')) fail('password', 'must be a bcrypt or argon2 hash (plain passwords are never imported)');
    const role = item.role === undefined || item.role === null ? 'authenticated' : text('role', 100);
    if (!roleTypes.includes(role)) fail('role', `is not a role of this project: ${role}`);
    const documentId = item.documentId === undefined || item.documentId === null ? null : text('documentId', 64);
    return {
      documentId, email, password, role,
      username: text('username', 255),
      provider: item.provider === undefined || item.provider === null ? 'local' : text('provider', 100),
      confirmed: flag('confirmed'), blocked: flag('blocked'),
    };
  });
}

/** Insert or update each user (matched by e-mail) in the caller's transaction; resolves with how many were new. */
export async function importUsers(tx: Db, schema: string, users: readonly ImportedUser[]): Promise<{ created: number; updated: number }> {
  const table = qualify(schema, USERS_TABLE);
  let created = 0;
  for (const u of users) {
    const [inserted] = await column(tx,
      `INSERT INTO ${table} AS t (document_id, username, email, provider, password, confirmed, blocked, role)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (lower(email)) DO UPDATE SET username = EXCLUDED.username, provider = EXCLUDED.provider,
         password = EXCLUDED.password, confirmed = EXCLUDED.confirmed, blocked = EXCLUDED.blocked, role = EXCLUDED.role, updated_at = now()
       RETURNING (xmax = 0)::text`,
      [u.documentId ?? createId(), u.username, u.email, u.provider, u.password, u.confirmed, u.blocked, u.role]);
    if (inserted === 'true') created++;
  }
  return { created, updated: users.length - created };
}
