// The plan of a root field: its whole selection set (relations, media, components at any depth,
// with their arguments) as one read, put together by @cms/query's `assemblePlan` like REST's.
// `tree` may be a shape's template (read-shape.ts): values are then read through the binder.
import type { ResolveTree } from 'graphql-parse-resolve-info';
import { assemblePlan, parsePublicationFilter, parseSort, planFilters, planSort, viewOf, type PagePlan, type QueryPlan, type ScopeParts, type TypeView } from '@cms/query';
import type { Args } from './root-resolver.ts';
import { filterNode } from './filters.ts';
import { entityCollectionName } from './names.ts';
import { rowWindow, type PaginationArgs } from './pagination.ts';
import { nodesOf, planTreeSelection, type GraphPlanEnv } from './selection.ts';
import type { GraphqlContext } from './context.ts';

/** Where the document selection sits in a root field's type: the document, a list, a connection's `nodes`. */
export type ReadMode = 'document' | 'list' | 'connection';

const ONE_ROW = { leaf: undefined, cast: (): PagePlan => ({ kind: 'offset', start: 0, limit: 1, withCount: false }) };

/** Status and locale of a read: the arguments, else published and the default locale. */
function scopeOf(ctx: GraphqlContext, view: TypeView, args: Args): ScopeParts {
  const status = view.draftAndPublish && args.status === 'draft' ? 'draft' as const : 'published' as const;
  const publication = parsePublicationFilter(args.publicationFilter ?? undefined, args.hasPublishedVersion ?? undefined);
  return {
    schema: ctx.schemaName, status, ...(publication ? { publication } : {}), release: args.release,
    // A locale argument that is no string reads the default locale.
    locale: view.localized ? args.locale : null, defaultLocale: ctx.defaultLocale,
  };
}

/** `scope`: a write's answer reads the written version (its status and locale). */
export function planRoot(ctx: GraphqlContext, env: GraphPlanEnv, uid: string, tree: ResolveTree, mode: ReadMode, scope?: ScopeParts): QueryPlan {
  const view = viewOf(env, uid);
  const args = tree.args as Args;
  const collection = entityCollectionName(env.names.typeOf.get(uid)!);
  const fields = mode === 'connection' ? nodesOf(tree, collection) : tree.fieldsByTypeName;
  const root = planTreeSelection(env, view, fields);
  const filters = filterNode(env, view, args.filters);
  // A document read with filters (a subscription's filter check) finds the document only if it matches them.
  if (mode === 'document') {
    return assemblePlan(env.binder, { scope: scope ?? scopeOf(ctx, view, args), root, where: [filters ? planFilters(env, view, filters) : null], sort: () => [], page: ONE_ROW });
  }
  const withCount = mode === 'connection' && wantsCount(tree, collection);
  // The plan is kept with the compiled shape: its cast closes over the limits and the count only,
  // not over `ctx` (a request's context, with its project, would live as long as the shape).
  const { limits } = ctx;
  return assemblePlan(env.binder, {
    scope: scope ?? scopeOf(ctx, view, args),
    root,
    where: [filters ? planFilters(env, view, filters) : null],
    sort: () => planSort(env, view, parseSort(args.sort ?? undefined)),
    // Root lists are offset windows; the connection's pageInfo is computed from this one.
    page: {
      leaf: args.pagination,
      cast: (raw: PaginationArgs | undefined): PagePlan => {
        const window = rowWindow(raw, limits);
        return { kind: 'offset', start: window.start, limit: window.limit, withCount };
      },
    },
  });
}

/** Does a connection's selection ask for a count (`pageInfo { total | pageCount }`)? */
function wantsCount(tree: ResolveTree, collection: string): boolean {
  const fields = tree.fieldsByTypeName[collection] ?? {};
  return Object.values(fields).some((f) => f.name === 'pageInfo' && Object.values(f.fieldsByTypeName.Pagination ?? {}).some((p) => p.name === 'total' || p.name === 'pageCount'));
}
