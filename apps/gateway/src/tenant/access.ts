// Who is calling a project's content API and what they may do. One function decides for REST,
// GraphQL, upload and users: `Access.can(uid, action)`.
import type { FastifyRequest } from 'fastify';
import { UnauthorizedError } from '@cms/errors';
import { isContentAccessKey, type AuthenticatedToken, type ContentAccessKeys } from '@cms/auth';
import { UPLOAD_FILE_UID, USERS_UID } from '@cms/query';
import type { TenantEntry } from '@cms/tenancy';
import { emailTemplatesOf, looksLikeJwt, usersSettingsOf, type EndUser, type UsersProject } from '@cms/users';
import { bearerToken } from '../http/bearer.ts';
import type { Platform } from '../platform.ts';
// `request.deliveryClass` is declared there (also for programs that load the management routes alone).
import type {} from './answers.ts';

export interface Access {
  /** Equal keys grant the same actions (compiled read plans are cached per key). */
  readonly key: string;
  /** e.g. can('api::post.post', 'find'), can('plugin::upload', 'find') */
  can(uid: string, action: string): boolean;
  /** The end user of a users-permissions JWT (absent for API tokens and anonymous callers). */
  readonly user?: EndUser;
}

// Permissions are granted on the plugins; queries ask about their types.
const PERMISSION_UID: Record<string, string> = { [UPLOAD_FILE_UID]: 'plugin::upload', [USERS_UID]: 'plugin::users-permissions' };

let accessSeq = 0;

function fromPermissionMap(map: Record<string, string[]> | undefined, kind: string): Access {
  const granted = new Set<string>();
  for (const [uid, actions] of Object.entries(map ?? {})) for (const a of actions) granted.add(`${uid}#${a}`);
  return { key: `${kind}#${++accessSeq}`, can: (uid, action) => granted.has(`${PERMISSION_UID[uid] ?? uid}#${action}`) };
}

const roleAccessCache = new WeakMap<TenantEntry, Map<string, Access>>();
const customAccessCache = new WeakMap<object, Access>();
const FULL_ACCESS: Access = { key: 'full-access', can: () => true };
const READ_ONLY: Access = { key: 'read-only', can: (_uid, action) => action === 'find' || action === 'findOne' };
// A viewer's dashboard key reads like a read-only token and may also count (the users list's total)
// and read drafts whatever the project's `draftAccess` (the dashboard shows them to every member).
const VIEWER: Access = { key: 'viewer', can: (_uid, action) => action === 'find' || action === 'findOne' || action === 'count' || action === 'preview' };

/**
 * A role of the project; cached per registry entry (dropped with it on invalidation, so role
 * changes apply at once). A user whose role was deleted acts as `authenticated`.
 */
export function roleAccess(tenant: TenantEntry, type: string): Access {
  let roles = roleAccessCache.get(tenant);
  if (!roles) roleAccessCache.set(tenant, (roles = new Map()));
  const known = Object.hasOwn(tenant.roles, type) ? type : 'authenticated';
  let access = roles.get(known);
  if (!access) roles.set(known, (access = fromPermissionMap(tenant.roles[known], `role:${known}`)));
  return access;
}

export const publicAccess = (tenant: TenantEntry): Access => roleAccess(tenant, 'public');

/** The users-permissions view of a project for this request. */
export function usersProjectOf(request: FastifyRequest, tenant: TenantEntry): UsersProject {
  // Host-routed requests were rewritten to `/p/{slug}/…`; links keep the form the client used.
  const prefix = `/p/${tenant.project.slug}`;
  const pathRouted = request.originalUrl.startsWith(`${prefix}/`);
  return {
    projectId: tenant.project.id,
    schema: tenant.project.schemaName,
    settings: usersSettingsOf(tenant.project.settings),
    emailTemplates: emailTemplatesOf(tenant.project.settings),
    roleTypes: Object.keys(tenant.roles),
    apiBaseUrl: `${request.protocol}://${request.host}${pathRouted ? prefix : ''}`,
  };
}

