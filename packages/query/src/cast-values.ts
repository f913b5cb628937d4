// Filter values → the text Postgres will parse for the column type, validated here so a bad
// value is a 400 ValidationError and never a Postgres error (Strapi answers 500: GitHub #24678).
// Every result is a string bound as `$n::<sqlType>`.
import type { FieldType } from './model-view.ts';

/** The type a bound value is cast to. JSON columns are compared as text. */
export function castSqlType(type: FieldType): string {
  switch (type) {
    case 'id':
    case 'biginteger':
      return 'bigint';
    case 'integer':
      return 'integer';
    case 'float':
      return 'double precision';
    case 'decimal':
      return 'numeric';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'time':
      return 'time';
    case 'datetime':
      return 'timestamptz';
    default:
      return 'text';
  }
}

/** Compared through `::text` (jsonb has no useful comparison with request strings). */
export const isJsonType = (type: FieldType): boolean => type === 'json' || type === 'blocks';

export const INT_RE = /^[+-]?\d+$/;
export const NUMBER_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
export const INT32 = { min: -2147483648n, max: 2147483647n };
export const INT64 = { min: -9223372036854775808n, max: 9223372036854775807n };
const BOOL_TRUE = new Set(['true', 't', '1']);
const BOOL_FALSE = new Set(['false', 'f', '0']);
// numeric accepts 131072 digits before the point; bound the exponent well below its overflow.
const MAX_DECIMAL_EXPONENT = 1000;

type Fail = (expected: string) => Error;

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return value.toString();
  return undefined;
}

function castInteger(value: unknown, range: { min: bigint; max: bigint }, fail: Fail, expected: string): string {
  const text = scalarText(value);
  if (text === undefined || !INT_RE.test(text)) throw fail(expected);
  const n = BigInt(text);
  if (n < range.min || n > range.max) throw fail(`${expected} in range`);
  return n.toString();
}

function castFloat(value: unknown, fail: Fail): string {
  const text = scalarText(value);
  if (text === undefined || !NUMBER_RE.test(text)) throw fail('a number');
  const n = Number(text);
  if (!Number.isFinite(n)) throw fail('a number in range');
  return String(n);
}

function castDecimal(value: unknown, fail: Fail): string {
  const text = scalarText(value);
  if (text === undefined || !NUMBER_RE.test(text)) throw fail('a decimal number');
  const e = /[eE]([+-]?\d+)$/.exec(text);
  if (e && Math.abs(Number(e[1])) > MAX_DECIMAL_EXPONENT) throw fail('a decimal number in range');
  return text;
}

function castBoolean(value: unknown, fail: Fail): string {
  if (typeof value === 'boolean') return String(value);
  if (value === 1 || value === 0) return String(value === 1);
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (BOOL_TRUE.has(v)) return 'true';
    if (BOOL_FALSE.has(v)) return 'false';
  }
  throw fail('a boolean (true, false, 1, 0, t, f)');
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function validDate(y: number, m: number, d: number): boolean {
  if (y < 1 || y > 9999 || m < 1 || m > 12 || d < 1) return false;
  const dt = new Date(Date.UTC(2000, m - 1, d));
  dt.setUTCFullYear(y);
  return dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}

const DATE_PREFIX = /^(\d{4})-(\d{2})-(\d{2})(?=$|[T ])/;

/** `YYYY-MM-DD`; a longer string starting with a date is truncated to it (Strapi's date field). */
function castDate(value: unknown, fail: Fail): string {
  const m = typeof value === 'string' ? DATE_PREFIX.exec(value.trim()) : null;
  if (!m || !validDate(+m[1]!, +m[2]!, +m[3]!)) throw fail('a date (YYYY-MM-DD)');
  return `${m[1]}-${m[2]}-${m[3]}`;
}

const TIME_RE = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?$/;

function castTime(value: unknown, fail: Fail): string {
  const m = typeof value === 'string' ? TIME_RE.exec(value.trim()) : null;
  if (!m || +m[1]! > 23 || +m[2]! > 59 || (m[3] !== undefined && +m[3] > 59)) throw fail('a time (HH:mm:ss.SSS)');
  return `${m[1]}:${m[2]}:${m[3] ?? '00'}${m[4] ? `.${m[4]}` : ''}`;
}

