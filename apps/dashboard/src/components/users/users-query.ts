// A project's end users through its content API (`/api/users`, the users-permissions plugin's
// routes, with the member's content access key): the list as the URL holds it (page, size, sort,
// search), its exact total from `/api/users/count` with the same filters, and the writes.
import { contentApi, strapiQuery } from '../../content-api.ts';

export interface EndUserRole {
  id: number;
  name: string;
  type: string;
}

export interface EndUser {
  id: number;
  documentId: string;
  username: string;
  email: string;
  provider: string;
  confirmed: boolean;
  blocked: boolean;
  createdAt: string;
  updatedAt: string;
  role?: EndUserRole | null;
}

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

/** Search in username or e-mail, any case. */
export const searchFilters = (q: string) => (q.trim() ? { $or: [{ username: { $containsi: q.trim() } }, { email: { $containsi: q.trim() } }] } : undefined);

export interface UsersPage {
  rows: EndUser[];
  total: number;
}

export async function fetchUsersPage(slug: string, state: UsersListState): Promise<UsersPage> {
  const filters = searchFilters(state.q);
  const start = (state.page - 1) * state.pageSize;
  const dir = state.sort.desc ? 'desc' : 'asc';
  const query = strapiQuery({
    // Ties (users created in the same millisecond, equal flags) in a stable order, the same way round.
    filters, sort: [`${state.sort.field}:${dir}`, `id:${dir}`], pagination: { start, limit: state.pageSize }, populate: 'role',
  });
  // Every member's key may count (a viewer's too), so the total is always exact.
  const [rows, total] = await Promise.all([
    contentApi<EndUser[]>(slug, 'GET', `/api/users${query}`),
    contentApi<number>(slug, 'GET', `/api/users/count${strapiQuery({ filters })}`),
  ]);
  return { rows, total };
}

export interface NewEndUser {
  username: string;
  email: string;
  password: string;
  role: string;
  confirmed: boolean;
  blocked: boolean;
}

export const createUser = (slug: string, user: NewEndUser) => contentApi<EndUser>(slug, 'POST', '/api/users', user);

export const updateUser = (slug: string, id: number, changes: Partial<Pick<EndUser, 'blocked' | 'confirmed'>> & { role?: string }) =>
  contentApi<EndUser>(slug, 'PUT', `/api/users/${id}`, changes);

export const deleteUser = (slug: string, id: number) => contentApi<EndUser>(slug, 'DELETE', `/api/users/${id}`);

/** Which of a refused new user's identifiers are taken (the API says "Email or Username are already taken"). */
export async function takenIdentifiers(slug: string, user: Pick<NewEndUser, 'username' | 'email'>): Promise<{ username: boolean; email: boolean }> {
  const count = (filters: object) => contentApi<number>(slug, 'GET', `/api/users/count${strapiQuery({ filters })}`);
  const [username, email] = await Promise.all([count({ username: { $eq: user.username } }), count({ email: { $eqi: user.email } })]);
  return { username: username > 0, email: email > 0 };
}
