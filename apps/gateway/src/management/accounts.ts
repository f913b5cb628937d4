// Accounts and their sessions: sign-up and login (a session token in the body for automation and
// in an HttpOnly cookie for the dashboard), logout, the account's sessions, password change.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NotFoundError, UnauthorizedError } from '@cms/errors';
import type { ManagementOptions } from './index.ts';
import { clearSessionCookies, sessionTokenOf, setSessionCookies } from './session-cookies.ts';

const credentials = {
  type: 'object',
  additionalProperties: false,
  required: ['email', 'password'],
  properties: {
    email: { type: 'string', maxLength: 254 },
    password: { type: 'string', maxLength: 1000 },
  },
} as const;

export function registerAccountRoutes(app: FastifyInstance, { services }: ManagementOptions, authenticate: (r: FastifyRequest) => Promise<void>): void {
  const { sessions } = services;

  async function startSession(request: FastifyRequest, reply: Parameters<typeof setSessionCookies>[1], accountId: number): Promise<string> {
    const token = await sessions.create(accountId, request.headers['user-agent']);
    setSessionCookies(request, reply, sessions, token);
    return token;
  }

  app.post<{ Body: { email: string; password: string; name?: string } }>('/auth/signup', {
    schema: { body: { ...credentials, properties: { ...credentials.properties, name: { type: 'string', maxLength: 200 } } } },
  }, async (request, reply) => {
    const account = await services.accounts.signup(request.body);
    return reply.status(201).send({ token: await startSession(request, reply, account.id), account });
  });

  app.post<{ Body: { email: string; password: string } }>('/auth/login', { schema: { body: credentials } }, async (request, reply) => {
    const account = await services.accounts.login(request.body.email, request.body.password);
    return { token: await startSession(request, reply, account.id), account };
  });

  app.get('/auth/me', { onRequest: authenticate }, async (request) => {
    const account = await services.accounts.get(request.accountId);
    if (!account) throw new UnauthorizedError();
    return { account };
  });

  // The dashboard's "who am I": 200 with `account: null` for a visitor, so a signed-out page load
  // is not an error (GET /auth/me answers 401 there).
  app.get('/auth/session', async (request) => {
    const presented = sessionTokenOf(request);
    const session = presented ? await sessions.verify(presented.token) : null;
    return { account: session ? await services.accounts.get(session.accountId) : null };
  });

  app.post('/auth/logout', { onRequest: authenticate }, async (request, reply) => {
    await sessions.revoke(request.accountId, request.sessionId);
    clearSessionCookies(request, reply);
    return reply.status(204).send();
  });

  app.get('/auth/sessions', { onRequest: authenticate }, async (request) => ({
    sessions: (await sessions.list(request.accountId)).map((s) => ({ ...s, current: s.id === request.sessionId })),
  }));

  // "Log out everywhere": every session of the account, this one included.
  app.delete('/auth/sessions', { onRequest: authenticate }, async (request, reply) => {
    await sessions.revokeAll(request.accountId);
    clearSessionCookies(request, reply);
    return reply.status(204).send();
  });

  app.delete<{ Params: { id: string } }>('/auth/sessions/:id', { onRequest: authenticate }, async (request, reply) => {
    const id = Number(request.params.id);
    if (!Number.isSafeInteger(id) || id <= 0 || !(await sessions.revoke(request.accountId, id))) throw new NotFoundError();
    if (id === request.sessionId) clearSessionCookies(request, reply);
    return reply.status(204).send();
  });

  // A new password ends every other session (a stolen one stops working).
  app.put<{ Body: { currentPassword: string; password: string } }>('/auth/password', {
    onRequest: authenticate,
    schema: {
      body: {
        type: 'object', additionalProperties: false, required: ['currentPassword', 'password'],
        properties: { currentPassword: { type: 'string', maxLength: 1000 }, password: { type: 'string', maxLength: 1000 } },
      },
    },
  }, async (request, reply) => {
    await services.accounts.changePassword(request.accountId, request.body.currentPassword, request.body.password);
    await sessions.revokeAll(request.accountId, request.sessionId);
    return reply.status(204).send();
  });
}
