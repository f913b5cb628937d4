// The management API (`/v1`): accounts, projects, schema, locales, roles, API tokens, usage.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UnauthorizedError } from '@cms/errors';
import type { Platform } from '../platform.ts';
import type { Services } from '../services.ts';
import { registerAccountRoutes } from './accounts.ts';
import { registerProjectRoutes } from './projects.ts';
import { registerSchemaRoutes } from './schema.ts';
import { registerProjectSettingRoutes } from './settings.ts';

declare module 'fastify' {
  interface FastifyRequest {
    accountId: number;
  }
}

export interface ManagementOptions {
  platform: Platform;
  services: Services;
}

export async function managementPlugin(app: FastifyInstance, opts: ManagementOptions): Promise<void> {
  app.decorateRequest('accountId', 0);
  registerAccountRoutes(app, opts, authenticate);
  // Everything else needs a session token.
  await app.register(async (authed) => {
    authed.addHook('preHandler', authenticate);
    registerProjectRoutes(authed, opts);
    registerSchemaRoutes(authed, opts);
    registerProjectSettingRoutes(authed, opts);
  });

  async function authenticate(request: FastifyRequest): Promise<void> {
    const header = request.headers.authorization;
    const match = header?.match(/^Bearer\s+(\S+)$/i);
    const accountId = match ? await opts.services.sessions.verify(match[1]!) : null;
    if (!accountId) throw new UnauthorizedError();
    request.accountId = accountId;
  }
}
