// Entries of an audit log as the API answers them (a project's, GET /v1/projects/{slug}/audit-logs,
// and an account's own, GET /v1/auth/audit-logs), and their one-line summary.

export interface AuditEntry {
  id: number;
  action: string;
  actor: { type: 'account' | 'api-token' | 'end-user' | 'system'; id: string | null; email?: string };
  ip: string | null;
  userAgent: string | null;
  payload: Record<string, unknown>;
  date: string;
}

export interface AuditPage {
  data: AuditEntry[];
  meta: { pagination: { page: number; pageSize: number; pageCount: number; total: number } };
}

/** The payload's keys shown first, in this order (the rest after them, as stored). */
const FIRST = ['uid', 'documentId', 'locale', 'status', 'fields', 'fileIds', 'name', 'email', 'role', 'plan'];

/** A one-line summary of the payload: the document or file, then the fields a change named. */
export function auditSummary(payload: Record<string, unknown>): string {
  const parts: string[] = [];
  const rank = (key: string) => (FIRST.includes(key) ? FIRST.indexOf(key) : FIRST.length);
  for (const [key, value] of Object.entries(payload).sort(([a], [b]) => rank(a) - rank(b))) {
    if (value === null || value === undefined) continue;
    parts.push(`${key}: ${Array.isArray(value) ? value.join(', ') : typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
  }
  return parts.join(' · ');
}
