// `populate=role` on the users API: the users view itself has no links, so the list is read
// without it and each user's role added afterwards (@cms/users `rolesOfUsers`).
import type { FastifyRequest } from 'fastify';
import type { Db } from '@cms/db';
import { rolesOfUsers } from '@cms/users';
import { tenantOf } from './request-context.ts';

/** Does the query ask for the users' role (`populate=role`, `populate=*`, `populate[role]…`)? */
function wantsRole(query: Record<string, unknown>): boolean {
  const populate = query.populate;
  if (populate === 'role' || populate === '*') return true;
  if (Array.isArray(populate)) return populate.includes('role');
  return populate !== null && typeof populate === 'object' && Object.hasOwn(populate, 'role');
}

/** The query without a role populate. */
export function withoutRolePopulate(query: Record<string, unknown>): Record<string, unknown> {
  const { populate, ...rest } = query;
  if (populate === 'role' || populate === '*') return rest;
  if (Array.isArray(populate)) {
    const others = populate.filter((p) => p !== 'role');
    return others.length ? { ...rest, populate: others } : rest;
  }
  if (populate !== null && typeof populate === 'object') {
    const { role: _role, ...others } = populate as Record<string, unknown>;
    return Object.keys(others).length ? { ...rest, populate: others } : rest;
  }
  return populate === undefined ? rest : { ...rest, populate };
}

/** Users (JSON array text) with their `role` added when the query asks for it. */
export async function withRoles(db: Db, request: FastifyRequest, json: string): Promise<string> {
  if (!wantsRole(request.query as Record<string, unknown>)) return json;
  const users = JSON.parse(json) as Array<{ id: number; role?: unknown }>;
  if (users.length === 0) return json;
  const { project } = tenantOf(request);
  const roles = await rolesOfUsers(db, { projectId: project.id, schema: project.schemaName }, users.map((u) => u.id));
  for (const user of users) user.role = roles.get(String(user.id)) ?? null;
  return JSON.stringify(users);
}
