// The users-permissions plugin's REST API: `/api/auth/local/register`,
// `/api/auth/local`, `/api/auth/change-password`, `/api/users/me` and `/api/users` CRUD. Bodies
// are bare (not `{data}`); users never carry their password or tokens.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { compiledQuery } from '@cms/db';
import { positiveId } from '@cms/documents';
import { ForbiddenError, NotFoundError } from '@cms/errors';
import { renderCount, USERS_UID } from '@cms/query';
import { rolesOfUsers, type AuthResult } from '@cms/users';
import type { Platform } from '../platform.ts';
import type { Services } from '../services.ts';
import { resolveAccess, usersProjectOf, type Access } from './access.ts';
import { tenantOf } from './request-context.ts';
import { pluginListRead, pluginRowsJson } from './rest-targets.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
// `/api/users` answers a bare array: without `pagination` up to this many users.
const USER_LIST_LIMITS = { defaultLimit: 100, maxLimit: 1000 };

/** Does the query ask for the users' role (`populate=role`, `populate=*`, `populate[role]…`)? */
function wantsRole(query: Record<string, unknown>): boolean {
  const populate = query.populate;
  if (populate === 'role' || populate === '*') return true;
  if (Array.isArray(populate)) return populate.includes('role');
  return populate !== null && typeof populate === 'object' && Object.hasOwn(populate, 'role');
}

/** The query without a role populate: the users view itself has no links. */
function withoutRolePopulate(query: Record<string, unknown>): Record<string, unknown> {
  const { populate, ...rest } = query;
  if (populate === 'role' || populate === '*') return rest;
  if (Array.isArray(populate)) {
    const others = populate.filter((p) => p !== 'role');
    return others.length ? { ...rest, populate: others } : rest;
  }
  if (populate !== null && typeof populate === 'object') {
    const { role: _role, ...others } = populate as Record<string, unknown>;
    return Object.keys(others).length ? { ...rest, populate: others } : rest;
  }
  return populate === undefined ? rest : { ...rest, populate };
}

