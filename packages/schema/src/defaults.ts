// Does an attribute's `default` fit its type? A default that cannot be stored would only fail
// later, on the first insert, far away from the schema that caused it.
import { describeType, show } from './guards.ts';
import type { ScalarType } from './types.ts';

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export function isValidDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

export function isValidTime(value: string): boolean {
  const m = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/.exec(value);
  return !!m && Number(m[1]) < 24 && Number(m[2]) < 60 && (m[3] === undefined || Number(m[3]) < 60);
}

export function isValidDateTime(value: string): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})?$/.exec(value);
  return !!m && isValidDate(m[1]!) && isValidTime(m[2]!.replace(/(\.\d{3})\d+$/, '$1')) && !Number.isNaN(Date.parse(value));
}

function isBigInteger(value: unknown): boolean {
  if (typeof value === 'number') return Number.isSafeInteger(value);
  if (typeof value !== 'string' || !/^-?\d{1,20}$/.test(value)) return false;
  const n = BigInt(value);
  return n >= INT64_MIN && n <= INT64_MAX;
}

/** The problem with `value` as a default of `type`, or null when it fits. */
export function defaultProblem(type: ScalarType, value: unknown, enumValues?: string[]): string | null {
  const got = `got ${describeType(value)}`;
  switch (type) {
    case 'string': case 'text': case 'richtext': case 'email': case 'password': case 'uid':
      return typeof value === 'string' ? null : `default must be a string, ${got}`;
    case 'blocks':
      return Array.isArray(value) ? null : `default must be an array of blocks, ${got}`;
    case 'integer':
      return Number.isInteger(value) && (value as number) >= INT32_MIN && (value as number) <= INT32_MAX
        ? null : `default must be an integer between ${INT32_MIN} and ${INT32_MAX}, got ${show(value)}`;
    case 'biginteger':
      return isBigInteger(value) ? null : `default must be a 64-bit integer (number or digit string), got ${show(value)}`;
    case 'float': case 'decimal':
      return typeof value === 'number' && Number.isFinite(value) ? null : `default must be a number, got ${show(value)}`;
    case 'boolean':
      return typeof value === 'boolean' ? null : `default must be a boolean, ${got}`;
    case 'date':
      return typeof value === 'string' && isValidDate(value) ? null : `default must be a date (YYYY-MM-DD), got ${show(value)}`;
    case 'time':
      return typeof value === 'string' && isValidTime(value) ? null : `default must be a time (HH:mm[:ss[.SSS]]), got ${show(value)}`;
    case 'datetime':
      return typeof value === 'string' && isValidDateTime(value) ? null : `default must be an ISO 8601 date-time, got ${show(value)}`;
    case 'enumeration':
      if (typeof value !== 'string') return `default must be one of the enum values, ${got}`;
      // With an invalid `enum`, that option already carries the error.
      return !enumValues || enumValues.includes(value) ? null : `default ${show(value)} is not one of the enum values`;
    case 'json':
      return null;
  }
}
