// `Server-Timing: plan;dur=…, db;dur=…` on content API answers (`/p/{slug}/…` REST and GraphQL),
// always on: two performance.now() pairs per request, kept on the request.
//  - plan: parse + plan + compile of the query, or its compiled-plan cache lookup (GraphQL: the
//    project's schema/server lookup);
//  - db: running it (REST: the SQL of the read or the write; GraphQL: the operation's execution,
//    resolvers and their SQL);
//  - an answer from the answer cache: both 0 and `cache;desc="hit"` (tenant/answers.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** ms spent planning this content request (-1: not measured). */
    planMs: number;
    /** ms spent running it against the database (-1: not measured). */
    dbMs: number;
  }
}

export function registerServerTiming(app: FastifyInstance): void {
  app.decorateRequest('planMs', -1);
  app.decorateRequest('dbMs', -1);
}

/** Add `ms` since `started` (a performance.now()) to the request's plan time. */
export function addPlanTime(request: FastifyRequest, started: number): void {
  request.planMs = Math.max(request.planMs, 0) + performance.now() - started;
}

export function addDbTime(request: FastifyRequest, started: number): void {
  request.dbMs = Math.max(request.dbMs, 0) + performance.now() - started;
}

const dur = (ms: number) => (ms < 0 ? 0 : Math.round(ms * 100) / 100);

/** The header, when anything was measured. */
export function setServerTiming(request: FastifyRequest, reply: FastifyReply): void {
  if (request.planMs < 0 && request.dbMs < 0) return;
  reply.header('server-timing', `plan;dur=${dur(request.planMs)}, db;dur=${dur(request.dbMs)}`);
}
