// A project's environments (`GET /v1/projects/{slug}/environments`): copies of it at
// `{parent}--{name}`, filed under the parent. A copy running is polled until it ends.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type Environment = AnswerOf<'/v1/projects/{slug}/environments', 'get'>['environments'][number];
export type EnvironmentStatus = Environment['status'];

/** How often a running copy is asked about. */
const POLL_MS = 1000;

export async function getEnvironments(parent: string): Promise<Environment[]> {
  return (await unwrap(client.GET('/v1/projects/{slug}/environments', { params: { path: { slug: parent } } }))).environments;
}

export const environmentsQueryOptions = (parent: string) =>
  queryOptions({
    queryKey: projectKeys.feature(parent, 'environments'),
    queryFn: () => getEnvironments(parent),
    refetchInterval: (q) => (q.state.data?.some((e) => e.status === 'copying') ? POLL_MS : false),
  });

/** `enabled`: false until wanted (the switcher asks once its menu opens). */
export function useEnvironments(parent: string, enabled = true) {
  return useQuery({ ...environmentsQueryOptions(parent), enabled });
}
