// What the tenant plugin attaches to a request: the project it addresses (resolved from
// `/p/{slug}` or its host), whether it is running again on a fresh model, and its caller (on the
// routes that answer one: caller.ts).
import type { FastifyRequest } from 'fastify';
import { NotFoundError } from '@cms/errors';
import type { TenantEntry } from '@cms/tenancy';
import type { HistoryAuthor, WriteOrigin } from '@cms/documents';
import type { Access } from './access.ts';

declare module 'fastify' {
  interface FastifyRequest {
    tenant: TenantEntry | null;
    /** Set while a request runs again after its project's model was found stale. */
    rerunOnFreshModel: boolean;
    /** Sent by the dashboard with a member's content access key: not metered as API usage. */
    fromDashboard: boolean;
    /** Who the credential is (content history's `createdBy`); null for anonymous callers. */
    author: HistoryAuthor | null;
    /** The caller, resolved before the handler of a route that answers one (caller.ts); read it with `accessOf`. */
    access: Access | null;
    /** Why the caller was refused (a 401…): `accessOf` throws it. */
    accessRefusal: unknown;
  }
}

/** Where this request's writes come from (content history), or null when history is off. */
export function writeOriginOf(request: FastifyRequest, api: 'rest' | 'graphql', historyOn: boolean): WriteOrigin | null {
  if (!historyOn) return null;
  return { origin: request.fromDashboard ? 'dashboard' : api, createdBy: request.author };
}

/** The project of this request; every route under `/p/{slug}` has one. */
export function tenantOf(request: FastifyRequest): TenantEntry {
  if (!request.tenant) throw new NotFoundError();
  return request.tenant;
}
