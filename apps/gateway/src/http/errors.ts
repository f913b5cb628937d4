// The one place where anything thrown becomes the `{data:null,error:{…}}` envelope, and where
// every error response is logged with its stable `code`.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MethodNotAllowedError, NotFoundError, ProjectBusyError, RateLimitError, clientErrorOf, normalizeError, toEnvelope, type AppError, type RateLimitQuota } from '@cms/errors';
import { drainUnreadBody, type BodyDrain } from './unread-body.ts';

/** `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (the IETF httpapi draft's fields). */
export function setRateLimitHeaders(reply: FastifyReply, quota: RateLimitQuota): void {
  reply.header('ratelimit-limit', String(quota.limit));
  reply.header('ratelimit-remaining', String(quota.remaining));
  reply.header('ratelimit-reset', String(quota.resetSeconds));
}

/**
 * The `code` an error response is logged with: fastify's own (`FST_…`, more precise than the class
 * it is mapped to) when fastify or one of its plugins raised it, else the error class's (`CMS_…`).
 */
export function logCodeOf(err: AppError, thrown: unknown = err): string {
  const code = (thrown as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && code.startsWith('FST_') ? code : err.code;
}

/**
 * Answer with `err` in the envelope; `thrown` is what was raised, when `err` was mapped from it.
 * A body still arriving is read and discarded first or alongside (see unread-body.ts).
 */
export function sendError(reply: FastifyReply, err: AppError, thrown: unknown = err): void {
  // The request's logger: it carries the projectId the tenant hook binds (reply.log does not).
  const log = reply.request.log;
  const code = logCodeOf(err, thrown);
  // A project over its share of the pool is refused like a rate limit, not failed.
  if (err.status >= 500 && !(err instanceof ProjectBusyError)) log.error({ err: thrown, code }, 'request failed');
  else log.debug({ err: thrown, code }, 'request refused');
  if (err instanceof RateLimitError) {
    reply.header('retry-after', String(err.retryAfterSeconds));
    if (err.quota) setRateLimitHeaders(reply, err.quota);
  }
  if (err instanceof ProjectBusyError) reply.header('retry-after', String(err.retryAfterSeconds));
  if (err instanceof MethodNotAllowedError && err.allow.length > 0) reply.header('allow', err.allow.join(', '));
  const answer = () => void reply.status(err.status).type('application/json; charset=utf-8').send(toEnvelope(err));
  const drained = drainUnreadBody(reply, reply.server.bodyDrain);
  if (drained) void drained.then(answer);
  else answer();
}

/**
 * The error and not-found handlers of `app` and its plugins; `fallback` may answer a request no
 * route matched (the dashboard's page), else the 404 envelope.
 */
export function registerErrorHandling(app: FastifyInstance, bodyDrain: BodyDrain, fallback?: (request: FastifyRequest, reply: FastifyReply) => boolean): void {
  app.decorate('bodyDrain', bodyDrain);
  // Nothing returned: the answer may be sent later (sendError).
  app.setErrorHandler((error: unknown, _request: FastifyRequest, reply: FastifyReply) => {
    sendError(reply, normalizeError(error), error);
  });
  app.setNotFoundHandler((request, reply) => {
    if (!fallback?.(request, reply)) sendError(reply, new NotFoundError());
  });
}

/**
 * Requests Node's HTTP parser refuses (malformed request line or header, unknown method, headers
 * too large, timeouts) never reach fastify's handlers: answer them on the socket, in the envelope,
 * then close it (the parser cannot find the next request's start).
 */
export function writeClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const appError = clientErrorOf(error);
  this.log.debug({ err: error, code: appError.code }, 'request refused');
  const body = JSON.stringify(toEnvelope(appError));
  socket.end(
    `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