const DATETIME_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const MAX_EPOCH_MS = 253402300799999; // 9999-12-31T23:59:59.999Z
const MIN_EPOCH_MS = -62135596800000; // 0001-01-01T00:00:00.000Z

/** ISO 8601 (a missing zone means UTC) or epoch milliseconds → ISO UTC with milliseconds. */
function castDatetime(value: unknown, fail: Fail): string {
  const expected = 'a timestamp or an ISO date';
  let ms: number;
  const text = scalarText(value);
  if (text === undefined) throw fail(expected);
  if (INT_RE.test(text)) {
    ms = Number(text);
  } else {
    const m = DATETIME_RE.exec(text);
    if (!m) throw fail(expected);
    const [y, mo, d, h = 0, mi = 0, s = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((x) => (x === undefined ? undefined : Number(x))) as number[];
    if (!validDate(y!, mo!, d!) || h > 23 || mi > 59 || s > 59) throw fail(expected);
    const frac = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
    let offset = 0;
    const zone = m[8];
    if (zone && zone.toUpperCase() !== 'Z') {
      const digits = zone.slice(1).replace(':', '');
      const oh = Number(digits.slice(0, 2));
      const om = Number(digits.slice(2) || '0');
      if (oh > 23 || om > 59) throw fail(expected);
      offset = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
    }
    const base = new Date(Date.UTC(2000, mo! - 1, d!, h, mi, s, frac));
    base.setUTCFullYear(y!);
    ms = base.getTime() - offset;
  }
  if (!Number.isSafeInteger(ms) || ms > MAX_EPOCH_MS || ms < MIN_EPOCH_MS) throw fail(`${expected} in range`);
  const dt = new Date(ms);
  return `${pad(dt.getUTCFullYear(), 4)}-${pad(dt.getUTCMonth() + 1)}-${pad(dt.getUTCDate())}T${pad(dt.getUTCHours())}:` +
    `${pad(dt.getUTCMinutes())}:${pad(dt.getUTCSeconds())}.${pad(dt.getUTCMilliseconds(), 3)}Z`;
}

function castString(value: unknown, fail: Fail): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  throw fail('a string');
}

const TIME_INPUT = /^\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?$/;
const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}(?=$|[T ])/;
const refuse = () => new Error('refused');

/**
 * Strapi's message for a date, time or datetime *input* it refuses (a body value, a GraphQL
 * argument), or null when the value is one. Inputs are stricter than filters: a time needs its
 * seconds; a well-formed but impossible date (`2023-02-29`) is an "Invalid date".
 */
export function temporalInputError(type: 'date' | 'time' | 'datetime', value: unknown): string | null {
  try {
    if (type === 'time') {
      if (typeof value !== 'string' || !TIME_INPUT.test(value.trim())) throw refuse();
      castTime(value, refuse);
    } else if (type === 'date') {
      castDate(value, refuse);
    } else {
      castDatetime(value, refuse);
    }
    return null;
  } catch {
    if (type === 'time') return 'Invalid time format, expected HH:mm:ss.SSS';
    if (type === 'datetime') return 'Invalid format, expected a timestamp or an ISO date';
    return typeof value === 'string' && DATE_SHAPE.test(value.trim()) ? 'Invalid date' : 'Invalid format, expected yyyy-MM-dd';
  }
}

/** Cast one non-null filter value to the text of the column's type. */
export function castValue(type: FieldType, value: unknown, fail: Fail): string {
  switch (type) {
    case 'id':
      return castInteger(value, INT64, fail, 'an integer id');
    case 'integer':
      return castInteger(value, INT32, fail, 'an integer');
    case 'biginteger':
      return castInteger(value, INT64, fail, 'a 64-bit integer');
    case 'float':
      return castFloat(value, fail);
    case 'decimal':
      return castDecimal(value, fail);
    case 'boolean':
      return castBoolean(value, fail);
    case 'date':
      return castDate(value, fail);
    case 'time':
      return castTime(value, fail);
    case 'datetime':
      return castDatetime(value, fail);
    default:
      return castString(value, fail);
  }
}

/** LIKE patterns match `%`, `_` and `\` literally (Postgres' default escape character is `\`). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
