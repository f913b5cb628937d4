// The one place a read plan is put together, for REST (`planQuery`), GraphQL's root fields and
// the plugin reads: the scope every row read follows, the AND of the where clauses, the page.
// Callers plan the selection and the clauses their own way (query string or GraphQL selection).
import { ValidationError } from '@cms/errors';
import type { PublicationFilter } from './publication-filter.ts';
import type { Binder } from './plan-values.ts';
import { releaseIdOf } from './release-overlay.ts';
import type { FilterPlan, PagePlan, QueryPlan, Scope, Selection, SortPlan } from './query-plan.ts';
import { localeClass } from './value-classes.ts';

export interface ScopeParts {
  schema: string;
  status: 'draft' | 'published';
  publication?: PublicationFilter;
  /** The release leaf of a release preview (a template's reference, or the id); null/absent: none. */
  release?: unknown;
  /**
   * The locale leaf: a code, `'*'` for every locale, a template's reference to the request's
   * (`defaultLocale` stands in when it holds no code); null: no locale rule at all.
   */
  locale: unknown;
  defaultLocale?: string;
}

export interface PlanParts {
  scope: ScopeParts;
  root: Selection;
  /** ANDed; null entries (no filters, no search term) are left out. */
  where: ReadonlyArray<FilterPlan | null>;
  /** Planned once the page is bound: a GraphQL PaginationError comes before a bad sort, as it always did. */
  sort(): SortPlan[];
  /** The page leaf and how it becomes a `PagePlan` (REST pagination, a GraphQL window, a constant). */
  page: { leaf: unknown; cast(raw: never): PagePlan };
}

export function assemblePlan(binder: Binder, parts: PlanParts): QueryPlan {
  const scope = scopeOf(binder, parts.scope);
  const where = parts.where.filter((w): w is FilterPlan => w !== null);
  const page = binder.bind(parts.page.leaf, parts.page.cast);
  const sort = parts.sort();
  return {
    scope,
    root: parts.root,
    where: where.length === 0 ? null : where.length === 1 ? where[0]! : { kind: 'and', children: where },
    sort,
    page: { withCount: (binder.valueOf(page) as PagePlan).withCount, param: page },
    values: binder.values,
  };
}

function scopeOf(binder: Binder, parts: ScopeParts): Scope {
  const { locale: leaf, defaultLocale } = parts;
  const locale = leaf === null || localeClass(binder.rawOf(leaf)) === '*'
    ? null
    : binder.bind(leaf, (raw: unknown) => (typeof raw === 'string' ? raw : defaultLocale));
  const scope: Scope = { schema: parts.schema, status: parts.status, locale, ...(parts.publication ? { publication: parts.publication } : {}) };
  if (parts.release !== undefined && parts.release !== null) {
    // A preview of what the release will publish: there is no draft or cohort view of that.
    if (parts.status === 'draft' || parts.publication) {
      throw new ValidationError('A release preview reads the documents as they will be published: it takes no draft status or publicationFilter', { source: 'query', param: 'release' });
    }
    scope.release = binder.bind(parts.release, (raw: unknown) => releaseIdOf(raw));
  }
  return scope;
}
