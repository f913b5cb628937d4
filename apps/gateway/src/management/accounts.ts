import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UnauthorizedError } from '@cms/errors';
import type { ManagementOptions } from './index.ts';

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
  app.post<{ Body: { email: string; password: string; name?: string } }>('/auth/signup', {
    schema: { body: { ...credentials, properties: { ...credentials.properties, name: { type: 'string', maxLength: 200 } } } },
  }, async (request, reply) => {
    const account = await services.accounts.signup(request.body);
    return reply.status(201).send({ token: await services.sessions.sign(account.id), account });
  });

  app.post<{ Body: { email: string; password: string } }>('/auth/login', { schema: { body: credentials } }, async (request) => {
    const account = await services.accounts.login(request.body.email, request.body.password);
    return { token: await services.sessions.sign(account.id), account };
  });

  app.get('/auth/me', { onRequest: authenticate }, async (request) => {
    const account = await services.accounts.get(request.accountId);
    if (!account) throw new UnauthorizedError();
    return { account };
  });
}
