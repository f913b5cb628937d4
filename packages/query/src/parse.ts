// parse(query params) → QueryAst. Syntax only: names are checked against the model in `plan`.
// Every parameter is bounded (depth, node count, list sizes) so hostile queries are refused
// with a 400 before any SQL exists.
import { PaginationError, ValidationError } from '@cms/errors';
import { parsePublicationFilter } from './publication-filter.ts';
import {
  COMPARISON_OPERATORS,
  type ComparisonOperator,
  type FilterNode,
  type Pagination,
  type Populate,
  type PopulateEntry,
  type QueryAst,
  type SortItem,
} from './ast.ts';

export interface ParseOptions {
  /** Default page size (Strapi `api.rest.defaultLimit`, 25). */
  defaultLimit: number;
  /** Maximum page size (Strapi template `api.rest.maxLimit`, 100). */
  maxLimit: number;
}

export const LIMITS = {
  filterDepth: 12,
  filterNodes: 400,
  listValues: 1000,
  populateDepth: 8,
  populateEntries: 200,
  sortItems: 30,
  fields: 300,
  stringLength: 10_000,
} as const;

const OPERATORS = new Set<string>(COMPARISON_OPERATORS);
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;
const POPULATE_KEYS = new Set(['fields', 'filters', 'sort', 'populate', 'on', 'count']);
const BOOL_TRUE = new Set(['true', 't', '1']);
const BOOL_FALSE = new Set(['false', 'f', '0']);

type Dict = Record<string, unknown>;

const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);

/** qs turns arrays over 100 items into numeric-keyed objects; treat those as arrays. */
export function asList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (isDict(value)) {
    const keys = Object.keys(value);
    if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
      return keys.sort((a, b) => Number(a) - Number(b)).map((k) => value[k]);
    }
  }
  return undefined;
}

function invalidKey(key: string, param: string, at?: string): ValidationError {
  return ValidationError.invalidKey(key, { source: 'query', param, path: at ?? null, at });
}

function checkString(value: string, param: string): string {
  if (value.length > LIMITS.stringLength) throw new ValidationError(`${param} value is too long`, { source: 'query', param });
  if (value.includes('\0')) throw new ValidationError(`${param} value contains a NUL character`, { source: 'query', param });
  return value;
}

// ───────────────────────────── filters ─────────────────────────────

export function parseFilters(input: unknown, param = 'filters'): FilterNode | undefined {
  if (input === undefined || input === '') return undefined;
  if (!isDict(input)) throw new ValidationError(`Invalid ${param} parameter: expected an object`, { source: 'query', param });
  const state = { nodes: 0 };
  const node = parseFilterObject(input, [], 0, state, param);
  return node.kind === 'and' && node.children.length === 0 ? undefined : node;
}

function parseFilterObject(obj: Dict, path: string[], depth: number, state: { nodes: number }, param: string): FilterNode {
  if (depth > LIMITS.filterDepth) throw new ValidationError(`${param} are nested too deeply`, { source: 'query', param });
  const children: FilterNode[] = [];
  for (const [key, value] of Object.entries(obj)) {
    if (++state.nodes > LIMITS.filterNodes) throw new ValidationError(`${param} have too many conditions`, { source: 'query', param });
    const at = path.length ? path.join('.') : undefined;
    if (key === '$and' || key === '$or') {
      const list = asList(value) ?? (isDict(value) ? [value] : undefined);
      if (!list) throw invalidKey(key, param, at);
      const parts = list.map((item) => {
        if (!isDict(item)) throw invalidKey(key, param, at);
        return parseFilterObject(item, path, depth + 1, state, param);
      });
      children.push({ kind: key === '$and' ? 'and' : 'or', children: parts });
    } else if (key === '$not') {
      if (!isDict(value)) throw invalidKey(key, param, at);
      children.push({ kind: 'not', child: parseFilterObject(value, path, depth + 1, state, param) });
    } else if (key.startsWith('$')) {
      if (!OPERATORS.has(key) || path.length === 0) throw invalidKey(key, param, at);
      children.push({ kind: 'compare', path, op: key as ComparisonOperator, value: parseOperand(key as ComparisonOperator, value, param, path) });
    } else {
      if (!NAME.test(key)) throw invalidKey(key, param, at);
      const next = [...path, key];
      if (isDict(value) && asList(value) === undefined) {
        children.push(parseFilterObject(value, next, depth + 1, state, param));
      } else {
        // `filters[field]=v` means `$eq`; `filters[field][0]=a&…` means `$in`.
        const list = asList(value);
        children.push(list
          ? { kind: 'compare', path: next, op: '$in', value: parseOperand('$in', list, param, next) }
          : { kind: 'compare', path: next, op: '$eq', value: parseOperand('$eq', value, param, next) });
      }
    }
  }
  return children.length === 1 ? children[0]! : { kind: 'and', children };
}

