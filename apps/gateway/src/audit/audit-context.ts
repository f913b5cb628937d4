// Who made a change and from where, as the audit log records it: the signed-in account of a
// management request, else the content API credential (API token, end user's JWT, a member's
// dashboard key), else `system` (the scheduler, Stripe's webhook).
import type { FastifyRequest } from 'fastify';
import { auditSource, type AuditActor, type AuditSource } from '@cms/audit';
import '../tenant/request-context.ts';
import '../management/request-context.ts';

export interface AuditContext extends AuditSource {
  actor: AuditActor;
}

/** Read when the entry is written (the credential is checked after the write's store is made). */
export type AuditWho = () => AuditContext;

export const SYSTEM_AUDIT: AuditWho = () => ({ actor: { type: 'system' }, ip: null, userAgent: null });

/** The actor of a request's changes. An anonymous caller (the public role) is an end user without id. */
export function actorOf(request: FastifyRequest): AuditActor {
  if (request.accountId) return { type: 'account', id: request.accountId };
  const author = request.author;
  if (author?.type === 'account') return { type: 'account', id: author.id };
  if (author?.type === 'apiToken') return { type: 'api-token', id: author.id };
  if (author?.type === 'user') return { type: 'end-user', id: author.id };
  return { type: 'end-user', id: '' };
}

export function auditContextOf(request: FastifyRequest): AuditContext {
  return { actor: actorOf(request), ...auditSource(request) };
}

/** The request's audit context, read when an entry is written. */
export const auditWhoOf = (request: FastifyRequest): AuditWho => () => auditContextOf(request);
