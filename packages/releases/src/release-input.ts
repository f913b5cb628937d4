// What a request may ask of releases, checked beyond the JSON shape the route's schema enforces:
// names, schedules (an instant in the future with an IANA zone), list queries, ids in paths.
import { NotFoundError, ValidationError } from '@cms/errors';
import type { ReleaseFilter } from './release-rows.ts';
import { scheduledAtOf, timezoneOf } from './timezone.ts';

export const MAX_NAME_LENGTH = 255;
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

const invalid = (key: string, message: string) => ValidationError.fromFieldErrors([{ path: [key], message, name: 'ValidationError' }]);

export interface ReleaseBody {
  name?: string;
  scheduledAt?: string | null;
  timezone?: string | null;
}

/** A create's or update's fields, checked; `scheduledAt` as ISO text in UTC. */
export interface ReleaseInput {
  name?: string;
  scheduledAt?: string | null;
  timezone?: string | null;
}

export function parseReleaseBody(body: ReleaseBody, now = Date.now()): ReleaseInput {
  const out: ReleaseInput = {};
  if (body.name !== undefined) {
    const name = body.name.trim();
    if (name === '' || name.length > MAX_NAME_LENGTH || /[\u0000-\u001f\u007f]/.test(name)) {
      throw invalid('name', `name must be a non-empty text of at most ${MAX_NAME_LENGTH} characters, without control characters`);
    }
    out.name = name;
  }
  if (body.scheduledAt !== undefined) out.scheduledAt = scheduledAtOf(body.scheduledAt, now);
  if (body.timezone !== undefined) out.timezone = timezoneOf(body.timezone);
  return out;
}

/** A schedule names its zone: the member's wall clock it was chosen on (and DST follows it). */
export function assertScheduleHasZone(scheduledAt: string | null, timezone: string | null): void {
  if (scheduledAt !== null && timezone === null) throw invalid('timezone', 'timezone is required with scheduledAt (an IANA time zone such as Europe/Paris)');
}

export interface ListQuery {
  page: number;
  pageSize: number;
}

export interface ReleaseListQuery extends ListQuery {
  status: ReleaseFilter;
}

function positiveInt(key: string, raw: unknown, max: number): number {
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) throw invalid(key, `${key} must be an integer from 1 to ${max}`);
  return Number(raw);
}

/** `page` and `pageSize` (and the `extra` keys); any other key is a 400 naming it. */
function parsePage(query: Record<string, unknown>, extra: readonly string[]): ListQuery {
  const out: ListQuery = { page: 1, pageSize: DEFAULT_PAGE_SIZE };
  for (const [key, value] of Object.entries(query)) {
    if (key === 'page') out.page = positiveInt(key, value, 1_000_000);
    else if (key === 'pageSize') out.pageSize = positiveInt(key, value, MAX_PAGE_SIZE);
    else if (!extra.includes(key)) throw invalid(key.slice(0, 100), `${key.slice(0, 100)} is not a valid key`);
  }
  return out;
}

/** `?status=pending|done&page=&pageSize=` */
export function parseReleaseListQuery(query: Record<string, unknown>): ReleaseListQuery {
  const page = parsePage(query, ['status']);
  const status = query.status;
  if (status !== undefined && status !== 'pending' && status !== 'done') throw invalid('status', 'status must be pending or done');
  return { ...page, status };
}

/** `?page=&pageSize=` */
export function parseActionListQuery(query: Record<string, unknown>): ListQuery {
  return parsePage(query, []);
}

const ID = /^[1-9]\d{0,14}$/;

/** A release's or an action's id from a path; anything else names nothing (404, like an unknown id). */
export function idOf(raw: string, what: 'Release' | 'Release action'): string {
  if (!ID.test(raw)) throw new NotFoundError(`${what} not found`);
  return raw;
}