function parseOperand(op: ComparisonOperator, value: unknown, param: string, path: string[]): unknown {
  const at = path.join('.');
  const scalar = (v: unknown): unknown => {
    if (typeof v === 'string') return checkString(v, param);
    if (v === null || typeof v === 'number' || typeof v === 'boolean') return v;
    throw ValidationError.invalidKey(op, { source: 'query', param, path: at, at });
  };
  switch (op) {
    case '$in':
    case '$notIn': {
      const list = asList(value) ?? [value];
      if (list.length > LIMITS.listValues) throw new ValidationError(`Too many values for ${op} at ${at}`, { source: 'query', param, path: at });
      return list.map(scalar);
    }
    case '$between': {
      const list = asList(value) ?? (typeof value === 'string' ? value.split(',') : undefined);
      if (!list || list.length !== 2) throw new ValidationError(`$between at ${at} takes exactly two values`, { key: op, path: at, source: 'query', param });
      return list.map(scalar);
    }
    case '$null':
    case '$notNull':
      return parseBoolean(value, () => new ValidationError(`Invalid ${op} value at ${at}: expected a boolean`, { key: op, path: at, source: 'query', param }));
    default:
      return scalar(value);
  }
}

function parseBoolean(value: unknown, error: () => Error): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && BOOL_TRUE.has(value.toLowerCase())) return true;
  if (typeof value === 'string' && BOOL_FALSE.has(value.toLowerCase())) return false;
  if (value === 1 || value === 0) return value === 1;
  throw error();
}

// ───────────────────────────── sort ─────────────────────────────

const ORDER_ERROR = 'Invalid order. order can only be one of asc|desc|ASC|DESC';

export function parseSort(input: unknown): SortItem[] {
  if (input === undefined || input === '') return [];
  const items: SortItem[] = [];
  const push = (item: SortItem) => {
    if (items.length >= LIMITS.sortItems) throw new ValidationError('Too many sort keys', { source: 'query', param: 'sort' });
    items.push(item);
  };
  const fromString = (s: string) => {
    for (const part of checkString(s, 'sort').split(',')) {
      const trimmed = part.trim();
      if (!trimmed) continue;
      const [field, order, extra] = trimmed.split(':');
      if (extra !== undefined) throw new ValidationError(ORDER_ERROR);
      push({ path: sortPath(field!.split('.')), direction: direction(order ?? 'asc') });
    }
  };
  const fromObject = (obj: Dict, prefix: string[], depth: number) => {
    if (depth > 6) throw new ValidationError('sort is nested too deeply', { source: 'query', param: 'sort' });
    for (const [key, value] of Object.entries(obj)) {
      const path = sortPath([...prefix, key]);
      if (typeof value === 'string') push({ path, direction: direction(value) });
      else if (isDict(value)) fromObject(value, path, depth + 1);
      else throw ValidationError.invalidKey(key, { source: 'query', param: 'sort' });
    }
  };
  const list = asList(input) ?? [input];
  for (const item of list) {
    if (typeof item === 'string') fromString(item);
    else if (isDict(item)) fromObject(item, [], 0);
    else throw new ValidationError('Invalid sort parameter', { source: 'query', param: 'sort' });
  }
  return items;
}

function sortPath(path: string[]): string[] {
  for (const p of path) if (!NAME.test(p)) throw ValidationError.invalidKey(p, { source: 'query', param: 'sort' });
  return path;
}

function direction(value: string): 'asc' | 'desc' {
  const v = value.trim().toLowerCase();
  if (v === 'asc' || v === 'desc') return v;
  throw new ValidationError(ORDER_ERROR);
}

// ───────────────────────────── fields ─────────────────────────────

