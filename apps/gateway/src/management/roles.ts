// Roles of a project's end users and their permission sets (users-and-permissions).
import type { FastifyInstance } from 'fastify';
import type { Role } from '@cms/auth';
import { usersSettingsOf } from '@cms/users';
import type { ManagementOptions } from './index.ts';
import { projectOf } from './request-context.ts';

const ROLE_TYPE = '^[a-z][a-z0-9_-]{0,49}$';
const roleJson = ({ type, name, permissions }: Role) => ({ type, name, permissions });

export function registerRoleRoutes(app: FastifyInstance, { platform, services }: ManagementOptions): void {
  // Roles are part of the tenant entry every instance caches: each change invalidates it.
  const invalidate = (p: { id: number; slug: string }) => platform.registry.invalidate({ projectId: p.id, slug: p.slug, scope: 'project' });

  app.get('/projects/:slug/roles', async (request) => ({
    roles: (await services.roles.list(projectOf(request).id)).map(roleJson),
  }));

  app.post<{ Body: { type: string; name: string; description?: string } }>('/projects/:slug/roles', {
    schema: {
      body: {
        type: 'object', additionalProperties: false, required: ['type', 'name'],
        properties: { type: { type: 'string', pattern: ROLE_TYPE }, name: { type: 'string', minLength: 1, maxLength: 100 }, description: { type: 'string', maxLength: 500 } },
      },
    },
  }, async (request, reply) => {
    const p = projectOf(request);
    const role = await services.roles.create(p.id, request.body);
    await invalidate(p);
    return reply.status(201).send({ role: roleJson(role) });
  });

  app.put<{ Params: { slug: string; type: string }; Body: { permissions: Record<string, string[]> } }>('/projects/:slug/roles/:type/permissions', {
    schema: { body: { type: 'object', additionalProperties: false, required: ['permissions'], properties: { permissions: { type: 'object' } } } },
  }, async (request) => {
    const p = projectOf(request);
    const { model } = await platform.runtimes.get(p);
    const role = await services.roles.setPermissions(p.id, request.params.type, request.body.permissions, model);
    await invalidate(p);
    return { role: roleJson(role) };
  });

  // Free addition: custom roles can be deleted; `public` and `authenticated` cannot (400).
  app.delete<{ Params: { slug: string; type: string } }>('/projects/:slug/roles/:type', async (request, reply) => {
    const p = projectOf(request);
    const { type } = request.params;
    // Its users become `authenticated` in the same transaction; a default role falls back too.
    await services.roles.remove(p.id, type, (tx) => services.endUsers.roleRemoved(tx, p.schemaName, type));
    const settings = usersSettingsOf(p.settings);
    if (settings.defaultRole === type) await services.projects.updateSettings(p, 'usersPermissions', { ...settings, defaultRole: 'authenticated' });
    await invalidate(p);
    return reply.status(204).send();
  });
}
