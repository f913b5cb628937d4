// Who is calling a project's content API and what they may do. One function decides for REST,
// (later) GraphQL and upload: `Access.can(uid, action)`.
import type { FastifyRequest } from 'fastify';
import { UnauthorizedError } from '@cms/errors';
import type { AuthenticatedToken } from '@cms/auth';
import { UPLOAD_FILE_UID } from '@cms/query';
import type { TenantEntry } from '@cms/tenancy';
import { bearerToken } from '../http/bearer.ts';
import type { Services } from '../services.ts';

export interface Access {
  /** Equal keys grant the same actions (compiled read plans are cached per key). */
  readonly key: string;
  /** e.g. can('api::post.post', 'find'), can('plugin::upload', 'find') */
  can(uid: string, action: string): boolean;
}

let accessSeq = 0;

function fromPermissionMap(map: Record<string, string[]> | undefined, kind: string): Access {
  const granted = new Set<string>();
  for (const [uid, actions] of Object.entries(map ?? {})) for (const a of actions) granted.add(`${uid}#${a}`);
  // Populated media ask about the file type; permissions are granted on the upload plugin.
  return { key: `${kind}#${++accessSeq}`, can: (uid, action) => granted.has(`${uid === UPLOAD_FILE_UID ? 'plugin::upload' : uid}#${action}`) };
}

const publicAccessCache = new WeakMap<TenantEntry, Access>();
const customAccessCache = new WeakMap<object, Access>();
const FULL_ACCESS: Access = { key: 'full-access', can: () => true };
const READ_ONLY: Access = { key: 'read-only', can: (_uid, action) => action === 'find' || action === 'findOne' };

/** The public role of a project; cached per registry entry (dropped with it on invalidation). */
export function publicAccess(tenant: TenantEntry): Access {
  let access = publicAccessCache.get(tenant);
  if (!access) {
    access = fromPermissionMap(tenant.roles.public, 'public');
    publicAccessCache.set(tenant, access);
  }
  return access;
}

/** Access granted by an API token type (reference §7.1). */
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
