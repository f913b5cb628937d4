// Who is calling a project's content API and what they may do. One function decides for REST,
// (later) GraphQL and upload: `Access.can(uid, action)`.
import type { FastifyRequest } from 'fastify';
import { UnauthorizedError } from '@cms/errors';
import type { AuthenticatedToken } from '@cms/auth';
import type { TenantEntry } from '@cms/tenancy';
import { bearerToken } from '../http/bearer.ts';
import type { Services } from '../services.ts';

export interface Access {
  /** e.g. can('api::post.post', 'find'), can('plugin::upload', 'find') */
  can(uid: string, action: string): boolean;
}

function fromPermissionMap(map: Record<string, string[]> | undefined): Access {
  const granted = new Set<string>();
  for (const [uid, actions] of Object.entries(map ?? {})) for (const a of actions) granted.add(`${uid}#${a}`);
  return { can: (uid, action) => granted.has(`${uid}#${action}`) };
}

const publicAccessCache = new WeakMap<TenantEntry, Access>();

/** The public role of a project; cached per registry entry (dropped with it on invalidation). */
export function publicAccess(tenant: TenantEntry): Access {
  let access = publicAccessCache.get(tenant);
  if (!access) {
    access = fromPermissionMap(tenant.roles.public);
    publicAccessCache.set(tenant, access);
  }
  return access;
}

/** Access granted by an API token type (reference §7.1). */
function tokenAccess(token: AuthenticatedToken): Access {
  switch (token.type) {
    case 'full-access':
      return { can: () => true };
    case 'read-only':
      return { can: (_uid, action) => action === 'find' || action === 'findOne' };
    default:
      return fromPermissionMap(token.permissions);
  }
}

export async function resolveAccess(request: FastifyRequest, tenant: TenantEntry, services: Pick<Services, 'apiTokens'>): Promise<Access> {
  // Another scheme than Bearer leaves the caller anonymous, as Strapi does.
  const presented = bearerToken(request);
  if (presented === null) return publicAccess(tenant);
  const check = await services.apiTokens.check(presented);
  // A token of another project is as unknown here as a made-up one.
  if (check.status === 'valid' && check.token.projectId === tenant.project.id) return tokenAccess(check.token);
  if (check.status === 'expired' && check.projectId === tenant.project.id) throw new UnauthorizedError('Token expired');
  // End-user JWTs (users-permissions) are verified here once that plugin exists.
  throw new UnauthorizedError();
}