export function parseFields(input: unknown): string[] | undefined {
  if (input === undefined || input === '') return undefined;
  const list = asList(input) ?? [input];
  const names: string[] = [];
  for (const item of list) {
    if (typeof item !== 'string') throw new ValidationError('Invalid fields parameter', { source: 'query', param: 'fields' });
    for (const name of checkString(item, 'fields').split(',').map((s) => s.trim()).filter(Boolean)) {
      if (name === '*') return undefined;
      if (!NAME.test(name)) throw ValidationError.invalidKey(name, { source: 'query', param: 'fields', path: name });
      if (!names.includes(name)) names.push(name);
    }
  }
  if (names.length > LIMITS.fields) throw new ValidationError('Too many fields', { source: 'query', param: 'fields' });
  return names;
}

// ───────────────────────────── pagination ─────────────────────────────

const START_ERROR = (v: unknown) => `convertStartQueryParams expected a positive integer got ${Number.isNaN(Number(v)) ? 'NaN' : v}`;

function intParam(value: unknown, name: string, positiveError: boolean): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n)) {
    throw positiveError ? new ValidationError(START_ERROR(value)) : new ValidationError(`Invalid ${name} parameter: expected an integer`, { source: 'query', param: 'pagination' });
  }
  return n;
}

export function parsePagination(input: unknown, options: ParseOptions): Pagination | undefined {
  if (input === undefined || input === '') return undefined;
  if (!isDict(input)) throw new ValidationError('Invalid pagination parameter', { source: 'query', param: 'pagination' });
  for (const key of Object.keys(input)) {
    if (!['page', 'pageSize', 'start', 'limit', 'withCount'].includes(key)) {
      throw ValidationError.invalidKey(key, { source: 'query', param: 'pagination' });
    }
  }
  const { page, pageSize, start, limit, withCount: rawWithCount } = input;
  const withCount = rawWithCount === undefined
    ? true
    : parseBoolean(rawWithCount, () => new ValidationError('Invalid withCount parameter. Expected "t","1","true","false","0","f"'));
  const usesPage = page !== undefined || pageSize !== undefined;
  const usesOffset = start !== undefined || limit !== undefined;
  if (usesPage && usesOffset) throw new PaginationError();
  // Strapi: values ≤ 0 become 1 (page, pageSize, limit); sizes are capped at maxLimit.
  const size = (v: unknown, name: string) => {
    if (v === undefined) return options.defaultLimit;
    const n = intParam(v, name, false);
    return Math.min(Math.max(n, 1), options.maxLimit);
  };
  if (usesOffset) {
    const s = start === undefined ? 0 : intParam(start, 'start', true);
    if (s < 0) throw new ValidationError(START_ERROR(start));
    return { kind: 'offset', start: s, limit: size(limit, 'limit'), withCount };
  }
  const p = page === undefined ? 1 : Math.max(intParam(page, 'page', true), 1);
  return { kind: 'page', page: p, pageSize: size(pageSize, 'pageSize'), withCount };
}

// ───────────────────────────── populate ─────────────────────────────

export function parsePopulate(input: unknown): Populate | undefined {
  if (input === undefined || input === '') return undefined;
  const state = { entries: 0 };
  return parsePopulateValue(input, [], 0, state);
}

function parsePopulateValue(input: unknown, path: string[], depth: number, state: { entries: number }): Populate {
  if (depth > LIMITS.populateDepth) throw new ValidationError('populate is nested too deeply', { source: 'query', param: 'populate' });
  if (input === '*' || input === true || input === 'true') return '*';
  const result: Record<string, PopulateEntry> = {};
  const add = (dotted: string) => {
    const parts = checkString(dotted, 'populate').split('.').map((s) => s.trim());
    let level = result;
    for (const [i, part] of parts.entries()) {
      if (part === '*' && i === parts.length - 1 && i > 0) {
        // `a.*`: everything inside a
        return;
      }
      if (!NAME.test(part)) throw ValidationError.invalidKey(part, { source: 'query', param: 'populate', path: [...path, part].join('.') });
      if (++state.entries > LIMITS.populateEntries) throw new ValidationError('populate has too many entries', { source: 'query', param: 'populate' });
      const entry = (level[part] ??= {});
      if (i < parts.length - 1) {
        if (parts[i + 1] === '*') entry.populate = '*';
        else level = (entry.populate = entry.populate && entry.populate !== '*' ? entry.populate : {}) as Record<string, PopulateEntry>;
      }
    }
  };
  if (typeof input === 'string') {
    for (const part of input.split(',').map((s) => s.trim()).filter(Boolean)) {
      if (part === '*') return '*';
      add(part);
    }
    return result;
  }
  const list = asList(input);
  if (list) {
    for (const item of list) {
      if (typeof item !== 'string') throw new ValidationError('Invalid populate parameter', { source: 'query', param: 'populate' });
      if (item === '*') return '*';
      add(item);
    }
    return result;
  }
  if (!isDict(input)) throw new ValidationError('Invalid populate parameter', { source: 'query', param: 'populate' });
  for (const [key, value] of Object.entries(input)) {
    const keyPath = [...path, key];
    if (!NAME.test(key)) throw ValidationError.invalidKey(key, { source: 'query', param: 'populate', path: keyPath.join('.') });
    if (++state.entries > LIMITS.populateEntries) throw new ValidationError('populate has too many entries', { source: 'query', param: 'populate' });
    if (value === false || value === 'false') continue;
    result[key] = parsePopulateEntry(value, keyPath, depth + 1, state);
  }
  return result;
}

