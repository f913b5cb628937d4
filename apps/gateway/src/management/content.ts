// The dashboard's access to a project's content: a short-lived content access key for the member
// (the dashboard then calls the project's own REST API, as any Strapi client does), and the draft
// & publish actions that Strapi's content API does not have: unpublish and discard the draft.
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '@cms/auth';
import { discardDraft, unpublishDocument, writeLocale, type VersionsRequest } from '@cms/documents';
import { NotFoundError } from '@cms/errors';
import { contentRoutes as schemas } from '@cms/management-api';
import { documentEvents } from '../webhook-events.ts';
import { auditWhoOf } from '../audit/audit-context.ts';
import type { ManagementOptions } from './options.ts';
import { projectOf } from './request-context.ts';

interface ActionRoute {
  Params: { slug: string; uid: string; documentId: string };
  Body: { locale?: string } | undefined;
}

export async function contentRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  // Any member: editors and owners get full access, viewers read-only (their key can't write).
  app.post('/projects/:slug/content-access', { config: { access: 'member' }, schema: schemas.access }, async (request) => {
    const project = projectOf(request);
    const access = project.role === 'viewer' ? 'read-only' : 'full-access';
    const { accessKey, expiresAt } = platform.contentAccessKeys.issue({ projectId: project.id, accountId: request.accountId, access });
    return { accessKey, expiresAt: expiresAt.toISOString(), access };
  });

  const action = (name: 'unpublish' | 'discard', run: typeof unpublishDocument) =>
    app.post<ActionRoute>(`/projects/:slug/content/:uid/:documentId/${name}`, { schema: schemas[name] }, async (request, reply) => {
      const project = projectOf(request);
      const runtime = await platform.runtimes.get(project);
      const type = runtime.model.contentTypes[request.params.uid];
      if (!type) throw new NotFoundError();
      const requested = request.body?.locale;
      const locale = !type.localized ? project.defaultLocale : requested === '*' ? '*'
        : writeLocale(new Set((await platform.locales.list(project.id)).map((l) => l.code)), project.defaultLocale, requested);
      const target: VersionsRequest = { uid: type.uid, documentId: request.params.documentId, locale };
      await run({
        pool: platform.db.tenantPool, schema: runtime.schemaName, model: runtime.model, physical: runtime.physical,
        defaultLocale: project.defaultLocale, hashPassword, emit: documentEvents(platform, project, runtime, auditWhoOf(request)),
        history: platform.config.contentHistory ? { origin: 'dashboard', createdBy: { type: 'account', id: request.accountId } } : null,
      }, target);
      return reply.status(204).send();
    });
  action('unpublish', unpublishDocument);
  action('discard', discardDraft);
}
