// One restore of a backup (`GET /v1/projects/{slug}/restores/{id}`, owners), polled while it runs;
// and what its end changes in the cache.
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import { POLL_MS } from './get-backups.ts';

export type Restore = AnswerOf<'/v1/projects/{slug}/restores/{id}', 'get'>['restore'];

export async function getRestore(slug: string, id: string): Promise<Restore> {
  return (await unwrap(client.GET('/v1/projects/{slug}/restores/{id}', { params: { path: { slug, id } } }))).restore;
}

export const restoreQueryOptions = (slug: string, id: string) =>
  queryOptions({
    queryKey: projectKeys.feature(slug, 'restores', id),
    queryFn: () => getRestore(slug, id),
    refetchInterval: (q) => (q.state.data?.status === 'running' ? POLL_MS : false),
  });

/** `id`: null until a restore is started. */
export function useRestore(slug: string, id: string | null) {
  return useQuery({ ...restoreQueryOptions(slug, id ?? ''), enabled: id !== null });
}

/**
 * Once a restore has ended: an in-place one replaced the project's model, content, media and end
 * users, so everything cached about the project is loaded again; a new project joins the list.
 * `onEnd` runs once per restore (a notification, say).
 */
export function useRestoreEnd(slug: string, restore: Restore | undefined, onEnd: (restore: Restore) => void) {
  const queryClient = useQueryClient();
  const ended = useRef(new Set<string>());
  const latest = useRef(onEnd);
  useEffect(() => {
    latest.current = onEnd;
  });
  useEffect(() => {
    if (!restore || restore.status === 'running' || ended.current.has(restore.id)) return;
    ended.current.add(restore.id);
    if (restore.status === 'done') {
      void queryClient.invalidateQueries({ queryKey: restore.target === 'in-place' ? projectKeys.all(slug) : projectKeys.list() });
    }
    latest.current(restore);
  }, [queryClient, slug, restore]);
}
