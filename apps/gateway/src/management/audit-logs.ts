// The audit log (management-api.md § Audit log and account security, docs/audit-log.md): a
// project's log for its owners (listed with filters, exported as JSON Lines) and each account's
// own (sign-ins, security changes). Read-only: every other method on these paths is a 405, and
// the table itself refuses changes (@cms/audit). Another account's project is a 404 (loadProject).
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { parseAuditQuery, type AuditEntry, type AuditListQuery } from '@cms/audit';
import { MethodNotAllowedError } from '@cms/errors';
import { auditLogRoutes as schemas } from '@cms/management-api';
import type { ProjectAccess } from './access.ts';
import type { ManagementOptions } from './options.ts';
import { projectOf } from './request-context.ts';

const OWNERS = { access: 'owner' as const };
const READ_ONLY = ['GET', 'HEAD'];
const WRITES = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

const pageOf = (query: AuditListQuery, entries: AuditEntry[], total: number) => ({
  data: entries,
  meta: { pagination: { page: query.page, pageSize: query.pageSize, pageCount: Math.ceil(total / query.pageSize), total } },
});

/** `…-{from}-{to}` of an export's file name, from its filters. */
const day = (iso: string | undefined) => (iso ? iso.slice(0, 10) : null);

export async function auditLogRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  app.get('/projects/:slug/audit-logs', { config: OWNERS, schema: schemas.project }, async (request) => {
    const query = parseAuditQuery(request.query as Record<string, unknown>);
    const { entries, total } = await platform.audit.listProject(projectOf(request), query);
    return pageOf(query, entries, total);
  });

  // Streamed a page of entries at a time (each page its own statement): never held whole.
  app.get('/projects/:slug/audit-logs/export', { config: OWNERS, schema: schemas.projectExport }, async (request, reply) => {
    const query = parseAuditQuery(request.query as Record<string, unknown>, ['action', 'actor', 'from', 'to']);
    const project = projectOf(request);
    const pages = platform.audit.exportProject(project, query);
    async function* lines() {
      for await (const page of pages) yield page.map((entry) => `${JSON.stringify(entry)}\n`).join('');
    }
    const name = ['audit-log', project.slug, day(query.from), day(query.to)].filter((x) => x !== null).join('-');
    return reply
      .type('application/x-ndjson; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}.jsonl"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(lines()));
  });

  app.get('/auth/audit-logs', { schema: schemas.account }, async (request) => {
    const query = parseAuditQuery(request.query as Record<string, unknown>, ['page', 'pageSize']);
    const { entries, total } = await platform.audit.listAccount(request.accountId, query.page, query.pageSize);
    return pageOf(query, entries, total);
  });

  // Entries are never changed nor deleted: said in the envelope with an Allow header.
  for (const url of ['/projects/:slug/audit-logs', '/projects/:slug/audit-logs/:id', '/projects/:slug/audit-logs/export', '/auth/audit-logs', '/auth/audit-logs/:id']) {
    app.route({ method: [...WRITES], url, schema: schemas.readOnly, config: url.startsWith('/projects') ? { access: 'owner' as ProjectAccess } : {}, handler: async () => { throw new MethodNotAllowedError(READ_ONLY); } });
  }
}
