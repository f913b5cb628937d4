// What a request may ask of scheduled actions, beyond the JSON shape the route's schema enforces:
// `scheduledFor: {datetime, timezone}` (an instant in the future with an IANA zone) and the list's
// query.
import { ValidationError } from '@cms/errors';
import { isIanaTimeZone, parseInstant, zonedInstant } from './timezone.ts';

export const SCHEDULED_ACTION_TYPES = ['publish', 'unpublish'] as const;
export type ScheduledActionType = (typeof SCHEDULED_ACTION_TYPES)[number];
export const SCHEDULED_ACTION_STATUSES = ['scheduled', 'succeeded', 'failed', 'canceled'] as const;
export type ScheduledActionStatus = (typeof SCHEDULED_ACTION_STATUSES)[number];

export interface ScheduledActionBody {
  contentType: string;
  documentId: string;
  /** Localized types: one of the project's locales (default: its default locale); ignored on others. */
  locale?: string | null;
  action: ScheduledActionType;
  scheduledFor: { datetime: string; timezone: string };
}

const invalid = (path: string[], message: string) => ValidationError.fromFieldErrors([{ path, message, name: 'ValidationError' }]);

/**
 * `scheduledFor` as the instant it names, ISO in UTC, and its zone. `datetime` is an ISO 8601
 * instant (`Z` or an offset) — or a local date-time without offset, read on the wall clock of
 * `timezone` (its daylight saving time applies: `2030-03-31T10:00:00` in Europe/Paris is 08:00Z,
 * the day before 09:00Z). Either way in the future.
 */
export function scheduledForOf(value: ScheduledActionBody['scheduledFor'], now = Date.now()): { at: string; timezone: string } {
  if (!isIanaTimeZone(value.timezone)) throw invalid(['scheduledFor', 'timezone'], 'timezone must be an IANA time zone such as Europe/Paris');
  const at = parseInstant(value.datetime) ?? zonedInstant(value.datetime, value.timezone);
  if (at === null) {
    throw invalid(['scheduledFor', 'datetime'],
      'datetime must be an ISO 8601 date-time (2030-12-01T09:00:00Z, 2030-12-01T09:00:00+01:00, or 2030-12-01T09:00:00 on the clock of timezone) that exists there');
  }
  if (at <= now) throw invalid(['scheduledFor', 'datetime'], 'datetime must be in the future');
  return { at: new Date(at).toISOString(), timezone: value.timezone };
}

export interface ScheduledActionQuery {
  documentId?: string;
  status?: ScheduledActionStatus;
}

/** `?documentId=&status=`; any other key is a 400 naming it. */
export function parseScheduledActionQuery(query: Record<string, unknown>): ScheduledActionQuery {
  const out: ScheduledActionQuery = {};
  for (const [key, value] of Object.entries(query)) {
    if (key === 'documentId') {
      if (typeof value !== 'string' || value === '' || value.length > 64) throw invalid([key], 'documentId must be a documentId');
      out.documentId = value;
    } else if (key === 'status') {
      if (!SCHEDULED_ACTION_STATUSES.includes(value as ScheduledActionStatus)) throw invalid([key], `status must be one of ${SCHEDULED_ACTION_STATUSES.join(', ')}`);
      out.status = value as ScheduledActionStatus;
    } else {
      throw invalid([key.slice(0, 100)], `${key.slice(0, 100)} is not a valid key`);
    }
  }
  return out;
}

const ID = /^[1-9]\d{0,14}$/;

/** A scheduled action's id from a path, or null (names nothing: 404). */
export const scheduledActionIdOf = (raw: string): string | null => (ID.test(raw) ? raw : null);
