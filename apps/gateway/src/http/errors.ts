// The one place where anything thrown becomes the `{data:null,error:{…}}` envelope.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MethodNotAllowedError, NotFoundError, RateLimitError, clientErrorOf, normalizeError, toEnvelope, type AppError, type RateLimitQuota } from '@cms/errors';

/** `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (the IETF httpapi draft's fields). */
export function setRateLimitHeaders(reply: FastifyReply, quota: RateLimitQuota): void {
  reply.header('ratelimit-limit', String(quota.limit));
  reply.header('ratelimit-remaining', String(quota.remaining));
  reply.header('ratelimit-reset', String(quota.resetSeconds));
}

export function sendError(reply: FastifyReply, err: AppError): FastifyReply {
  if (err instanceof RateLimitError) {
    reply.header('retry-after', String(err.retryAfterSeconds));
    if (err.quota) setRateLimitHeaders(reply, err.quota);
  }
  if (err instanceof MethodNotAllowedError && err.allow.length > 0) reply.header('allow', err.allow.join(', '));
  return reply.status(err.status).type('application/json; charset=utf-8').send(toEnvelope(err));
}

/** `fallback` may answer a request no route matched (the dashboard's page); else the 404 envelope. */
export function registerErrorHandling(app: FastifyInstance, fallback?: (request: FastifyRequest, reply: FastifyReply) => boolean): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const appError = normalizeError(error);
    if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.debug({ err: error }, 'request refused');
    return sendError(reply, appError);
  });
  app.setNotFoundHandler((request, reply) => {
    if (fallback?.(request, reply)) return reply;
    return sendError(reply, new NotFoundError());
  });
}

/**
 * Requests Node's HTTP parser refuses (malformed request line or header, unknown method, headers
 * too large, timeouts) never reach fastify's handlers: answer them on the socket, in the envelope,
 * then close it (the parser cannot find the next request's start).
 */
export function writeClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const appError = clientErrorOf(error);
  const body = JSON.stringify(toEnvelope(appError));
  socket.end(
    `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
