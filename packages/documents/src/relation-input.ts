// Relation and media attributes of a write body: every accepted shape
// becomes a `RelationWrite` or a list of file ids; anything else is a field error.
import type { MediaAttribute, RelationAttribute } from '@cms/schema';
import { BODY_LIMITS, fail, isDict as isObject, type FieldSite } from './scalar-input.ts';
import type { ConnectItem, Position, RelationWrite, TargetRef } from './write-input.ts';

/** More targets than this in one attribute of one body is refused (a flood, not an edit). */
const MAX_RELATIONS = BODY_LIMITS.listItems;
const MAX_DOCUMENT_ID = 64;
const MAX_LOCALE = 40;

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);
const only = (obj: Record<string, unknown>, allowed: readonly string[]): boolean => Object.keys(obj).every((k) => allowed.includes(k));

/** A row id given as a positive safe integer or a string of at most 15 digits, as decimal text. */
export function positiveId(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === 'string' && /^\d{1,15}$/.test(value) && Number(value) > 0) return String(Number(value));
  return null;
}

/** A target: documentId string, numeric id, `{documentId, locale?, status?}` or `{id}` (plus `position` on connect items). */
function targetRef(item: unknown, connect = false): TargetRef | null {
  if (typeof item === 'string') return item.length > 0 && item.length <= MAX_DOCUMENT_ID && !item.includes('\0') ? { kind: 'document', documentId: item } : null;
  if (typeof item === 'number') {
    const id = positiveId(item);
    return id ? { kind: 'id', id } : null;
  }
  if (!isObject(item)) return null;
  const extra = connect ? ['position'] : [];
  if (Object.hasOwn(item, 'documentId')) {
    if (!only(item, ['documentId', 'locale', 'status', ...extra])) return null;
    const ref = typeof item.documentId === 'string' ? targetRef(item.documentId) : null;
    if (ref?.kind !== 'document') return null;
    if (item.locale !== undefined && item.locale !== null) {
      if (typeof item.locale !== 'string' || item.locale.length === 0 || item.locale.length > MAX_LOCALE || item.locale.includes('\0')) return null;
      ref.locale = item.locale;
    }
    if (item.status !== undefined && item.status !== null) {
      if (item.status !== 'draft' && item.status !== 'published') return null;
      ref.status = item.status;
    }
    return ref;
  }
  if (Object.hasOwn(item, 'id')) {
    if (!only(item, ['id', ...extra])) return null;
    const id = positiveId(item.id);
    return id ? { kind: 'id', id } : null;
  }
  return null;
}

/** `{before: ref}`, `{after: ref}`, `{start: true}`, `{end: true}`; absent → end. */
function position(value: unknown): Position | null {
  if (value === undefined || value === null) return { kind: 'end' };
  if (!isObject(value)) return null;
  const keys = Object.keys(value);
  if (keys.length !== 1) return null;
  const kind = keys[0]!;
  if (kind === 'start' || kind === 'end') return value[kind] === true ? { kind } : null;
  if (kind === 'before' || kind === 'after') {
    const ref = targetRef(value[kind]);
    return ref ? { kind, ref } : null;
  }
  return null;
}

function refs(items: unknown[]): TargetRef[] | null {
  const out: TargetRef[] = [];
  for (const item of items) {
    const ref = targetRef(item);
    if (!ref) return null;
    out.push(ref);
  }
  return out;
}

function connectItems(items: unknown[]): ConnectItem[] | null {
  const out: ConnectItem[] = [];
  for (const item of items) {
    const ref = targetRef(item, true);
    const pos = position(isObject(item) ? item.position : undefined);
    if (!ref || !pos) return null;
    out.push({ ref, position: pos });
  }
  return out;
}

/** Items named in one relation value (before parsing them: a flood is refused without looking at it). */
function rawCount(value: unknown): number {
  const n = (v: unknown) => (Array.isArray(v) ? v.length : 1);
  if (Array.isArray(value)) return value.length;
  if (!isObject(value)) return 1;
  if (Object.hasOwn(value, 'set') && value.set !== undefined) return n(value.set);
  return n(value.connect) + n(value.disconnect);
}

export function relationInput(site: FieldSite, attr: RelationAttribute, value: unknown): RelationWrite | undefined {
  const invalid = () => fail(site, `${site.label} is an invalid relation`, value);
  if (rawCount(value) > MAX_RELATIONS) return fail(site, `${site.label} has too many relations (at most ${MAX_RELATIONS})`, null);
  let write: RelationWrite | null;
  if (value === null) write = { kind: 'set', refs: [] };
  else if (isObject(value) && (Object.hasOwn(value, 'set') || Object.hasOwn(value, 'connect') || Object.hasOwn(value, 'disconnect'))) {
    const unknown = Object.keys(value).find((k) => k !== 'set' && k !== 'connect' && k !== 'disconnect');
    if (unknown !== undefined) return invalid();
    if (Object.hasOwn(value, 'set') && value.set !== undefined) {
      const set = value.set === null ? [] : refs(asList(value.set));
      write = set && { kind: 'set', refs: set };
    } else {
      const connect = value.connect === undefined || value.connect === null ? [] : connectItems(asList(value.connect));
      const disconnect = value.disconnect === undefined || value.disconnect === null ? [] : refs(asList(value.disconnect));
      write = connect && disconnect && { kind: 'change', connect, disconnect };
    }
  } else {
    const set = refs(asList(value));
    write = set && { kind: 'set', refs: set };
  }
  if (!write) return invalid();
  if (!attr.many && (write.kind === 'set' ? write.refs.length : write.connect.length) > 1) return fail(site, `${site.label} expects at most one relation`, value);
  return write;
}

/** File ids (decimal text) in order; [] clears. */
export function mediaInput(site: FieldSite, attr: MediaAttribute, value: unknown): string[] | undefined {
  if (value === null) return [];
  const idOf = (item: unknown) => positiveId(isObject(item) ? item.id : item);
  if (!attr.multiple) {
    const id = idOf(value);
    return id ? [id] : fail(site, `${site.label} must be a valid file id`, value);
  }
  const items = asList(value);
  if (items.length > MAX_RELATIONS) return fail(site, `${site.label} has too many files (at most ${MAX_RELATIONS})`, null);
  const ids = items.map(idOf);
  if (ids.some((id) => id === null)) return fail(site, `${site.label} must be an array of file ids`, value);
  return ids as string[];
}
