// The users-permissions plugin's auth routes: `/api/auth/local/register`, `/api/auth/local`,
// password and email-confirmation flows. Open to anyone, as Strapi's public role holds them by
// default; each is limited against brute force.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError } from '@cms/errors';
import type { AuthResult } from '@cms/users';
import type { Platform } from '../platform.ts';
import { usersProjectOf, type Access } from './access.ts';
import { callerHook } from './caller.ts';
import type { TenantOptions } from './options.ts';
import { tenantOf } from './request-context.ts';
import { caller, JSON_TYPE, userJson } from './user-context.ts';

const bodyField = (key: string) => (request: FastifyRequest) => (request.body as Record<string, unknown> | null | undefined)?.[key];

/**
 * Brute-force limit of an auth route, keyed by what names the account (Strapi: 429), then its
 * caller (caller.ts): a credential is checked, and refused, only within the limit.
 */
const attempts = (platform: Platform, route: string, identifierOf: (request: FastifyRequest) => unknown = () => '') => ({
  preHandler: [
    async (request: FastifyRequest) => platform.rateLimits.authAttempt(request, tenantOf(request).project.id, route, identifierOf(request)),
    callerHook(platform),
  ],
});

/** `{jwt, user}`, or `{user}` when the result carries no token. */
async function sendAuth(platform: Platform, request: FastifyRequest, reply: FastifyReply, access: Access, result: AuthResult) {
  const user = await userJson(platform, request, access, result.userId);
  return reply.type(JSON_TYPE).send(result.jwt === undefined ? `{"user":${user}}` : `{"jwt":${JSON.stringify(result.jwt)},"user":${user}}`);
}

export async function userAuthRoutes(app: FastifyInstance, { platform }: TenantOptions): Promise<void> {
  const pool = platform.db.tenantPool;
  const { endUsers } = platform;
  const project = (request: FastifyRequest) => usersProjectOf(request, tenantOf(request));

  app.post('/api/auth/local/register', attempts(platform, 'register', bodyField('email')), async (request, reply) => {
    const access = caller(request);
    return sendAuth(platform, request, reply, access, await endUsers.register(pool, project(request), request.body));
  });

  app.post('/api/auth/local', attempts(platform, 'login', bodyField('identifier')), async (request, reply) => {
    const access = caller(request);
    return sendAuth(platform, request, reply, access, await endUsers.login(pool, project(request), request.body));
  });

  app.post('/api/auth/forgot-password', attempts(platform, 'forgot-password', bodyField('email')), async (request, reply) => {
    caller(request);
    await endUsers.forgotPassword(pool, project(request), request.body);
    return reply.type(JSON_TYPE).send('{"ok":true}');
  });

  app.post('/api/auth/reset-password', attempts(platform, 'reset-password'), async (request, reply) => {
    const access = caller(request);
    return sendAuth(platform, request, reply, access, await endUsers.resetPassword(pool, project(request), request.body));
  });

  app.get('/api/auth/email-confirmation', attempts(platform, 'email-confirmation'), async (request, reply) => {
    caller(request);
    const users = project(request);
    await endUsers.confirmEmail(pool, users, (request.query as { confirmation?: unknown }).confirmation);
    return reply.redirect(users.settings.emailConfirmationRedirect, 302);
  });

  app.post('/api/auth/send-email-confirmation', attempts(platform, 'send-email-confirmation', bodyField('email')), async (request, reply) => {
    caller(request);
    const email = await endUsers.resendConfirmation(pool, project(request), request.body);
    return reply.type(JSON_TYPE).send(JSON.stringify({ email, sent: true }));
  });

  app.post('/api/auth/change-password', attempts(platform, 'change-password'), async (request, reply) => {
    const access = caller(request);
    if (!access.user) throw new ForbiddenError();
    return sendAuth(platform, request, reply, access, await endUsers.changePassword(pool, project(request), access.user.userId, request.body));
  });
}
