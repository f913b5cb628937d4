// `GET /metrics`: this process's metrics in Prometheus text, for `Authorization: Bearer
// $METRICS_TOKEN` only. Without METRICS_TOKEN it answers 404; a missing or wrong token, 401.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { NotFoundError, UnauthorizedError } from '@cms/errors';
import { prometheusText } from '@cms/telemetry';
import { bearerToken } from './bearer.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

export function registerMetricsRoute(app: FastifyInstance, token: string | undefined): void {
  const expected = token === undefined ? null : digest(token);
  // Not traced itself (scrapes would drown the traces). Always routed, so that without a token it
  // is a plain 404 (not the dashboard's page fallback).
  app.get('/metrics', { config: { otel: false } }, async (request, reply) => {
    if (expected === null) throw new NotFoundError();
    const given = bearerToken(request);
    if (given === null || !timingSafeEqual(digest(given), expected)) throw new UnauthorizedError('Missing or invalid metrics token');
    const text = await prometheusText();
    // The token is set but this process has no Prometheus reader (an in-process app without the SDK).
    if (text === null) throw new NotFoundError();
    return reply.type('text/plain; version=0.0.4; charset=utf-8').header('cache-control', 'no-store').send(text);
  });
}
