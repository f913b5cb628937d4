// A project's backups, exports and restores as the management API answers them (owners only),
// and their queries and mutations (keys under ['project', slug, …]). Archives are written in the
// background: a running one is polled until it ends.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api, type Project } from '../../api.ts';
import { projectKey } from '../../project.ts';

export type ArchiveStatus = 'running' | 'done' | 'failed';

export interface Backup {
  id: string;
  kind: 'scheduled' | 'manual';
  status: ArchiveStatus;
  /** bytes, once done */
  size: number | null;
  createdAt: string;
  expiresAt: string | null;
  error: string | null;
  /** the archive's download address, once done */
  url: string | null;
}

export interface ProjectExport {
  id: string;
  status: ArchiveStatus;
  size: number | null;
  url: string | null;
  createdAt: string;
  finishedAt: string | null;
  error: string | null;
  counts: { entities: Record<string, number>; links: number; assets: number; missingAssets: number } | null;
}

export type RestoreTarget = 'in-place' | 'new-project';

export interface Restore {
  id: string;
  status: ArchiveStatus;
  target: RestoreTarget;
  /** the new project (new-project), the same one (in-place); null until known */
  project: Pick<Project, 'slug' | 'name'> & Partial<Project> | null;
  error: string | null;
}

/** How often a running archive or restore is asked about. */
const POLL_MS = 1000;

export const backupsKey = (slug: string) => projectKey(slug, 'backups');

export function useBackups(slug: string) {
  return useQuery({
    queryKey: backupsKey(slug),
    queryFn: async () => (await api<{ backups: Backup[] }>('GET', `/v1/projects/${slug}/backups`)).backups,
    refetchInterval: (q) => (q.state.data?.some((b) => b.status === 'running') ? POLL_MS : false),
  });
}

/** Back up now: the new backup shows at once (running), then the list follows it until it ends. */
export function useBackUpNow(slug: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => (await api<{ backup: Omit<Backup, 'url'> }>('POST', `/v1/projects/${slug}/backups`, {})).backup,
    onSuccess: (backup) => {
      client.setQueryData<Backup[]>(backupsKey(slug), (list = []) => [{ ...backup, url: null }, ...list.filter((b) => b.id !== backup.id)]);
      // Not awaited: the row is shown already, and the list then polls it until it ends.
      void client.invalidateQueries({ queryKey: backupsKey(slug) });
    },
  });
}

export const exportKey = (slug: string, id: string) => projectKey(slug, 'exports', id);

export function useStartExport(slug: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => (await api<{ export: Pick<ProjectExport, 'id' | 'status'> }>('POST', `/v1/projects/${slug}/exports`, {})).export,
    onSuccess: (started) => client.invalidateQueries({ queryKey: exportKey(slug, started.id) }),
  });
}

/** One export, polled while it runs. */
export function useExport(slug: string, id: string | null) {
  return useQuery({
    queryKey: exportKey(slug, id ?? ''),
    queryFn: async () => (await api<{ export: ProjectExport }>('GET', `/v1/projects/${slug}/exports/${id}`)).export,
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data?.status === 'running' ? POLL_MS : false),
  });
}

export const restoreKey = (slug: string, id: string) => projectKey(slug, 'restores', id);

export function useStartRestore(slug: string) {
  return useMutation({
    mutationFn: async ({ backupId, target, name }: { backupId: string; target: RestoreTarget; name?: string }) =>
      (await api<{ restore: Restore }>('POST', `/v1/projects/${slug}/backups/${backupId}/restore`, { target, ...(name === undefined ? {} : { name }) })).restore,
  });
}

/** One restore, polled while it runs. */
export function useRestore(slug: string, id: string | null) {
  return useQuery({
    queryKey: restoreKey(slug, id ?? ''),
    queryFn: async () => (await api<{ restore: Restore }>('GET', `/v1/projects/${slug}/restores/${id}`)).restore,
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data?.status === 'running' ? POLL_MS : false),
  });
}

/**
 * Once a restore has ended: an in-place one replaced the project's model, content, media and end
 * users, so everything cached about the project is loaded again; a new project joins the list.
 * `onEnd` runs once per restore (a notification, say).
 */
export function useRestoreEnd(slug: string, restore: Restore | undefined, onEnd: (restore: Restore) => void) {
  const client = useQueryClient();
  const ended = useRef(new Set<string>());
  const latest = useRef(onEnd);
  useEffect(() => {
    latest.current = onEnd;
  });
  useEffect(() => {
    if (!restore || restore.status === 'running' || ended.current.has(restore.id)) return;
    ended.current.add(restore.id);
    if (restore.status === 'done') {
      if (restore.target === 'in-place') {
        void client.invalidateQueries({ predicate: (q) => q.queryKey[1] === slug && (q.queryKey[0] === 'project' || String(q.queryKey[0]).startsWith('content-')) });
      } else {
        void client.invalidateQueries({ queryKey: ['projects'] });
      }
    }
    latest.current(restore);
  }, [client, slug, restore]);
}
