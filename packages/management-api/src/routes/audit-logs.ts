// The audit logs (apps/gateway/src/management/audit-logs.ts, docs/audit-log.md).
import { withErrors } from '../errors.ts';
import { defineRoute, noBody, pageQuery } from '../route.ts';
import { pageOf } from '../shapes.ts';

// Shown by the document only (`docQuery`): the handler reads each value as text and answers a bad
// one itself (a value given twice included), with `details.key` naming the parameter.
const page = pageQuery(25, 100);

/** A day (`2026-11-01`: `from` its start, `to` its end, UTC) or an ISO 8601 instant. */
const dayOrInstant = (description: string) => ({
  anyOf: [{ type: 'string', format: 'date' }, { type: 'string', format: 'date-time' }],
  description,
  examples: ['2026-11-01', '2026-11-29T09:30:00Z'],
}) as const;

const filters = {
  action: { type: 'string', maxLength: 100, description: 'An action (`entry.create`) or a family of them (`entry`)' },
  actor: {
    type: 'string', maxLength: 400,
    description: 'An actor type (`account`, `api-token`, `end-user`, `system`), `type:id`, an account id or an account\'s e-mail',
  },
  from: dayOrInstant('An ISO date or instant: entries at or after it'),
  to: dayOrInstant('An ISO date or instant: entries at or before it'),
} as const;

const entries = (description: string) => pageOf({ $ref: 'AuditEntry#' }, description);

export const auditLogRoutes = {
  project: defineRoute({
    tags: ['Audit log'],
    summary: 'List a project\'s audit log',
    description: 'Newest first. Owners only. Entries are kept per plan (7 / 90 / 365 days).',
    docQuery: { ...filters, ...page },
    response: withErrors({ 200: entries('A page of entries') }, { 400: 'A filter is malformed (or an unknown key)', 403: 'Owners only', 404: 'No such project (or not a member)' }),
  }),

  projectExport: defineRoute({
    tags: ['Audit log'],
    summary: 'Export a project\'s audit log',
    description: 'Every entry matching the filters, newest first, as JSON Lines (one `AuditEntry` per line), streamed as a download. Owners only.',
    docQuery: filters,
    response: withErrors({
      200: {
        description: 'JSON Lines, one `AuditEntry` per line (`content-disposition: attachment`)',
        content: { 'application/x-ndjson': { schema: { type: 'string' } } },
      },
    }, { 400: 'A filter is malformed (or an unknown key)', 403: 'Owners only', 404: 'No such project (or not a member)' }),
  }),

  account: defineRoute({
    tags: ['Audit log'],
    summary: 'List the account\'s own audit log',
    description: 'Sign-ins (`admin.auth.success`, `admin.auth.failure`), two-factor and other security changes of the signed-in account, newest first.',
    docQuery: page,
    response: withErrors({ 200: entries('A page of entries') }, { 400: 'A malformed page (or an unknown key)', 401: 'No valid session' }),
  }),

  readOnly: defineRoute({
    tags: ['Audit log'],
    summary: 'Not allowed: audit entries cannot be changed',
    description: 'Always 405 with `Allow: GET, HEAD`: entries are never changed nor deleted.',
    docBody: noBody('Any body: the request is refused (405) whatever it sends'),
    response: withErrors({}, { 405: 'Always' }),
  }),
};
