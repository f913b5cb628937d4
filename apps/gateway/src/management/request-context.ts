// What the management API's hooks attach to a request: the signed-in account and, on routes
// with a `:slug` parameter, that account's project.
import type { FastifyRequest } from 'fastify';
import { NotFoundError } from '@cms/errors';
import type { ProjectRecord } from '@cms/tenancy';

declare module 'fastify' {
  interface FastifyRequest {
    accountId: number;
    /** the session the request authenticated with */
    sessionId: number;
    managedProject: ProjectRecord | null;
  }
}

/** The project loaded for this request; routes with a `:slug` parameter always have one. */
export function projectOf(request: FastifyRequest): ProjectRecord {
  if (!request.managedProject) throw new NotFoundError();
  return request.managedProject;
}