function parsePopulateEntry(value: unknown, path: string[], depth: number, state: { entries: number }): PopulateEntry {
  // `populate[chef]=true` → chef; `populate[chef]=*` → ours: chef with everything inside it.
  if (value === true || value === 'true') return {};
  if (value === '*') return { populate: '*' };
  if (!isDict(value)) throw ValidationError.invalidKey(path[path.length - 1]!, { source: 'query', param: 'populate', path: path.join('.') });
  const at = path.join('.');
  const entry: PopulateEntry = {};
  for (const [key, inner] of Object.entries(value)) {
    if (!POPULATE_KEYS.has(key)) throw ValidationError.invalidKey(key, { source: 'query', param: 'populate', path: at, at });
    switch (key) {
      case 'fields':
        entry.fields = parseFields(inner) ?? undefined;
        break;
      case 'filters':
        entry.filters = parseFilters(inner, 'filters');
        break;
      case 'sort':
        entry.sort = parseSort(inner);
        break;
      case 'populate':
        entry.populate = parsePopulateValue(inner, path, depth, state);
        break;
      case 'count':
        entry.count = parseBoolean(inner, () => ValidationError.invalidKey('count', { source: 'query', param: 'populate', path: at, at }));
        break;
      case 'on': {
        if (!isDict(inner)) throw ValidationError.invalidKey('on', { source: 'query', param: 'populate', path: at, at });
        const on: Record<string, PopulateEntry> = {};
        for (const [uid, sel] of Object.entries(inner)) {
          if (!/^[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$/.test(uid)) throw ValidationError.invalidKey(uid, { source: 'query', param: 'populate', path: at, at });
          on[uid] = parsePopulateEntry(sel, [...path, uid], depth + 1, state);
        }
        entry.on = on;
        break;
      }
    }
  }
  return entry;
}

// ───────────────────────────── whole query ─────────────────────────────

/** Parse a REST query object (as produced by qs). Unknown top-level keys are ignored, as Strapi does. */
export function parseQuery(query: Dict, options: ParseOptions): QueryAst {
  const ast: QueryAst = { sort: parseSort(query.sort) };
  const filters = parseFilters(query.filters);
  if (filters) ast.filters = filters;
  const fields = parseFields(query.fields);
  if (fields) ast.fields = fields;
  const pagination = parsePagination(query.pagination, options);
  if (pagination) ast.pagination = pagination;
  const populate = parsePopulate(query.populate);
  if (populate) ast.populate = populate;
  if (query.locale !== undefined) {
    if (typeof query.locale !== 'string' || query.locale.length > 35) throw new ValidationError('Invalid locale parameter', { source: 'query', param: 'locale' });
    ast.locale = checkString(query.locale, 'locale');
  }
  if (query.status !== undefined) {
    if (query.status !== 'draft' && query.status !== 'published') {
      throw new ValidationError('Invalid status parameter: expected "draft" or "published"', { source: 'query', param: 'status' });
    }
    ast.status = query.status;
  }
  const publication = parsePublicationFilter(query.publicationFilter, query.hasPublishedVersion);
  if (publication) ast.publication = publication;
  if (query._q !== undefined) {
    if (typeof query._q !== 'string') throw new ValidationError('Invalid _q parameter', { source: 'query', param: '_q' });
    ast.search = checkString(query._q, '_q');
  }
  // Syntax only: whether such a release exists (or the id could name one) is the read's to say.
  if (query.release !== undefined) {
    if (typeof query.release !== 'string' || query.release.length > 40) throw new ValidationError('Invalid release parameter: expected a release id', { source: 'query', param: 'release' });
    ast.release = query.release;
  }
  return ast;
}
