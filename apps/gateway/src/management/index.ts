// The management API (`/v1`): accounts, projects, schema, locales, roles, API tokens, usage.
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../platform.ts';
import type { Services } from '../services.ts';

export async function managementPlugin(_app: FastifyInstance, _opts: { platform: Platform; services: Services }): Promise<void> {
  // routes are registered here
}
