// The users-permissions plugin's REST API: `/api/users/me` and `/api/users` CRUD (its auth routes
// are user-auth-routes.ts'). Bodies are bare (not `{data}`); users never carry their password or
// tokens.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { positiveId } from '@cms/documents';
import { ForbiddenError, NotFoundError } from '@cms/errors';
import { runCount, USERS_UID } from '@cms/query';
import type { Platform } from '../platform.ts';
import { usersProjectOf, type Access } from './access.ts';
import { callerHook } from './caller.ts';
import type { TenantOptions } from './options.ts';
import { tenantOf } from './request-context.ts';
import { pluginListRead } from './rest-targets.ts';
import { caller, JSON_TYPE, userJson } from './user-context.ts';
import { withoutRolePopulate, withRoles } from './user-role-populate.ts';

// `/api/users` answers a bare array: without `pagination` up to this many users.
const USER_LIST_LIMITS = { defaultLimit: 100, maxLimit: 1000 };

const idOf = (request: FastifyRequest<{ Params: { id: string } }>) => {
  const id = positiveId(request.params.id);
  if (!id) throw new NotFoundError();
  return id;
};

export async function userRoutes(app: FastifyInstance, { platform }: TenantOptions): Promise<void> {
  // Every one answers its caller (caller.ts).
  app.addHook('preHandler', callerHook(platform));
  registerUserReads(app, platform);
  registerUserWrites(app, platform);
}

function registerUserReads(app: FastifyInstance, platform: Platform): void {
  const pool = platform.db.tenantPool;
  /** One user, with its role when asked for. */
  const oneUser = async (request: FastifyRequest, access: Access, id: string) => {
    const json = await userJson(platform, request, access, id);
    if (json === null) throw new NotFoundError();
    return (await withRoles(pool, request, `[${json}]`)).slice(1, -1);
  };
  // Lists: compiled once per model version, caller permissions and query string.
  const listRead = async (request: FastifyRequest, access: Access) =>
    pluginListRead(request, await platform.runtimes.get(tenantOf(request).project), access, USERS_UID, withoutRolePopulate(request.query as Record<string, unknown>), USER_LIST_LIMITS);

  app.get('/api/users/me', async (request, reply) => {
    const access = caller(request);
    // API tokens have no user (Strapi: 403).
    if (!access.user) throw new ForbiddenError();
    return reply.type(JSON_TYPE).send(await oneUser(request, access, access.user.userId));
  });

  app.get('/api/users', async (request, reply) => {
    const access = caller(request, 'find');
    return reply.type(JSON_TYPE).send(await withRoles(pool, request, (await (await listRead(request, access)).find(pool)).json));
  });

  app.get('/api/users/count', async (request, reply) => {
    const access = caller(request, 'count');
    const read = await listRead(request, access);
    return reply.type(JSON_TYPE).send(String(await runCount(pool, read.plan)));
  });

  app.get<{ Params: { id: string } }>('/api/users/:id', async (request, reply) => {
    const access = caller(request, 'findOne');
    return reply.type(JSON_TYPE).send(await oneUser(request, access, idOf(request)));
  });
}

function registerUserWrites(app: FastifyInstance, platform: Platform): void {
  const pool = platform.db.tenantPool;
  const { endUsers } = platform;
  const project = (request: FastifyRequest) => usersProjectOf(request, tenantOf(request));

  app.post('/api/users', async (request, reply) => {
    const access = caller(request, 'create');
    const id = await endUsers.create(pool, project(request), request.body);
    return reply.status(201).type(JSON_TYPE).send(await userJson(platform, request, access, id));
  });

  app.put<{ Params: { id: string } }>('/api/users/:id', async (request, reply) => {
    const access = caller(request, 'update');
    const id = idOf(request);
    if (!(await endUsers.update(pool, project(request), id, request.body))) throw new NotFoundError();
    return reply.type(JSON_TYPE).send(await userJson(platform, request, access, id));
  });

  app.delete<{ Params: { id: string } }>('/api/users/:id', async (request, reply) => {
    const access = caller(request, 'destroy');
    const id = idOf(request);
    const json = await userJson(platform, request, access, id);
    if (json === null || !(await endUsers.remove(pool, project(request), id))) throw new NotFoundError();
    return reply.type(JSON_TYPE).send(json);
  });
}
