import type { FastifyInstance, FastifyRequest } from 'fastify';
import { effectivePlan } from '@cms/billing';
import type { MemberProject } from '@cms/tenancy';
import type { ManagementOptions } from './options.ts';
import { deleteProject } from './project-deletion.ts';
import { projectOf, requestOrigin } from './request-context.ts';

/** The contract's project JSON, with the caller's role; URLs as seen from the request's origin. */
export function projectJson(request: FastifyRequest, p: MemberProject) {
  const origin = requestOrigin(request);
  return {
    id: p.id,
    slug: p.slug,
    name: p.name,
    defaultLocale: p.defaultLocale,
    apiUrl: `${origin}/p/${p.slug}/api`,
    graphqlUrl: `${origin}/p/${p.slug}/graphql`,
    plan: effectivePlan(p),
    createdAt: p.createdAt,
    role: p.role,
  };
}

export function registerProjectRoutes(app: FastifyInstance, { platform }: ManagementOptions): void {
  app.post<{ Body: { name: string; slug?: string; defaultLocale?: string } }>('/projects', {
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: { name: { type: 'string', maxLength: 100 }, slug: { type: 'string', maxLength: 100 }, defaultLocale: { type: 'string', maxLength: 50 } },
      },
    },
  }, async (request, reply) => {
    const project = await platform.projects.create(request.accountId, request.body);
    return reply.status(201).send({ project: projectJson(request, project) });
  });

  app.get('/projects', async (request) => ({
    projects: (await platform.projects.listForAccount(request.accountId)).map((p) => projectJson(request, p)),
  }));

  app.get('/projects/:slug', async (request) => ({ project: projectJson(request, projectOf(request)) }));

  // Beyond the contract: rename (the slug and URLs stay).
  app.patch<{ Body: { name: string } }>('/projects/:slug', {
    schema: { body: { type: 'object', additionalProperties: false, required: ['name'], properties: { name: { type: 'string', maxLength: 100 } } } },
  }, async (request) => ({ project: projectJson(request, await platform.projects.rename(projectOf(request), request.body.name)) }));

  app.delete('/projects/:slug', { config: { access: 'owner' } }, async (request, reply) => {
    await deleteProject(platform, projectOf(request));
    return reply.status(204).send();
  });
}
