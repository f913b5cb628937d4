// What the users-permissions routes share: who the caller is, and a user as the API answers it
// (never with its password or tokens).
import type { FastifyRequest } from 'fastify';
import { ForbiddenError } from '@cms/errors';
import { USERS_UID } from '@cms/query';
import type { Platform } from '../platform.ts';
import type { Access } from './access.ts';
import { accessOf } from './caller.ts';
import { tenantOf } from './request-context.ts';
import { pluginRowsJson } from './rest-targets.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** The caller (caller.ts), who must hold `action` on users (`me` only needs to be a user). */
export function caller(request: FastifyRequest, action?: string): Access {
  const access = accessOf(request);
  if (action && !access.can(USERS_UID, action)) throw new ForbiddenError();
  return access;
}

/** One user as JSON text, as `access` may see it, or null. */
export async function userJson(platform: Platform, request: FastifyRequest, access: Access, id: string): Promise<string | null> {
  const runtime = await platform.runtimes.get(tenantOf(request).project);
  const json = await pluginRowsJson(platform.db.tenantPool, runtime, access, USERS_UID, [id]);
  return json === '[]' ? null : json.slice(1, -1);
}
