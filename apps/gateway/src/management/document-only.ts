// The OpenAPI document of `/v1` without a database, Redis or network: the management plugin
// registered on a bare fastify instance (the same registrations the gateway makes, so the same
// document it serves), with a platform that only the registrations see. `make client` writes the
// committed client from it (scripts/generate-client.ts); a test checks it against a real gateway's.
import Fastify from 'fastify';
import { loadConfig } from '@cms/config';
import { silentLogger } from '@cms/telemetry';
import { managementPlugin } from './index.ts';
import type { Platform } from '../platform.ts';

/**
 * A platform whose config and logger are real and whose every other member is inert: reading one
 * gives another inert value (registrations keep references: pools, counters), calling one fails
 * (nothing may run a query or a job while routes are only being registered).
 */
function registrationOnlyPlatform(): Platform {
  const inert = (path: string): unknown => new Proxy(function unusable() {}, {
    // Not a thenable: `await` on one must not call `then`.
    get: (_target, key) => (key === 'then' || typeof key === 'symbol' ? undefined : inert(`${path}.${key}`)),
    apply: () => { throw new Error(`${path}() was called while registering the management routes for their document only`); },
    construct: () => { throw new Error(`new ${path}() was called while registering the management routes for their document only`); },
  });
  // A secret given: loadConfig writes no file; no DATABASE_URL: nothing to connect to anyway.
  const known: Partial<Platform> = { config: loadConfig({ APP_SECRET: 'document-only, never used to sign' }), logger: silentLogger() };
  return new Proxy(known, {
    get: (target, key) => (typeof key === 'string' && !(key in target) ? inert(`platform.${key}`) : Reflect.get(target, key)),
  }) as Platform;
}

/** `GET /v1/openapi.json` as the gateway answers it, parsed. */
export async function managementDocument(): Promise<Record<string, unknown>> {
  const app = Fastify({ logger: false });
  try {
    await app.register(managementPlugin, { prefix: '/v1', platform: registrationOnlyPlatform() });
    const res = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
    if (res.statusCode !== 200) throw new Error(`GET /v1/openapi.json answered ${res.statusCode}: ${res.body.slice(0, 500)}`);
    return JSON.parse(res.body) as Record<string, unknown>;
  } finally {
    await app.close();
  }
}
