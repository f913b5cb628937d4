import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NotFoundError, ValidationError } from '@cms/errors';
import { effectivePlan } from '@cms/billing';
import { projectRoutes as schemas } from '@cms/management-api';
import type { MemberProject } from '@cms/tenancy';
import type { ManagementOptions } from './options.ts';
import { deleteProject } from './project-deletion.ts';
import { contentApiUrls, projectOf } from './request-context.ts';

/** The contract's project JSON, with the caller's role; URLs as seen from the request's origin. */
export function projectJson(request: FastifyRequest, p: MemberProject) {
  return {
    id: p.id,
    slug: p.slug,
    name: p.name,
    defaultLocale: p.defaultLocale,
    ...contentApiUrls(request, p.slug),
    plan: effectivePlan(p),
    createdAt: p.createdAt,
    role: p.role,
    // An environment (§ Environments): its parent and its name; absent on other projects.
    ...(p.parentId && p.parent ? { parent: p.parent, environment: p.environment ?? null } : {}),
  };
}

export async function projectRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  app.post<{ Body: { name: string; slug?: string; defaultLocale?: string } }>('/projects', { schema: schemas.create }, async (request, reply) => {
    const project = await platform.projects.create(request.accountId, request.body);
    return reply.status(201).send({ project: projectJson(request, project) });
  });

  // `?status=deleted` (beyond the contract): the deleted projects the account owns and may still
  // restore, each with when it was deleted and when it will be purged.
  app.get<{ Querystring: { status?: string } }>('/projects', { schema: schemas.list }, async (request) => {
    const status = request.query.status;
    if (status === 'deleted') {
      const deleted = await platform.projects.listDeletedForAccount(request.accountId);
      return { projects: deleted.map((p) => ({ ...projectJson(request, p), deletedAt: p.deletedAt, purgeAt: p.purgeAt })) };
    }
    if (status !== undefined && status !== 'active') throw new ValidationError('status must be active or deleted', { status: String(status).slice(0, 50) });
    return { projects: (await platform.projects.listForAccount(request.accountId)).map((p) => projectJson(request, p)) };
  });

  app.get('/projects/:slug', { schema: schemas.get }, async (request) => ({ project: projectJson(request, projectOf(request)) }));

  // Beyond the contract: rename (the slug and URLs stay).
  app.patch<{ Body: { name: string } }>('/projects/:slug', { schema: schemas.rename }, async (request) => ({ project: projectJson(request, await platform.projects.rename(projectOf(request), request.body.name)) }));

  app.delete('/projects/:slug', { config: { access: 'owner' }, schema: schemas.remove }, async (request, reply) => {
    await deleteProject(platform, projectOf(request));
    return reply.status(204).send();
  });

  // A deleted project within its restore window comes back whole (its owners only: the others
  // get 404, as for any project they cannot see).
  app.post('/projects/:slug/restore', { config: { access: 'owner', deletedProject: true }, schema: schemas.restore }, async (request) => {
    const project = projectOf(request);
    if (!(await platform.projects.restore(project))) throw new NotFoundError();
    return { project: projectJson(request, project) };
  });
}
