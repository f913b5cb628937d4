// Pagination: page/pageSize (default 1/defaultLimit, capped at maxLimit) or
// start/limit, and the `meta.pagination` object of a list answer.
import type { Pagination } from './ast.ts';
import type { PagePlan, QueryPlan } from './query-plan.ts';

export function planPage(pagination: Pagination | undefined, limits: { defaultLimit: number; maxLimit: number }): PagePlan {
  const clamp = (n: number) => Math.min(Math.max(n, 1), limits.maxLimit);
  if (!pagination) return { kind: 'page', page: 1, pageSize: clamp(limits.defaultLimit), withCount: true };
  if (pagination.kind === 'offset') {
    return { kind: 'offset', start: Math.max(pagination.start, 0), limit: clamp(pagination.limit), withCount: pagination.withCount };
  }
  return { kind: 'page', page: Math.max(pagination.page, 1), pageSize: clamp(pagination.pageSize), withCount: pagination.withCount };
}

/** LIMIT and OFFSET as decimal strings (page × pageSize can pass 2^53 for absurd pages); LIMIT null = none. */
export function limitOffset(page: PagePlan): { limit: string | null; offset: string } {
  if (page.kind === 'offset') return { limit: page.limit < 0 ? null : String(page.limit), offset: String(page.start) };
  return { limit: String(page.pageSize), offset: ((BigInt(page.page) - 1n) * BigInt(page.pageSize)).toString() };
}

export type PaginationMeta =
  | { page: number; pageSize: number; pageCount?: number; total?: number }
  | { start: number; limit: number; total?: number };

/** The page of a plan, with the values of its request. */
export const pageOf = (plan: QueryPlan): PagePlan => plan.page.param.valueIn(plan.values) as PagePlan;

/** `meta.pagination`; `total` is the count statement's result (ignored when withCount is false). */
export function paginationMeta(plan: QueryPlan | PagePlan, total?: number | null): PaginationMeta {
  const page = 'kind' in plan ? plan : pageOf(plan);
  const counted = page.withCount && total !== undefined && total !== null;
  if (page.kind === 'offset') {
    return counted ? { start: page.start, limit: page.limit, total: total! } : { start: page.start, limit: page.limit };
  }
  if (!counted) return { page: page.page, pageSize: page.pageSize };
  return { page: page.page, pageSize: page.pageSize, pageCount: Math.ceil(total! / page.pageSize), total: total! };
}
