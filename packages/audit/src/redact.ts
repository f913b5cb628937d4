// What an audit entry's payload may hold: a summary (ids, names, type uids, locales, the names of
// the fields a change touched), never a secret. Every payload goes through `redactPayload` before
// it is stored, whoever built it: a key that names a secret has its value replaced, whatever its
// depth, and the whole is bounded (depth, keys, string and array lengths) so a payload never
// grows with a request body.

/** The value a secret's is replaced with. */
export const REDACTED = '[redacted]';

/** Key names whose values are secrets (compared without case, `_`, `-` or spaces). */
const SECRET_KEYS = new Set([
  'password', 'currentpassword', 'newpassword', 'passwordhash', 'passwordconfirmation', 'secret', 'clientsecret', 'secretbox', 'signingsecret',
  'webhooksecret', 'accesskey', 'apikey', 'key', 'keyhash', 'token', 'accesstoken', 'refreshtoken', 'idtoken', 'sessiontoken', 'jwt',
  'authorization', 'cookie', 'code', 'totp', 'otp', 'recoverycode', 'recoverycodes', 'otpauthurl', 'privatekey', 'resetpasswordtoken',
  'confirmationtoken', 'headers', 'stripesignature', 'cardnumber', 'cvc',
]);

/** Substrings that make any key a secret's (`smtpPassword`, `x-api-key`, `totpSecret`…). */
const SECRET_PARTS = ['password', 'secret', 'token', 'apikey', 'privatekey', 'credential', 'passphrase'];

const MAX_DEPTH = 4;
const MAX_KEYS = 50;
const MAX_ITEMS = 50;
const MAX_STRING = 300;

const normalise = (key: string) => key.toLowerCase().replace(/[\s_-]/g, '');

/** Whether a payload key names a secret (its value is never stored). */
export function isSecretKey(key: string): boolean {
  const k = normalise(key);
  return SECRET_KEYS.has(k) || SECRET_PARTS.some((part) => k.includes(part));
}

/** A copy of `payload` with every secret's value replaced and every part bounded; non-objects give `{}`. */
export function redactPayload(payload: unknown): Record<string, unknown> {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return {};
  return redactValue(payload, 0) as Record<string, unknown>;
}

function redactValue(value: unknown, depth: number): unknown {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
      return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'boolean':
      return value;
    case 'bigint':
      return value.toString();
    case 'object':
      break;
    default:
      return null;
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? [] : {};
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((item) => redactValue(item, depth + 1));
  const out: Record<string, unknown> = {};
  let n = 0;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (item === undefined) continue;
    if (n++ >= MAX_KEYS) break;
    out[key.slice(0, 100)] = isSecretKey(key) ? REDACTED : redactValue(item, depth + 1);
  }
  return out;
}
