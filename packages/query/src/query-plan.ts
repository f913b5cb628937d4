// The plan: a query resolved against the model — every name is a column or a hop between tables,
// every filter value is cast and validated. Rendering it cannot fail on request input.
// Values the SQL only binds are `Param`s: the plan is the query's shape, and `values` are those of
// the request it was planned from (another request of the same shape brings its own).
import type { Model } from '@cms/schema';
import type { PhysicalModel, PhysicalRelation } from '@cms/tables';
import type { ComparisonOperator } from './ast.ts';
import type { PublicationFilter } from './publication-filter.ts';
import type { ScalarField, TypeView } from './model-view.ts';
import type { Leaf, Param } from './plan-values.ts';

export interface PlanContext {
  model: Model;
  physical: PhysicalModel;
  /** The queried content type. */
  uid: string;
  /** Postgres schema of the project. */
  schema: string;
  /**
   * Locale code, `'*'` for every locale, or a shape template's reference to the request's `locale`
   * (ignored for non-localized types).
   */
  locale: Leaf<string | undefined>;
  /** Stands in when `locale` holds no code (a request that names none). */
  defaultLocale?: string;
  /** Ignored for types without draft & publish (every row counts). */
  status: 'draft' | 'published';
  /** Strapi's `publicationFilter` cohort (types with draft & publish only). */
  publication?: PublicationFilter;
  /** A release preview (release-overlay.ts): the release's id, or a shape template's reference to it. */
  release?: Leaf<string>;
  /** The caller's `find` permission on a content type (or `plugin::upload.file` for media). */
  canFind(uid: string): boolean;
  defaultLimit: number;
  maxLimit: number;
}

/** Rules of the rows the query reads: the status of every row, the locale of the root's. */
export interface Scope {
  schema: string;
  status: 'draft' | 'published';
  /** Strapi's `publicationFilter`: the cohort every draft & publish row read belongs to */
  publication?: PublicationFilter;
  /**
   * A release preview: every draft & publish row read, at any depth, is the one the release will
   * leave published (release-overlay.ts); the release id is this parameter.
   */
  release?: Param;
  /**
   * The root's locale (localized types only), null = every locale. Rows reached through a hop are
   * the ones linked, whatever it says (Strapi links rows).
   */
  locale: Param | null;
}

/** A way from a row of one table to rows of another. */
export type Hop =
  | { kind: 'relation'; relation: PhysicalRelation; target: TypeView }
  | { kind: 'component'; ownerType: string; ownerField: string; target: TypeView }
  | { kind: 'media'; linkTable: string; target: TypeView }
  | { kind: 'localizations'; target: TypeView };

/**
 * A compared value: a parameter, or what the SQL's shape depends on (value-classes.ts): `null` for
 * `IS NULL`, the boolean of `$null`/`$notNull`, an empty `$in` list.
 */
export type CompareValue = Param | null | boolean | readonly [];

export type FilterPlan =
  | { kind: 'and' | 'or'; children: FilterPlan[] }
  | { kind: 'not'; child: FilterPlan }
  | { kind: 'compare'; field: ScalarField; op: ComparisonOperator; value: CompareValue }
  /** EXISTS over the rows reached by `hop`; `orMissing` adds "or there is no such row" (LEFT JOIN semantics). */
  | { kind: 'exists'; key: string; hop: Hop; child: FilterPlan; orMissing: boolean }
  | { kind: 'const'; value: boolean }
  /** `_q`: case-insensitive contains over `fields`, and over `numeric` when the term is a number */
  | { kind: 'search'; fields: ScalarField[]; numeric: ScalarField[]; pattern: Param; isNumber: Param };

export interface SortPlan {
  /** to-one relations / components on the way to the field */
  hops: Hop[];
  field: ScalarField;
  direction: 'asc' | 'desc';
}

/** What one row outputs. */
export interface Selection {
  view: TypeView;
  fields: ScalarField[];
  populate: PopulatePlan[];
  /** dynamic-zone items: the `__component` value, output after the fields */
  component?: string;
  /** members of a GraphQL union (a file's `related`): the `__typename` value, output last */
  typename?: string;
}

/**
 * Rows that use a file through one media link table: content-type rows (in the scope's status),
 * or component rows whose owner is a row of `owner` (in the scope's status).
 */
export interface FileUseBranch {
  linkTable: string;
  selection: Selection;
  owner?: TypeView;
}

export type PopulatePlan =
  | {
      kind: 'rows';
      key: string;
      hop: Hop;
      /** to-many → array, to-one → object or null */
      many: boolean;
      count: boolean;
      selection: Selection;
      where: FilterPlan | null;
      sort: SortPlan[];
      /** to-many only: a window of the related rows (GraphQL lists), a `{ start, limit }` (-1 = no limit); absent = all of them */
      window?: Param;
    }
  | { kind: 'dynamiczone'; key: string; ownerType: string; ownerField: string; items: Array<{ hop: Hop; selection: Selection }> }
  /** Where a file is used: Strapi's `related` morph list */
  | { kind: 'fileUses'; key: string; branches: FileUseBranch[] }
  /** An end user's `role` (platform.roles of the project, by the user's role type) */
  | { kind: 'userRole'; key: 'role' };

/** `limit` -1 = every row (GraphQL `limit: -1` when no maximum is configured). */
export type PagePlan =
  | { kind: 'page'; page: number; pageSize: number; withCount: boolean }
  | { kind: 'offset'; start: number; limit: number; withCount: boolean };

export interface QueryPlan {
  scope: Scope;
  root: Selection;
  where: FilterPlan | null;
  sort: SortPlan[];
  /** A count statement or not; `param`'s value is the `PagePlan` (LIMIT and OFFSET are bound). */
  page: { withCount: boolean; param: Param };
  /** The slot values of the request this plan was made for (`Param`s index them). */
  values: readonly unknown[];
}
