// Who is calling a project's content API and what they may do. One function decides for REST,
// (later) GraphQL and upload: `Access.can(uid, action)`.
import type { FastifyRequest } from 'fastify';
import { UnauthorizedError } from '@cms/errors';
import type { TenantEntry } from '@cms/tenancy';

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

/**
 * `Authorization: Bearer <token>` (scheme case-insensitive, exactly two parts); any other
 * scheme is ignored and the caller is anonymous, as Strapi does.
 */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const parts = header.trim().split(/\s+/);
  if (parts.length !== 2 || parts[0]!.toLowerCase() !== 'bearer') return null;
  return parts[1]!;
}

export async function resolveAccess(request: FastifyRequest, tenant: TenantEntry): Promise<Access> {
  const token = bearerToken(request);
  if (token === null) return publicAccess(tenant);
  // API tokens and end-user JWTs are verified here once their services exist; until then any
  // presented credential is unknown, which Strapi answers with 401.
  throw new UnauthorizedError();
}
