// The query string of the audit log's routes (`?action=&actor=&from=&to=&page=&pageSize=`),
// checked whole: an unknown key, a repeated one or a value out of shape is a 400 ValidationError.
import { ValidationError } from '@cms/errors';
import { ACTOR_TYPES, type AuditActorType } from './audit-rows.ts';

export const DEFAULT_AUDIT_PAGE_SIZE = 25;
export const MAX_AUDIT_PAGE_SIZE = 100;

export interface AuditListQuery {
  page: number;
  pageSize: number;
  /** A full action name (`entry.create`) or a family (`entry`). */
  action?: string;
  actorType?: AuditActorType;
  actorId?: string;
  /** An account's e-mail (resolved to its id by the caller). */
  actorEmail?: string;
  from?: string;
  to?: string;
}

const ACTION = /^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)*$/;
const ID = /^[A-Za-z0-9_-]{1,64}$/;
const EMAIL = /^[^\s@]{1,200}@[^\s@]{1,200}$/;
// An ISO 8601 date (a whole day) or instant.
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

const invalid = (key: string, message: string) => new ValidationError(message, { key });

function positiveInt(key: string, value: string, max: number): number {
  if (!/^\d{1,7}$/.test(value) || Number(value) < 1 || Number(value) > max) throw invalid(key, `${key} must be an integer from 1 to ${max}`);
  return Number(value);
}

/** `from`/`to` as ISO instants; a bare date is that whole day (UTC): `from` its start, `to` its end. */
function instant(key: 'from' | 'to', value: string): string {
  if (DATE.test(value)) {
    const start = Date.parse(`${value}T00:00:00.000Z`);
    if (Number.isNaN(start)) throw invalid(key, `${key} must be an ISO 8601 date or date-time`);
    return new Date(key === 'from' ? start : start + 86_400_000 - 1).toISOString();
  }
  const at = INSTANT.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) throw invalid(key, `${key} must be an ISO 8601 date or date-time`);
  return new Date(at).toISOString();
}

/**
 * `actor`: `system`, an actor type (`account`, `api-token`, `end-user`), `type:id`
 * (`api-token:12`), an account's id or an account's e-mail.
 */
function actorFilter(value: string): Pick<AuditListQuery, 'actorType' | 'actorId' | 'actorEmail'> {
  if ((ACTOR_TYPES as readonly string[]).includes(value)) return { actorType: value as AuditActorType };
  if (EMAIL.test(value)) return { actorType: 'account', actorEmail: value };
  if (/^\d{1,15}$/.test(value)) return { actorType: 'account', actorId: String(Number(value)) };
  const colon = value.indexOf(':');
  const type = value.slice(0, colon);
  const id = value.slice(colon + 1);
  if (colon > 0 && (ACTOR_TYPES as readonly string[]).includes(type) && type !== 'system' && ID.test(id)) return { actorType: type as AuditActorType, actorId: id };
  throw invalid('actor', 'actor must be "system", an actor type, "type:id", an account id or an account\'s e-mail');
}

/** Parse a list or export query; `keys` are the keys the route takes. */
export function parseAuditQuery(query: Record<string, unknown>, keys: readonly string[] = ['action', 'actor', 'from', 'to', 'page', 'pageSize']): AuditListQuery {
  const out: AuditListQuery = { page: 1, pageSize: DEFAULT_AUDIT_PAGE_SIZE };
  for (const [key, value] of Object.entries(query)) {
    const name = key.slice(0, 100);
    if (!keys.includes(key)) throw invalid(name, `${name} is not a valid key`);
    if (typeof value !== 'string') throw invalid(name, `${name} must be given once, as text`);
    if (value === '') continue;
    if (value.length > 400 || value.includes('\0')) throw invalid(name, `${name} is too long`);
    switch (key) {
      case 'page': out.page = positiveInt(key, value, 1_000_000); break;
      case 'pageSize': out.pageSize = positiveInt(key, value, MAX_AUDIT_PAGE_SIZE); break;
      case 'action':
        if (value.length > 100 || !ACTION.test(value)) throw invalid(key, 'action must be an action name (entry.create) or a family (entry)');
        out.action = value;
        break;
      case 'actor': Object.assign(out, actorFilter(value)); break;
      case 'from': out.from = instant('from', value); break;
      case 'to': out.to = instant('to', value); break;
    }
  }
  if (out.from !== undefined && out.to !== undefined && out.from > out.to) throw invalid('from', 'from must not be after to');
  return out;
}
