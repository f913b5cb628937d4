// A project's backups (`GET /v1/projects/{slug}/backups`, owners), newest first: daily and manual
// ones, each with its state; one being written is polled until it ends.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type Backup = AnswerOf<'/v1/projects/{slug}/backups', 'get'>['backups'][number];
/** A backup's, an export's or a restore's state. */
export type ArchiveStatus = Backup['status'];

/** How often a running archive or restore is asked about. */
export const POLL_MS = 1000;

export async function getBackups(slug: string): Promise<Backup[]> {
  return (await unwrap(client.GET('/v1/projects/{slug}/backups', { params: { path: { slug } } }))).backups;
}

export const backupsQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: projectKeys.feature(slug, 'backups'),
    queryFn: () => getBackups(slug),
    refetchInterval: (q) => (q.state.data?.some((b) => b.status === 'running') ? POLL_MS : false),
  });

export function useBackups(slug: string) {
  return useQuery(backupsQueryOptions(slug));
}
