// GraphQL pagination, as Strapi's `withDefaultPagination`: page/pageSize or
// start/limit (mixing them is a PaginationError), defaults from the project's `defaultLimit`,
// `limit: -1` = every row up to `maxLimit`, and `maxLimit` -1 = no maximum.
import { PaginationError } from '@cms/errors';

export interface GraphqlLimits {
  defaultLimit: number;
  /** -1 = unbounded */
  maxLimit: number;
}

export interface PaginationArgs {
  page?: number | null;
  pageSize?: number | null;
  start?: number | null;
  limit?: number | null;
}

/** A window of rows; `limit` -1 = all of them. */
export interface RowWindow {
  start: number;
  limit: number;
}

const isSet = (v: unknown): v is number => v !== null && v !== undefined;

export function rowWindow(args: PaginationArgs | null | undefined, limits: GraphqlLimits): RowWindow {
  const a = args ?? {};
  const usesPage = isSet(a.page) || isSet(a.pageSize);
  const usesOffset = isSet(a.start) || isSet(a.limit);
  if (usesPage && usesOffset) throw new PaginationError();
  let start: number;
  let limit: number;
  if (usesPage) {
    const pageSize = Math.max(1, a.pageSize ?? limits.defaultLimit);
    start = ((a.page ?? 1) - 1) * pageSize;
    limit = pageSize;
  } else {
    start = a.start ?? 0;
    limit = a.limit ?? limits.defaultLimit;
  }
  if (limit === -1) limit = limits.maxLimit;
  start = Math.max(start, 0);
  if (limit !== -1) limit = Math.max(limit, 1);
  if (limits.maxLimit > 0 && (limit === -1 || limit > limits.maxLimit)) limit = limits.maxLimit;
  return { start, limit };
}

export interface PageInfo {
  page: number;
  pageSize: number;
  pageCount: number;
  total: number;
}

/** `pageInfo` of a connection: the window seen as a page (an unbounded window is one page). */
export function pageInfo(window: RowWindow, total: number): PageInfo {
  if (window.limit === -1) return { page: 1, pageSize: total, pageCount: total > 0 ? 1 : 0, total };
  return { page: Math.floor(window.start / window.limit) + 1, pageSize: window.limit, pageCount: Math.ceil(total / window.limit), total };
}
