// One export of a project (`GET /v1/projects/{slug}/exports/{id}`, owners), polled while it is
// written; once done it has its download address.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import { POLL_MS } from './get-backups.ts';

export type ProjectExport = AnswerOf<'/v1/projects/{slug}/exports/{id}', 'get'>['export'];

export async function getExport(slug: string, id: string): Promise<ProjectExport> {
  return (await unwrap(client.GET('/v1/projects/{slug}/exports/{id}', { params: { path: { slug, id } } }))).export;
}

export const exportQueryOptions = (slug: string, id: string) =>
  queryOptions({
    queryKey: projectKeys.feature(slug, 'exports', id),
    queryFn: () => getExport(slug, id),
    refetchInterval: (q) => (q.state.data?.status === 'running' ? POLL_MS : false),
  });

/** `id`: null until an export is started. */
export function useExport(slug: string, id: string | null) {
  return useQuery({ ...exportQueryOptions(slug, id ?? ''), enabled: id !== null });
}
