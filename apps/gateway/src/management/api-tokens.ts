// A project's API tokens. The plain access key is in the creation response only.
import type { FastifyInstance } from 'fastify';
import type { ApiToken } from '@cms/auth';
import { NotFoundError } from '@cms/errors';
import { apiTokenRoutes as schemas } from '@cms/management-api';
import type { ManagementOptions } from './options.ts';
import { projectOf } from './request-context.ts';

/** The contract's token JSON, exactly these keys. */
const tokenJson = ({ id, name, type, permissions, expiresAt, createdAt }: ApiToken) => ({ id, name, type, permissions, expiresAt, createdAt });
/** One token in detail: also its description and when it was last used (written every few seconds, null if never). */
const detailedTokenJson = (token: ApiToken) => ({ ...tokenJson(token), description: token.description, lastUsedAt: token.lastUsedAt });

const TOKEN_ID = /^[1-9]\d{0,14}$/;

export async function apiTokenRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  app.post<{ Body: { name: string; type: string; permissions?: Record<string, string[]>; lifespanDays?: number | null; description?: string } }>(
    '/projects/:slug/api-tokens',
    { schema: schemas.create },
    async (request, reply) => {
      const p = projectOf(request);
      const { model } = await platform.runtimes.get(p);
      const { apiToken, accessKey } = await platform.apiTokens.create(p.id, request.body, model);
      return reply.status(201).send({ apiToken: tokenJson(apiToken), accessKey });
    },
  );

  app.get('/projects/:slug/api-tokens', { schema: schemas.list }, async (request) => ({
    apiTokens: (await platform.apiTokens.list(projectOf(request).id)).map(tokenJson),
  }));

  // Beyond the contract's list: one token with its last use, for the dashboard.
  app.get<{ Params: { slug: string; id: string } }>('/projects/:slug/api-tokens/:id', { schema: schemas.get }, async (request) => {
    const p = projectOf(request);
    if (!TOKEN_ID.test(request.params.id)) throw new NotFoundError();
    const token = await platform.apiTokens.find(p.id, Number(request.params.id));
    if (!token) throw new NotFoundError();
    return { apiToken: detailedTokenJson(token) };
  });

  app.delete<{ Params: { slug: string; id: string } }>('/projects/:slug/api-tokens/:id', { schema: schemas.remove }, async (request, reply) => {
    const p = projectOf(request);
    if (!TOKEN_ID.test(request.params.id)) throw new NotFoundError();
    await platform.apiTokens.remove(p.id, Number(request.params.id));
    // Every instance drops its cached lookups of this project's tokens.
    await platform.registry.invalidate({ projectId: p.id, slug: p.slug, scope: 'project' });
    return reply.status(204).send();
  });
}
