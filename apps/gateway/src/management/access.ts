// What each member of a project may do through the management API — decided here only, in one
// hook that runs after the project is loaded, never in the routes:
//
//   viewer: GET and HEAD on the project's routes;
//   editor: everything but the routes declared owner-only (deleting the project, its team) and
//           billing (`/projects/:slug/billing…`, owner-only whatever the route declares);
//   owner:  everything.
//
// A route declares itself owner-only with `config: { access: 'owner' }`, or `'owner-or-self'`
// for a route about one member (`:accountId`) that any member may call about themselves, or
// `'member'` for a change any member may make (a viewer's content access key is read-only). A route
// that names its project in the body (`POST /billing/checkout`) runs this same hook again as a
// preHandler, once it has loaded that project.
import type { FastifyRequest } from 'fastify';
import { ForbiddenError, ValidationError } from '@cms/errors';
import './request-context.ts';

export type ProjectAccess = 'owner' | 'owner-or-self' | 'member';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who among the project's members may call the route (default: by method, see access.ts). */
    access?: ProjectAccess;
    /** The route is about a deleted project (restoring it): `:slug` names one of those instead. */
    deletedProject?: boolean;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD']);
const BILLING_ROUTE = /\/projects\/:slug\/billing(\/|$)/;
/** What an environment takes from its parent: changed there, not on the environment. */
const PARENT_ONLY_ROUTE = /\/projects\/:slug\/(members|invitations|billing|sso)(\/|$)|\/billing\/checkout$/;

export async function authorizeProjectAccess(request: FastifyRequest): Promise<void> {
  const project = request.managedProject;
  if (project?.parentId && !READ_METHODS.has(request.method) && PARENT_ONLY_ROUTE.test(request.routeOptions.url ?? '')) {
    throw new ValidationError(`An environment's team, billing and single sign-on are its parent's: change them on ${project.parent?.slug ?? 'the parent project'}`);
  }
  if (!project || project.role === 'owner') return;
  const access = request.routeOptions.config.access;
  if (access === 'member') return;
  if (access === 'owner-or-self' && (request.params as { accountId?: unknown }).accountId === String(request.accountId)) return;
  if (access || BILLING_ROUTE.test(request.routeOptions.url ?? '')) {
    throw new ForbiddenError(`Only the owners of this project can do this (your role: ${project.role})`);
  }
  if (project.role === 'viewer' && !READ_METHODS.has(request.method)) {
    throw new ForbiddenError('Viewers of this project can only read it');
  }
}
