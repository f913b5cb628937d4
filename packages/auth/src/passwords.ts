// Password hashing with argon2id (@node-rs/argon2 defaults: OWASP-recommended parameters).
import { hash, verify } from '@node-rs/argon2';

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
  return verify(passwordHash, password).catch(() => false);
}
