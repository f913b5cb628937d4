// What the management API's hooks attach to a request: the signed-in account and, on routes
// with a `:slug` parameter, that account's project (with its role there).
import type { FastifyRequest } from 'fastify';
import { NotFoundError } from '@cms/errors';
import type { MemberProject } from '@cms/tenancy';
import type { WriteOrigin } from '@cms/documents';

declare module 'fastify' {
  interface FastifyRequest {
    accountId: number;
    /** the session the request authenticated with */
    sessionId: number;
    managedProject: MemberProject | null;
  }
}

/** The project loaded for this request; routes with a `:slug` parameter always have one. */
export function projectOf(request: FastifyRequest): MemberProject {
  if (!request.managedProject) throw new NotFoundError();
  return request.managedProject;
}

/** A member's own change through the management API (an import, a restore), as content history records it. */
export function memberOrigin(request: FastifyRequest, origin: 'import' | 'restore'): WriteOrigin {
  return { origin, createdBy: { type: 'account', id: request.accountId } };
}

/** `scheme://host[:port]` of the request as the gateway sees it (through trusted proxies): the base of the URLs it answers and mails. */
export function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** A project's (or an environment's) content API bases, path-prefix form, as seen from the request's origin. */
export function contentApiUrls(request: FastifyRequest, slug: string): { apiUrl: string; graphqlUrl: string } {
  const origin = requestOrigin(request);
  return { apiUrl: `${origin}/p/${slug}/api`, graphqlUrl: `${origin}/p/${slug}/graphql` };
}
