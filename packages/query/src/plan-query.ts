// plan(ast, model, permissions) → QueryPlan: the second stage of the PostgREST-style pipeline.
// Pure: the same model and query shape always give the same plan, so it can be cached.
import { NotFoundError } from '@cms/errors';
import type { QueryAst } from './ast.ts';
import type { PlanEnv } from './plan-hops.ts';
import { viewOf } from './plan-hops.ts';
import { isPluginType } from './model-view.ts';
import { planFilters, planSearch } from './plan-filters.ts';
import { planSelection } from './plan-populate.ts';
import { planSort } from './plan-sort.ts';
import { planPage } from './pagination.ts';
import type { FilterPlan, PlanContext, QueryPlan } from './query-plan.ts';

export function planQuery(ast: QueryAst, ctx: PlanContext): QueryPlan {
  if (!isPluginType(ctx.uid) && !Object.hasOwn(ctx.model.contentTypes, ctx.uid)) throw new NotFoundError();
  const env: PlanEnv = { model: ctx.model, physical: ctx.physical, canFind: (uid) => ctx.canFind(uid) };
  const view = viewOf(env, ctx.uid);
  const filters = ast.filters ? planFilters(env, view, ast.filters) : null;
  const search = ast.search !== undefined ? planSearch(view, ast.search) : null;
  const where: FilterPlan | null = filters && search ? { kind: 'and', children: [filters, search] } : (filters ?? search);
  return {
    scope: { schema: ctx.schema, status: ctx.status, locale: ctx.locale === '*' ? null : ctx.locale, ...(ctx.publication ? { publication: ctx.publication } : {}) },
    root: planSelection(env, view, ast.fields, ast.populate, []),
    where,
    sort: planSort(env, view, ast.sort),
    page: planPage(ast.pagination, ctx),
  };
}
