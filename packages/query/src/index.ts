export * from './ast.ts';
export { parseQuery, parseFilters, parseSort, parseFields, parsePagination, parsePopulate, asList, LIMITS, type ParseOptions } from './parse.ts';
export { parseQueryString } from './query-string.ts';
export { planQuery } from './plan-query.ts';
export { renderFind, renderFindOne, renderCount } from './render-find.ts';
export { runFind, runFindOne, type FindResult } from './run-find.ts';
export { paginationMeta, type PaginationMeta } from './pagination.ts';
export { UPLOAD_FILE_UID } from './model-view.ts';
export type { PlanContext, QueryPlan, Scope, Selection, PopulatePlan, FilterPlan, SortPlan, PagePlan, Hop } from './query-plan.ts';
