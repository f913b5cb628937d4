// The end users' list as the URL holds it: page, size, sort and search (the page's other
// parameters, e.g. its tab, stay).
export const USER_PAGE_SIZES = [10, 25, 50, 100];
const DEFAULT_PAGE_SIZE = 25;
export const SORTABLE = ['username', 'email', 'confirmed', 'blocked', 'createdAt'] as const;
export type SortField = (typeof SORTABLE)[number];

export interface UsersListState {
  page: number;
  pageSize: number;
  sort: { field: SortField; desc: boolean };
  q: string;
}

const DEFAULT_SORT = { field: 'createdAt', desc: true } as const;

export function readUsersState(params: URLSearchParams): UsersListState {
  const size = Number.parseInt(params.get('pageSize') ?? '', 10);
  const [field, dir] = (params.get('sort') ?? '').split(':');
  return {
    page: Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1),
    pageSize: USER_PAGE_SIZES.includes(size) ? size : DEFAULT_PAGE_SIZE,
    sort: (SORTABLE as readonly string[]).includes(field ?? '') ? { field: field as SortField, desc: dir === 'desc' } : DEFAULT_SORT,
    q: params.get('q') ?? '',
  };
}

/** The list's state written over `params` (the page's other parameters, e.g. its tab, stay). */
export function writeUsersState(params: URLSearchParams, state: UsersListState): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of ['page', 'pageSize', 'sort', 'q']) next.delete(key);
  if (state.q) next.set('q', state.q);
  if (state.sort.field !== DEFAULT_SORT.field || state.sort.desc !== DEFAULT_SORT.desc) next.set('sort', `${state.sort.field}:${state.sort.desc ? 'desc' : 'asc'}`);
  if (state.pageSize !== DEFAULT_PAGE_SIZE) next.set('pageSize', String(state.pageSize));
  if (state.page > 1) next.set('page', String(state.page));
  return next;
}
