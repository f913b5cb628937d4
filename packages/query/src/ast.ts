// The parsed form of a content-API query (REST query string or GraphQL arguments): syntax only,
// no model knowledge. `plan` resolves names against the model afterwards.
import type { PublicationFilter } from './publication-filter.ts';

export const COMPARISON_OPERATORS = [
  '$eq', '$eqi', '$ne', '$nei', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn',
  '$contains', '$notContains', '$containsi', '$notContainsi', '$null', '$notNull',
  '$between', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi',
] as const;
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];
export const LOGICAL_OPERATORS = ['$and', '$or', '$not'] as const;

export type FilterNode =
  | { kind: 'and'; children: FilterNode[] }
  | { kind: 'or'; children: FilterNode[] }
  | { kind: 'not'; child: FilterNode }
  /** `path` = attribute names from the queried type (relation/component hops, then the field). */
  | { kind: 'compare'; path: string[]; op: ComparisonOperator; value: unknown };

export interface SortItem {
  path: string[];
  direction: 'asc' | 'desc';
}

export type Pagination =
  | { kind: 'page'; page: number; pageSize: number; withCount: boolean }
  | { kind: 'offset'; start: number; limit: number; withCount: boolean };

export interface PopulateEntry {
  fields?: string[];
  filters?: FilterNode;
  sort?: SortItem[];
  populate?: Populate;
  /** dynamic zones: component uid → selection */
  on?: Record<string, PopulateEntry>;
  count?: boolean;
}

/** `'*'` = every relation, media, component and dynamic zone one level deep. */
export type Populate = '*' | Record<string, PopulateEntry>;

export interface QueryAst {
  filters?: FilterNode;
  sort: SortItem[];
  /** undefined = every scalar */
  fields?: string[];
  pagination?: Pagination;
  populate?: Populate;
  locale?: string;
  status?: 'draft' | 'published';
  /** `publicationFilter` (or the deprecated `hasPublishedVersion`) */
  publication?: PublicationFilter;
  /** `_q`: search across string fields */
  search?: string;
  /** `release`: a release preview (release-overlay.ts), as the request gave its id */
  release?: string;
}
