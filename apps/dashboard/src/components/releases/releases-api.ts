// Releases and scheduled actions through the management API (§ Releases and scheduled publishing):
// the types it answers, the queries (keys under ['project', slug, 'releases' | 'scheduled-actions'])
// and the calls behind the Releases pages and the entry editor's buttons.
import { useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../../api.ts';
import { projectKey } from '../../project.ts';

export type ReleaseStatus = 'ready' | 'blocked' | 'failed' | 'done' | 'empty';
export type ActionType = 'publish' | 'unpublish';

export interface Release {
  id: number;
  name: string;
  status: ReleaseStatus;
  /** ISO instant (UTC), with the IANA zone it was chosen in */
  scheduledAt: string | null;
  timezone: string | null;
  releasedAt: string | null;
  actions: { meta: { count: number } };
  createdAt: string;
  updatedAt: string;
}

export interface ReleaseAction {
  id: number;
  type: ActionType;
  contentType: string;
  entryDocumentId: string;
  locale: string | null;
  isEntryValid: boolean;
  /** why the entry cannot be applied now (its validation message); null when valid */
  entryError: string | null;
  /** the entry's draft (no populate); null once it no longer exists */
  entry: Record<string, unknown> | null;
}

/** An entry a publish could not apply, as the 400's `details.errors` lists it. */
export interface ReleaseEntryError {
  actionId: number;
  contentType: string;
  entryDocumentId: string;
  locale: string | null;
  message: string;
}

export interface ScheduledAction {
  id: number;
  contentType: string;
  documentId: string;
  locale: string | null;
  action: ActionType;
  scheduledFor: { datetime: string; timezone: string };
  status: 'scheduled' | 'succeeded' | 'failed' | 'canceled';
  error: string | null;
  createdAt: string;
}

interface Pagination {
  page: number;
  pageSize: number;
  pageCount: number;
  total: number;
}

export interface ReleaseList {
  data: Release[];
  meta: { pagination: Pagination; pendingReleasesCount: number };
}

export type ReleaseFilter = 'pending' | 'done';

/** Every query of the project's releases (lists, one release, its actions). */
export const releasesKey = (slug: string) => projectKey(slug, 'releases');
const base = (slug: string) => `/v1/projects/${slug}/releases`;

export function useReleases(slug: string, status: ReleaseFilter, page = 1) {
  return useQuery({
    queryKey: [...releasesKey(slug), 'list', status, page],
    queryFn: () => api<ReleaseList>('GET', `${base(slug)}?status=${status}&page=${page}`),
  });
}

/** Pending releases to add an entry to (the first 100). */
export function usePendingReleases(slug: string) {
  return useQuery({
    queryKey: [...releasesKey(slug), 'list', 'pending', 'all'],
    queryFn: async () => (await api<ReleaseList>('GET', `${base(slug)}?status=pending&pageSize=100`)).data,
  });
}

/** Is `iso` from a minute ahead to five minutes past: a schedule about to run (or running late)? */
export function isDueSoon(iso: string): boolean {
  const left = Date.parse(iso) - Date.now();
  return left < 60_000 && left > -300_000;
}

/** A release; read again every 2 s while its schedule is due soon and it is not done. */
export function useRelease(slug: string, id: string) {
  return useQuery({
    queryKey: [...releasesKey(slug), 'one', id],
    queryFn: async () => (await api<{ data: Release }>('GET', `${base(slug)}/${id}`)).data,
    refetchInterval: ({ state: { data } }) => (data?.scheduledAt && data.status !== 'done' && isDueSoon(data.scheduledAt) ? 2000 : false),
  });
}

/** All of a release's actions, in the order they were added (pages of 100). */
export function useReleaseActions(slug: string, id: string) {
  return useQuery({
    queryKey: [...releasesKey(slug), 'actions', id],
    queryFn: async () => {
      const out: ReleaseAction[] = [];
      for (let page = 1; ; page++) {
        const res = await api<{ data: ReleaseAction[]; meta: { pagination: Pagination } }>('GET', `${base(slug)}/${id}/actions?page=${page}&pageSize=100`);
        out.push(...res.data);
        if (page >= res.meta.pagination.pageCount) return out;
      }
    },
  });
}

export interface ReleaseFields {
  name?: string;
  scheduledAt?: string | null;
  timezone?: string | null;
}

export const createRelease = async (slug: string, body: ReleaseFields & { name: string }) =>
  (await api<{ data: Release }>('POST', base(slug), body)).data;
export const updateRelease = async (slug: string, id: number, body: ReleaseFields) =>
  (await api<{ data: Release }>('PUT', `${base(slug)}/${id}`, body)).data;
export const deleteRelease = (slug: string, id: number) => api<void>('DELETE', `${base(slug)}/${id}`);
export const publishRelease = async (slug: string, id: number) => (await api<{ data: Release }>('POST', `${base(slug)}/${id}/publish`)).data;

export const addAction = (slug: string, releaseId: number, body: { contentType: string; entryDocumentId: string; locale?: string; type: ActionType }) =>
  api<{ data: ReleaseAction }>('POST', `${base(slug)}/${releaseId}/actions`, body);
export const setActionType = (slug: string, releaseId: number, actionId: number, type: ActionType) =>
  api<{ data: ReleaseAction }>('PUT', `${base(slug)}/${releaseId}/actions/${actionId}`, { type });
export const removeAction = (slug: string, releaseId: number, actionId: number) => api<void>('DELETE', `${base(slug)}/${releaseId}/actions/${actionId}`);

/** The entries a failed publish names (its 400's `details.errors`); empty for any other error. */
export function entryErrorsOf(err: unknown): ReleaseEntryError[] {
  if (!(err instanceof ApiError) || err.status !== 400) return [];
  const errors = (err.details as { errors?: unknown[] }).errors ?? [];
  return errors.filter((e): e is ReleaseEntryError => typeof e === 'object' && e !== null && 'actionId' in e && 'message' in e);
}

export const scheduledActionsKey = (slug: string, documentId: string) => projectKey(slug, 'scheduled-actions', documentId);

/** The document's actions still to run (every locale; soonest first). */
export const listScheduledActions = async (slug: string, documentId: string) => (await api<{ data: ScheduledAction[] }>(
  'GET', `/v1/projects/${slug}/scheduled-actions?documentId=${encodeURIComponent(documentId)}&status=scheduled`,
)).data;

export const scheduleAction = (slug: string, body: {
  contentType: string; documentId: string; locale?: string; action: ActionType; scheduledFor: { datetime: string; timezone: string };
}) => api<{ data: ScheduledAction }>('POST', `/v1/projects/${slug}/scheduled-actions`, body);
export const cancelScheduledAction = (slug: string, id: number) => api<void>('DELETE', `/v1/projects/${slug}/scheduled-actions/${id}`);
