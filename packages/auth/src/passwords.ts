// Password hashing with argon2id (@node-rs/argon2 defaults: OWASP-recommended parameters).
// bcrypt hashes (`$2a$`/`$2b$`/`$2y$`, users imported from Strapi) are verified too; the caller
// replaces them with an argon2id hash on the next successful login (`needsRehash`).
import { hash, verify } from '@node-rs/argon2';
import { verify as verifyBcrypt } from '@node-rs/bcrypt';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// A real hash to verify against when the account does not exist, so a login for an unknown
// e-mail costs the same time as a wrong password.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(password: string, passwordHash: string | null): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hash('dummy password for timing');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  if (isBcryptHash(passwordHash)) return verifyBcrypt(password, passwordHash).catch(() => false);
  return verify(passwordHash, password).catch(() => false);
}

const BCRYPT = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

/** A bcrypt hash as Strapi's users-permissions stores them. */
export function isBcryptHash(passwordHash: string): boolean {
  return BCRYPT.test(passwordHash);
}

/** Whether a verified password's stored hash should be replaced by `hashPassword`'s (argon2id). */
export function needsRehash(passwordHash: string): boolean {
  return isBcryptHash(passwordHash);
}
