// A project's audit log as a JSON Lines file (`GET /v1/projects/{slug}/audit-logs/export`, owners),
// with a search's filters: the browser downloads it from a link, so this is its address.
import { auditFilterQuery, type AuditFilters } from './get-audit-logs.ts';

export function auditLogsExportUrl(slug: string, filters: AuditFilters): string {
  const query = new URLSearchParams(auditFilterQuery(filters));
  return `/v1/projects/${encodeURIComponent(slug)}/audit-logs/export${query.size ? `?${query.toString()}` : ''}`;
}
