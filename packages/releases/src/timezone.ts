// IANA time zones (`Europe/Paris`) and ISO instants, as a release's schedule takes them.
import { ValidationError } from '@cms/errors';

const ZONE_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/;

/**
 * An IANA zone name this runtime's time zone database knows (`Europe/Paris`, `UTC`, links such as
 * `America/Argentina/Buenos_Aires`), spelled as the database spells it. Offsets (`+01:00`) are
 * not zones: they do not follow daylight saving time.
 */
export function isIanaTimeZone(name: string): boolean {
  if (name.length > 64 || !ZONE_SHAPE.test(name)) return false;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return false;
  }
  // Intl matches names case-insensitively; a schedule keeps the name as the database has it.
  return resolved === name || resolved.toLowerCase() !== name.toLowerCase();
}

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The instant an ISO 8601 date-time with a `Z` or an offset names, in ms; null when it is not
 * one (no zone: which instant would it be?) or names a day or time that does not exist.
 */
export function parseInstant(text: string): number | null {
  const m = INSTANT.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [number, number, number, number, number, number];
  // Date.parse rolls 2026-02-30 over to March 2nd: check the fields are a real date and time.
  const local = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  if (local.getUTCFullYear() !== y || local.getUTCMonth() !== mo - 1 || local.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : at;
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?$/;

/** The wall clock of `zone` at instant `at`, as if it were UTC (ms). */
function wallClock(at: number, zone: string): number {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', {
    timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(at).map((p) => [p.type, p.value]));
  return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second)) + (at % 1000 + 1000) % 1000;
}

/**
 * The instant a local date-time without offset (`2030-03-31T10:00:00`) names on the wall clock of
 * IANA `zone`, following its daylight saving time; null when it is not a date-time or does not
 * exist there (the hour skipped in spring). A time the autumn change repeats is the first one.
 */
export function zonedInstant(text: string, zone: string): number | null {
  const m = LOCAL.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s, ms] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0', (m[7] ?? '0').padEnd(3, '0')].map(Number) as number[];
  const local = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!, ms!);
  const check = new Date(local);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo! - 1 || check.getUTCDate() !== d || h! > 23 || mi! > 59 || s! > 59) return null;
  // The zone's offsets a day either side cover both sides of any change; keep the candidates
  // whose wall clock is the one asked for.
  const offsets = new Set([local - 86_400_000, local + 86_400_000].map((t) => wallClock(t, zone) - t));
  const found = [...offsets].map((o) => local - o).filter((t) => wallClock(t, zone) === local).sort((a, b) => a - b);
  return found[0] ?? null;
}

const fieldError = (key: string, message: string) => ValidationError.fromFieldErrors([{ path: [key], message, name: 'ValidationError' }]);

/** `scheduledAt` of a body: null (no schedule) or an ISO instant in the future, as ISO text in UTC. */
export function scheduledAtOf(value: string | null, now = Date.now()): string | null {
  if (value === null) return null;
  const at = parseInstant(value);
  if (at === null) throw fieldError('scheduledAt', 'scheduledAt must be an ISO 8601 date-time with a time zone offset or Z (2026-12-01T09:00:00Z)');
  if (at <= now) throw fieldError('scheduledAt', 'scheduledAt must be in the future');
  return new Date(at).toISOString();
}

/** `timezone` of a body: null, or an IANA zone name. */
export function timezoneOf(value: string | null): string | null {
  if (value === null) return null;
  if (!isIanaTimeZone(value)) throw fieldError('timezone', 'timezone must be an IANA time zone such as Europe/Paris');
  return value;
}
