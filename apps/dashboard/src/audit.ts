// The one-line summary of an audit log entry's payload (a project's log, GET
// /v1/projects/{slug}/audit-logs, and an account's own, GET /v1/auth/audit-logs; both answer
// the document's `AuditEntry`).

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
