// Per-project settings: locales, roles & permissions, API tokens, usage.
import type { FastifyInstance } from 'fastify';
import { usageReport } from '@cms/billing';
import { NotFoundError } from '@cms/errors';
import type { ApiToken } from '@cms/auth';
import type { ManagementOptions } from './index.ts';

const ROLE_TYPE = '^[a-z][a-z0-9_-]{0,49}$';

function tokenJson(t: ApiToken) {
  return { id: t.id, name: t.name, description: t.description, type: t.type, permissions: t.permissions, expiresAt: t.expiresAt, lastUsedAt: t.lastUsedAt, createdAt: t.createdAt };
}

export function registerProjectSettingRoutes(app: FastifyInstance, { platform, services }: ManagementOptions): void {
  const project = (accountId: number, slug: string) => services.projects.getForAccount(accountId, slug);
  const runtimeOf = async (accountId: number, slug: string) => {
    const p = await project(accountId, slug);
    return { project: p, runtime: await platform.runtimes.get(p) };
  };

  // ── locales ──
  app.get<{ Params: { slug: string } }>('/projects/:slug/locales', async (request) => {
    const p = await project(request.accountId, request.params.slug);
    return { locales: (await services.locales.list(p.id)).map(({ code, name, isDefault }) => ({ code, name, isDefault })) };
  });

  app.post<{ Params: { slug: string }; Body: { code: string; name?: string; isDefault?: boolean } }>('/projects/:slug/locales', {
    schema: {
      body: {
        type: 'object', additionalProperties: false, required: ['code'],
        properties: { code: { type: 'string', maxLength: 50 }, name: { type: 'string', maxLength: 100 }, isDefault: { type: 'boolean' } },
      },
    },
  }, async (request, reply) => {
    const p = await project(request.accountId, request.params.slug);
    const { code, name, isDefault } = await services.locales.add(p, request.body);
    return reply.status(201).send({ locale: { code, name, isDefault } });
  });

  app.delete<{ Params: { slug: string; code: string } }>('/projects/:slug/locales/:code', async (request, reply) => {
    const { project: p, runtime } = await runtimeOf(request.accountId, request.params.slug);
    await services.locales.remove(p, request.params.code, runtime.physical);
    return reply.status(204).send();
  });

  // ── roles & permissions ──
  app.get<{ Params: { slug: string } }>('/projects/:slug/roles', async (request) => {
    const p = await project(request.accountId, request.params.slug);
    return { roles: (await services.roles.list(p.id)).map(({ type, name, permissions }) => ({ type, name, permissions })) };
  });

  app.post<{ Params: { slug: string }; Body: { type: string; name: string; description?: string } }>('/projects/:slug/roles', {
    schema: {
      body: {
        type: 'object', additionalProperties: false, required: ['type', 'name'],
        properties: { type: { type: 'string', pattern: ROLE_TYPE }, name: { type: 'string', minLength: 1, maxLength: 100 }, description: { type: 'string', maxLength: 500 } },
      },
    },
  }, async (request, reply) => {
    const p = await project(request.accountId, request.params.slug);
    const { type, name, permissions } = await services.roles.create(p.id, request.body);
    await platform.registry.invalidate({ projectId: p.id, slug: p.slug, scope: 'project' });
    return reply.status(201).send({ role: { type, name, permissions } });
  });

  app.put<{ Params: { slug: string; type: string }; Body: { permissions: Record<string, string[]> } }>('/projects/:slug/roles/:type/permissions', {
    schema: { body: { type: 'object', additionalProperties: false, required: ['permissions'], properties: { permissions: { type: 'object' } } } },
  }, async (request) => {
    const { project: p, runtime } = await runtimeOf(request.accountId, request.params.slug);
    const { type, name, permissions } = await services.roles.setPermissions(p.id, request.params.type, request.body.permissions, runtime.model);
    await platform.registry.invalidate({ projectId: p.id, slug: p.slug, scope: 'project' });
    return { role: { type, name, permissions } };
  });

  app.delete<{ Params: { slug: string; type: string } }>('/projects/:slug/roles/:type', async (request, reply) => {
    const p = await project(request.accountId, request.params.slug);
    await services.roles.remove(p.id, request.params.type);
    await platform.registry.invalidate({ projectId: p.id, slug: p.slug, scope: 'project' });
    return reply.status(204).send();
  });

  // ── API tokens ──
  app.post<{ Params: { slug: string }; Body: { name: string; type: string; permissions?: Record<string, string[]>; lifespanDays?: number | null; description?: string } }>(
    '/projects/:slug/api-tokens',
    {
      schema: {
        body: {
          type: 'object', additionalProperties: false, required: ['name', 'type'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 100 },
            type: { type: 'string', maxLength: 50 },
            description: { type: 'string', maxLength: 500 },
            permissions: { type: 'object' },
            lifespanDays: { type: ['integer', 'null'] },
          },
        },
      },
    },
    async (request, reply) => {
      const { project: p, runtime } = await runtimeOf(request.accountId, request.params.slug);
      const { apiToken, accessKey } = await services.apiTokens.create(p.id, request.body, runtime.model);
      return reply.status(201).send({ apiToken: tokenJson(apiToken), accessKey });
    },
  );

  app.get<{ Params: { slug: string } }>('/projects/:slug/api-tokens', async (request) => {
    const p = await project(request.accountId, request.params.slug);
    return { apiTokens: (await services.apiTokens.list(p.id)).map(tokenJson) };
  });

  app.delete<{ Params: { slug: string; id: string } }>('/projects/:slug/api-tokens/:id', async (request, reply) => {
    const p = await project(request.accountId, request.params.slug);
    const id = Number(request.params.id);
    if (!Number.isSafeInteger(id) || id <= 0) throw new NotFoundError();
    await services.apiTokens.remove(p.id, id);
    await platform.registry.invalidate({ projectId: p.id, slug: p.slug, scope: 'project' });
    return reply.status(204).send();
  });

  // ── usage ──
  app.get<{ Params: { slug: string } }>('/projects/:slug/usage', async (request) => {
    const { project: p, runtime } = await runtimeOf(request.accountId, request.params.slug);
    return usageReport(platform.db.pool, services.usage, p, Object.values(runtime.physical.contentTypes).map((t) => t.table));
  });
}
