// The audit logs (apps/gateway/src/management/audit-logs.ts, docs/audit-log.md).
import { withErrors } from '../errors.ts';
import { defineRoute, noBody } from '../route.ts';
import { pageOf } from '../shapes.ts';

// No `type` on these: a value given twice (an array) is refused by the handler itself, with
// `details.key` naming the parameter, as for any other malformed one.
const page = {
  page: { description: 'From 1 (default 1)' },
  pageSize: { description: 'Entries per page (default 25, at most 100)' },
} as const;

const filters = {
  action: { description: 'An action (`entry.create`) or a family of them (`entry`)' },
  actor: { description: 'An actor type (`account`, `api-token`, `end-user`, `system`), `type:id`, an account id or an account\'s e-mail' },
  from: { description: 'An ISO date or instant: entries at or after it' },
  to: { description: 'An ISO date or instant: entries at or before it' },
} as const;

const entries = (description: string) => pageOf({ $ref: 'AuditEntry#' }, description);

export const auditLogRoutes = {
  project: defineRoute({
    tags: ['Audit log'],
    summary: 'List a project\'s audit log',
    description: 'Newest first. Owners only. Entries are kept per plan (7 / 90 / 365 days).',
    querystring: { type: 'object', properties: { ...filters, ...page } },
    response: withErrors({ 200: entries('A page of entries') }, { 400: 'A filter is malformed (or an unknown key)', 403: 'Owners only', 404: 'No such project (or not a member)' }),
  }),

  projectExport: defineRoute({
    tags: ['Audit log'],
    summary: 'Export a project\'s audit log',
    description: 'Every entry matching the filters, newest first, as JSON Lines (one `AuditEntry` per line), streamed as a download. Owners only.',
    querystring: { type: 'object', properties: filters },
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
    querystring: { type: 'object', properties: page },
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
