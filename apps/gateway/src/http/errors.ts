// The one place where anything thrown becomes the `{data:null,error:{…}}` envelope.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MethodNotAllowedError, NotFoundError, RateLimitError, normalizeError, toEnvelope, type AppError } from '@cms/errors';

export function sendError(reply: FastifyReply, err: AppError): FastifyReply {
  if (err instanceof RateLimitError) reply.header('retry-after', String(err.retryAfterSeconds));
  if (err instanceof MethodNotAllowedError && err.allow.length > 0) reply.header('allow', err.allow.join(', '));
  return reply.status(err.status).type('application/json; charset=utf-8').send(toEnvelope(err));
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const appError = normalizeError(error);
    if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.debug({ err: error }, 'request refused');
    return sendError(reply, appError);
  });
  app.setNotFoundHandler((_request, reply) => sendError(reply, new NotFoundError()));
}