/** Access granted by an API token type. */
function tokenAccess(token: AuthenticatedToken): Access {
  switch (token.type) {
    case 'full-access':
      return FULL_ACCESS;
    case 'read-only':
      return READ_ONLY;
    default: {
      // The token check is cached briefly, so its permissions object is reused across requests.
      const permissions = token.permissions ?? {};
      let access = customAccessCache.get(permissions);
      if (!access) customAccessCache.set(permissions, (access = fromPermissionMap(permissions, 'custom')));
      return access;
    }
  }
}

/** A dashboard member's content access key (management API `content-access`): only in its own project. */
function contentKeyAccess(request: FastifyRequest, tenant: TenantEntry, keys: ContentAccessKeys, presented: string): Access {
  const grant = keys.verify(presented);
  if (grant === 'expired') throw new UnauthorizedError('Token expired');
  if (!grant || grant.projectId !== tenant.project.id) throw new UnauthorizedError();
  // The dashboard's own calls are the customer at work in it, not traffic of their API.
  request.fromDashboard = true;
  request.author = { type: 'account', id: grant.accountId };
  return grant.access === 'full-access' ? FULL_ACCESS : VIEWER;
}

/** What of the platform resolving a caller takes. */
export type CallerPlatform = Pick<Platform, 'apiTokens' | 'contentAccessKeys' | 'endUsers' | 'pool'>;

/**
 * The caller of a request to `tenant`: at once for an anonymous caller or a dashboard key (no
 * promise on the hot read path), a promise for what needs a lookup (a JWT, an API token). Refusals
 * (401) are thrown, or rejected. Sets `request.deliveryClass` (and `author`, `fromDashboard`).
 */
export function callerAccess(request: FastifyRequest, tenant: TenantEntry, platform: CallerPlatform): Access | Promise<Access> {
  // Another scheme than Bearer leaves the caller anonymous, as Strapi does.
  const presented = bearerToken(request);
  if (presented === null) {
    request.deliveryClass = 'public';
    return publicAccess(tenant);
  }
  // Whatever the credential, its answers are the caller's own (and refused ones are not cached).
  request.deliveryClass = 'private';
  if (isContentAccessKey(presented)) return contentKeyAccess(request, tenant, platform.contentAccessKeys, presented);
  if (looksLikeJwt(presented)) return userAccess(request, tenant, platform, presented);
  return apiTokenAccess(request, tenant, platform, presented);
}

/** `callerAccess` as a promise, whatever the credential (the GraphQL socket's connections and operations). */
export async function resolveAccess(request: FastifyRequest, tenant: TenantEntry, platform: CallerPlatform): Promise<Access> {
  return callerAccess(request, tenant, platform);
}

/** An end user of the project, by a users-permissions JWT. */
async function userAccess(request: FastifyRequest, tenant: TenantEntry, platform: Pick<Platform, 'endUsers' | 'pool'>, presented: string): Promise<Access> {
  // A JWT of another project fails its signature: refused like a made-up one.
  const { project } = tenant;
  const user = await platform.endUsers.authenticate(platform.pool,
    { projectId: project.id, schema: project.schemaName, settings: usersSettingsOf(project.settings) }, presented);
  if (!user) throw new UnauthorizedError();
  request.author = { type: 'user', id: user.userId };
  return { ...roleAccess(tenant, user.role), user };
}

/** An API token of the project. */
async function apiTokenAccess(request: FastifyRequest, tenant: TenantEntry, platform: Pick<Platform, 'apiTokens'>, presented: string): Promise<Access> {
  const check = await platform.apiTokens.check(presented);
  // A token of another project is as unknown here as a made-up one.
  if (check.status === 'valid' && check.token.projectId === tenant.project.id) {
    request.author = { type: 'apiToken', id: check.token.id };
    return tokenAccess(check.token);
  }
  if (check.status === 'expired' && check.projectId === tenant.project.id) throw new UnauthorizedError('Token expired');
  throw new UnauthorizedError();
}
