// A collection type's list as the URL holds it (page, size, sort, search, filters, locale), the
// filters it sends, and the draft / published / modified status of a document.
import type { AttributeSchema } from '../../../model/schema.ts';

export const PAGE_SIZES = [10, 25, 50, 100];
const DEFAULT_PAGE_SIZE = 25;

export type Operator =
  | '$eq' | '$eqi' | '$ne' | '$nei' | '$lt' | '$lte' | '$gt' | '$gte' | '$in' | '$notIn' | '$between'
  | '$contains' | '$notContains' | '$containsi' | '$notContainsi' | '$startsWith' | '$startsWithi' | '$endsWith' | '$endsWithi'
  | '$null' | '$notNull';

export const OPERATOR_LABELS: Record<Operator, string> = {
  $eq: 'is', $eqi: 'is (any case)', $ne: 'is not', $nei: 'is not (any case)',
  $lt: 'is lower than', $lte: 'is lower than or equal to', $gt: 'is greater than', $gte: 'is greater than or equal to',
  $in: 'is one of', $notIn: 'is none of', $between: 'is between',
  $contains: 'contains', $notContains: 'does not contain', $containsi: 'contains (any case)', $notContainsi: 'does not contain (any case)',
  $startsWith: 'starts with', $startsWithi: 'starts with (any case)', $endsWith: 'ends with', $endsWithi: 'ends with (any case)',
  $null: 'is empty', $notNull: 'is not empty',
};

const TEXT_OPS: Operator[] = ['$eq', '$eqi', '$ne', '$nei', '$contains', '$notContains', '$containsi', '$notContainsi',
  '$startsWith', '$startsWithi', '$endsWith', '$endsWithi', '$in', '$notIn', '$lt', '$lte', '$gt', '$gte', '$between', '$null', '$notNull'];
const ORDERED_OPS: Operator[] = ['$eq', '$ne', '$lt', '$lte', '$gt', '$gte', '$between', '$in', '$notIn', '$null', '$notNull'];

/** The operators offered for an attribute (the API takes every one on any scalar; these make sense). */
export function operatorsFor(attr: AttributeSchema): Operator[] {
  switch (attr.type) {
    case 'boolean': return ['$eq', '$ne', '$null', '$notNull'];
    case 'enumeration': return ['$eq', '$ne', '$in', '$notIn', '$null', '$notNull'];
    case 'integer': case 'biginteger': case 'float': case 'decimal': case 'date': case 'time': case 'datetime': return ORDERED_OPS;
    default: return TEXT_OPS;
  }
}

/** Operators whose value is a comma-separated list, and those that take none. */
export const LIST_OPERATORS = new Set<Operator>(['$in', '$notIn', '$between']);
export const VALUELESS_OPERATORS = new Set<Operator>(['$null', '$notNull']);

export interface FilterCondition {
  field: string;
  operator: Operator;
  value: string;
}

export interface ListState {
  page: number;
  pageSize: number;
  sort: { field: string; desc: boolean } | null;
  q: string;
  filters: FilterCondition[];
  locale: string | null;
}

/** The list's state from the URL's search params (anything malformed falls back to the default). */
export function readListState(params: URLSearchParams): ListState {
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const size = Number.parseInt(params.get('pageSize') ?? '', 10);
  const [field, dir] = (params.get('sort') ?? '').split(':');
  let filters: FilterCondition[] = [];
  try {
    const parsed = JSON.parse(params.get('filters') ?? '[]') as unknown;
    if (Array.isArray(parsed)) filters = parsed.filter((f): f is FilterCondition => typeof f?.field === 'string' && Object.hasOwn(OPERATOR_LABELS, f?.operator) && typeof f?.value === 'string');
  } catch {
    // a hand-edited URL: no filters
  }
  return {
    page, pageSize: PAGE_SIZES.includes(size) ? size : DEFAULT_PAGE_SIZE,
    sort: field ? { field, desc: dir === 'desc' } : null,
    q: params.get('q') ?? '', filters, locale: params.get('locale'),
  };
}

export function writeListState(state: ListState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.locale) params.set('locale', state.locale);
  if (state.q) params.set('q', state.q);
  if (state.filters.length) params.set('filters', JSON.stringify(state.filters));
  if (state.sort) params.set('sort', `${state.sort.field}:${state.sort.desc ? 'desc' : 'asc'}`);
  if (state.pageSize !== DEFAULT_PAGE_SIZE) params.set('pageSize', String(state.pageSize));
  if (state.page !== 1) params.set('page', String(state.page));
  return params;
}

function operand({ operator, value }: FilterCondition): unknown {
  if (VALUELESS_OPERATORS.has(operator)) return true;
  if (LIST_OPERATORS.has(operator)) return value.split(',').map((v) => v.trim());
  return value;
}

/** `filters[$and][i][field][op]=value`: every condition must hold. */
export function filtersQuery(filters: FilterCondition[]): Record<string, unknown> | undefined {
  if (!filters.length) return undefined;
  return { $and: filters.map((f) => ({ [f.field]: { [f.operator]: operand(f) } })) };
}

export type DocumentStatus = 'draft' | 'published' | 'modified';

/** Draft: never published; published: the draft is not newer than the published row; modified: it is. */
export function statusOf(draftUpdatedAt: string, publishedUpdatedAt: string | null | undefined): DocumentStatus {
  if (!publishedUpdatedAt) return 'draft';
  return Date.parse(draftUpdatedAt) > Date.parse(publishedUpdatedAt) ? 'modified' : 'published';
}
