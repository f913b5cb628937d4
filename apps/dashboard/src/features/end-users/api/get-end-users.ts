// A page of a project's end users through its content API (`GET /api/users`, with the member's
// content access key): searched, sorted and paged as the URL says, with the exact total of the
// same search (`/api/users/count`).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { contentApi, strapiQuery } from '../../../content-api.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { UsersListState } from '../components/users-list.ts';
import { countEndUsers } from './count-end-users.ts';
import type { EndUser } from './end-user.ts';

export interface UsersPage {
  rows: EndUser[];
  total: number;
}

/** Search in username or e-mail, any case. */
const searchFilters = (q: string) => (q.trim() ? { $or: [{ username: { $containsi: q.trim() } }, { email: { $containsi: q.trim() } }] } : undefined);

export async function getEndUsers(slug: string, state: UsersListState): Promise<UsersPage> {
  const filters = searchFilters(state.q);
  const start = (state.page - 1) * state.pageSize;
  const dir = state.sort.desc ? 'desc' : 'asc';
  const query = strapiQuery({
    // Ties (users created in the same millisecond, equal flags) in a stable order, the same way round.
    filters, sort: [`${state.sort.field}:${dir}`, `id:${dir}`], pagination: { start, limit: state.pageSize }, populate: 'role',
  });
  const [rows, total] = await Promise.all([contentApi<EndUser[]>(slug, 'GET', `/api/users${query}`), countEndUsers(slug, filters)]);
  return { rows, total };
}

export const endUsersQueryOptions = (slug: string, state: UsersListState) =>
  queryOptions({
    queryKey: projectKeys.feature(slug, 'end-users', 'list', state),
    queryFn: () => getEndUsers(slug, state),
    placeholderData: keepPreviousData,
  });

export function useEndUsers(slug: string, state: UsersListState) {
  return useQuery(endUsersQueryOptions(slug, state));
}
