// plan(ast, model, permissions) → QueryPlan: the second stage of the PostgREST-style pipeline.
// Pure: the same model and query shape always give the same plan (values are parameters), so it
// can be cached by shape (read-cache.ts). `ast` may be a shape's template (query-shape.ts): its
// values are then read through `binder`.
import { NotFoundError } from '@cms/errors';
import type { Pagination, QueryAst } from './ast.ts';
import { assemblePlan } from './assemble-plan.ts';
import type { PlanEnv } from './plan-hops.ts';
import { viewOf } from './plan-hops.ts';
import { isPluginType } from './model-view.ts';
import { planFilters, planSearch } from './plan-filters.ts';
import { planSelection } from './plan-populate.ts';
import { planSort } from './plan-sort.ts';
import { planPage } from './pagination.ts';
import { Binder } from './plan-values.ts';
import type { QueryTemplate } from './query-shape.ts';
import type { PlanContext, QueryPlan } from './query-plan.ts';

export function planQuery(ast: QueryAst | QueryTemplate, ctx: PlanContext, binder = new Binder()): QueryPlan {
  if (!isPluginType(ctx.uid) && !Object.hasOwn(ctx.model.contentTypes, ctx.uid)) throw new NotFoundError();
  const env: PlanEnv = { model: ctx.model, physical: ctx.physical, canFind: (uid) => ctx.canFind(uid), binder };
  const view = viewOf(env, ctx.uid);
  const filters = ast.filters ? planFilters(env, view, ast.filters) : null;
  const search = ast.search !== undefined ? planSearch(env, view, ast.search) : null;
  const root = planSelection(env, view, ast.fields, ast.populate, []);
  return assemblePlan(binder, {
    scope: { schema: ctx.schema, status: ctx.status, publication: ctx.publication, release: ctx.release, locale: ctx.locale, defaultLocale: ctx.defaultLocale },
    root,
    where: [filters, search],
    sort: () => planSort(env, view, ast.sort),
    page: { leaf: ast.pagination, cast: (raw: Pagination | undefined) => planPage(raw, ctx) },
  });
}
