// Roles of a project's end users and their permission sets (users-and-permissions).
import type { FastifyInstance } from 'fastify';
import type { Role } from '@cms/auth';
import { ROLE_TYPE_PATTERN, roleRoutes as schemas } from '@cms/management-api';
import { projectRoleChanges } from '../project-roles.ts';
import type { ManagementOptions } from './options.ts';
import { projectOf } from './request-context.ts';

/** A custom role's type (its key), as the route's body schema checks it; the in-process import checks it too. */
export const ROLE_TYPE = ROLE_TYPE_PATTERN;
const roleJson = ({ type, name, permissions }: Role) => ({ type, name, permissions });

export async function roleRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  const changes = (request: Parameters<typeof projectOf>[0]) => projectRoleChanges(platform, projectOf(request));

  app.get('/projects/:slug/roles', { schema: schemas.list }, async (request) => ({
    roles: (await platform.roles.list(projectOf(request).id)).map(roleJson),
  }));

  app.post<{ Body: { type: string; name: string; description?: string } }>('/projects/:slug/roles', { schema: schemas.create }, async (request, reply) => {
    const role = await changes(request).create(request.body);
    return reply.status(201).send({ role: roleJson(role) });
  });

  app.put<{ Params: { slug: string; type: string }; Body: { permissions: Record<string, string[]> } }>('/projects/:slug/roles/:type/permissions', { schema: schemas.setPermissions }, async (request) => {
    const role = await changes(request).setPermissions(request.params.type, request.body.permissions);
    return { role: roleJson(role) };
  });

  // Free addition: custom roles can be deleted; `public` and `authenticated` cannot (400).
  app.delete<{ Params: { slug: string; type: string } }>('/projects/:slug/roles/:type', { schema: schemas.remove }, async (request, reply) => {
    await changes(request).remove(request.params.type);
    return reply.status(204).send();
  });
}
