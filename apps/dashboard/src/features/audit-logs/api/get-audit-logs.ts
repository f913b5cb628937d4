// A project's audit log (`GET /v1/projects/{slug}/audit-logs`, owners), newest first, filtered by
// action, actor and dates, a page at a time.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type AuditPage = AnswerOf<'/v1/projects/{slug}/audit-logs', 'get'>;
export type AuditEntry = AuditPage['data'][number];

/** The filters of a search, as typed (empty: not filtered). */
export interface AuditFilters {
  action: string;
  actor: string;
  from: string;
  to: string;
}

/** The filters given, trimmed: the query of a search and of its export. */
export function auditFilterQuery(filters: AuditFilters): Partial<AuditFilters> {
  return Object.fromEntries(Object.entries(filters).map(([key, value]) => [key, value.trim()]).filter(([, value]) => value));
}

export async function getAuditLogs(slug: string, filters: AuditFilters, page: number, pageSize: number): Promise<AuditPage> {
  const query = { ...auditFilterQuery(filters), page, pageSize };
  return unwrap(client.GET('/v1/projects/{slug}/audit-logs', { params: { path: { slug }, query } }));
}

export const auditLogsQueryOptions = (slug: string, filters: AuditFilters, page: number, pageSize: number) =>
  queryOptions({
    queryKey: projectKeys.feature(slug, 'audit-logs', { ...auditFilterQuery(filters), page, pageSize }),
    queryFn: () => getAuditLogs(slug, filters, page, pageSize),
    placeholderData: keepPreviousData,
  });

/** `enabled`: false for a member who may not read it (only owners may). */
export function useAuditLogs(slug: string, filters: AuditFilters, page: number, pageSize: number, enabled = true) {
  return useQuery({ ...auditLogsQueryOptions(slug, filters, page, pageSize), enabled });
}