export function registerUserRoutes(app: FastifyInstance, platform: Platform, services: Services): void {
  const pool = platform.db.pool;
  const { endUsers } = services;

  const runtimeOf = (request: FastifyRequest) => platform.runtimes.get(tenantOf(request).project);

  /** One user as JSON text, or null. */
  async function userJson(request: FastifyRequest, access: Access, id: string): Promise<string | null> {
    const json = await pluginRowsJson(pool, await runtimeOf(request), access, USERS_UID, [id]);
    return json === '[]' ? null : json.slice(1, -1);
  }

  /** Users (JSON array text) with their `role` added when the query asks for it. */
  async function withRoles(request: FastifyRequest, json: string): Promise<string> {
    if (!wantsRole(request.query as Record<string, unknown>)) return json;
    const users = JSON.parse(json) as Array<{ id: number; role?: unknown }>;
    if (users.length === 0) return json;
    const { project } = tenantOf(request);
    const roles = await rolesOfUsers(pool, { projectId: project.id, schema: project.schemaName }, users.map((u) => u.id));
    for (const user of users) user.role = roles.get(String(user.id)) ?? null;
    return JSON.stringify(users);
  }

  async function sendAuth(request: FastifyRequest, reply: FastifyReply, access: Access, result: AuthResult) {
    const user = await userJson(request, access, result.userId);
    return reply.type(JSON_TYPE).send(result.jwt === undefined ? `{"user":${user}}` : `{"jwt":${JSON.stringify(result.jwt)},"user":${user}}`);
  }

  /** The caller, who must hold `action` on users (`me` only needs to be a user). */
  async function caller(request: FastifyRequest, action?: string): Promise<Access> {
    const access = await resolveAccess(request, tenantOf(request), services);
    if (action && !access.can(USERS_UID, action)) throw new ForbiddenError();
    return access;
  }

  /** Brute-force limit of an auth route, keyed by what names the account (Strapi: 429). */
  const attempts = (route: string, identifierOf: (request: FastifyRequest) => unknown = () => '') => ({
    preHandler: async (request: FastifyRequest) => services.rateLimits.authAttempt(request, tenantOf(request).project.id, route, identifierOf(request)),
  });
  const bodyField = (key: string) => (request: FastifyRequest) => (request.body as Record<string, unknown> | null | undefined)?.[key];

  // Auth routes are open to anyone, as Strapi's public role holds them by default.
  app.post('/api/auth/local/register', attempts('register', bodyField('email')), async (request, reply) => {
    const access = await caller(request);
    const result = await endUsers.register(pool, usersProjectOf(request, tenantOf(request)), request.body);
    return sendAuth(request, reply, access, result);
  });

  app.post('/api/auth/local', attempts('login', bodyField('identifier')), async (request, reply) => {
    const access = await caller(request);
    const result = await endUsers.login(pool, usersProjectOf(request, tenantOf(request)), request.body);
    return sendAuth(request, reply, access, result);
  });

  app.post('/api/auth/forgot-password', attempts('forgot-password', bodyField('email')), async (request, reply) => {
    await caller(request);
    await endUsers.forgotPassword(pool, usersProjectOf(request, tenantOf(request)), request.body);
    return reply.type(JSON_TYPE).send('{"ok":true}');
  });

  app.post('/api/auth/reset-password', attempts('reset-password'), async (request, reply) => {
    const access = await caller(request);
    const result = await endUsers.resetPassword(pool, usersProjectOf(request, tenantOf(request)), request.body);
    return sendAuth(request, reply, access, result);
  });

  app.get('/api/auth/email-confirmation', attempts('email-confirmation'), async (request, reply) => {
    await caller(request);
    const project = usersProjectOf(request, tenantOf(request));
    await endUsers.confirmEmail(pool, project, (request.query as { confirmation?: unknown }).confirmation);
    return reply.redirect(project.settings.emailConfirmationRedirect, 302);
  });

  app.post('/api/auth/send-email-confirmation', attempts('send-email-confirmation', bodyField('email')), async (request, reply) => {
    await caller(request);
    const email = await endUsers.resendConfirmation(pool, usersProjectOf(request, tenantOf(request)), request.body);
    return reply.type(JSON_TYPE).send(JSON.stringify({ email, sent: true }));
  });

  app.post('/api/auth/change-password', attempts('change-password'), async (request, reply) => {
    const access = await caller(request);
    if (!access.user) throw new ForbiddenError();
    const result = await endUsers.changePassword(pool, usersProjectOf(request, tenantOf(request)), access.user.userId, request.body);
    return sendAuth(request, reply, access, result);
  });

  app.get('/api/users/me', async (request, reply) => {
    const access = await caller(request);
    // API tokens have no user (Strapi: 403).
    if (!access.user) throw new ForbiddenError();
    const json = await userJson(request, access, access.user.userId);
    if (json === null) throw new NotFoundError();
    return reply.type(JSON_TYPE).send((await withRoles(request, `[${json}]`)).slice(1, -1));
  });

  // Lists: compiled once per model version, caller permissions and query string.
  const listRead = async (request: FastifyRequest, access: Access) =>
    pluginListRead(request, await runtimeOf(request), access, USERS_UID, withoutRolePopulate(request.query as Record<string, unknown>), USER_LIST_LIMITS);

  app.get('/api/users', async (request, reply) => {
    const access = await caller(request, 'find');
    return reply.type(JSON_TYPE).send(await withRoles(request, (await (await listRead(request, access)).find(pool)).json));
  });

  app.get('/api/users/count', async (request, reply) => {
    const access = await caller(request, 'count');
    const read = await listRead(request, access);
    return reply.type(JSON_TYPE).send(String(await pool.oneFirst(compiledQuery(renderCount(read.plan)))));
  });

  const idOf = (request: FastifyRequest<{ Params: { id: string } }>) => {
    const id = positiveId(request.params.id);
    if (!id) throw new NotFoundError();
    return id;
  };

  app.get<{ Params: { id: string } }>('/api/users/:id', async (request, reply) => {
    const access = await caller(request, 'findOne');
    const json = await userJson(request, access, idOf(request));
    if (json === null) throw new NotFoundError();
    return reply.type(JSON_TYPE).send((await withRoles(request, `[${json}]`)).slice(1, -1));
  });

  app.post('/api/users', async (request, reply) => {
    const access = await caller(request, 'create');
    const id = await endUsers.create(pool, usersProjectOf(request, tenantOf(request)), request.body);
    return reply.status(201).type(JSON_TYPE).send(await userJson(request, access, id));
  });

  app.put<{ Params: { id: string } }>('/api/users/:id', async (request, reply) => {
    const access = await caller(request, 'update');
    const id = idOf(request);
    if (!(await endUsers.update(pool, usersProjectOf(request, tenantOf(request)), id, request.body))) throw new NotFoundError();
    return reply.type(JSON_TYPE).send(await userJson(request, access, id));
  });

  app.delete<{ Params: { id: string } }>('/api/users/:id', async (request, reply) => {
    const access = await caller(request, 'destroy');
    const id = idOf(request);
    const json = await userJson(request, access, id);
    if (json === null || !(await endUsers.remove(pool, usersProjectOf(request, tenantOf(request)), id))) throw new NotFoundError();
    return reply.type(JSON_TYPE).send(json);
  });
}
