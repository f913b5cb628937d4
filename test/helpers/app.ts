// An in-process gateway on its own fresh database and Redis prefix, driven with app.inject().
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '@cms/config';
import { silentLogger } from '@cms/telemetry';
import { buildApp, createPlatform, type App, type Platform } from '@cms/gateway';
import { createTestDatabase, TEST_REDIS_URL, type TestDatabase } from './db.ts';
import { managementConformance, type ManagementConformance } from './management-conformance.ts';

export interface TestApp {
  fastify: FastifyInstance;
  app: App;
  platform: Platform;
  db: TestDatabase;
  env: Record<string, string>;
  inject(opts: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export const TEST_BASE_DOMAIN = 'example.test';

/** Settings shared by every gateway of one test (a second instance on the same data passes `share`). */
export function testEnv(db: TestDatabase, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: db.url,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: `test:${db.name}:`,
    APP_SECRET: randomBytes(24).toString('hex'),
    BASE_DOMAIN: TEST_BASE_DOMAIN,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DB_POOL_SIZE: '5',
    // One spare project schema per test database: creations take it or build their own (both
    // paths run), and a test's database is not filled with ten it never uses.
    SPARE_SCHEMAS: '1',
    // Maintenance rounds (purges, backups) run when a test calls them, with its own clock.
    MAINTENANCE: 'false',
    // Scheduled releases and actions run in the tests that turn the scheduler on (no sweep elsewhere).
    SCHEDULER: 'false',
    // Project ids restart at 1 in every test database, so each test run keeps media apart.
    MEDIA_DIR: join(tmpdir(), `cms-test-media-${db.name}`),
    // A dashboard build of one's own (several builds side by side while developing).
    ...(process.env.DASHBOARD_DIR ? { DASHBOARD_DIR: process.env.DASHBOARD_DIR } : {}),
    ...extra,
  };
}

/**
 * Start a gateway. Pass `share` (another TestApp) to start a second instance on the same
 * database, Redis prefix and secret — the way two front doors of one deployment run.
 * Every `/v1` JSON answer it sends is checked against its schema in `/v1/openapi.json`
 * (management-conformance.ts): a mismatch fails the `inject` that got it, or, over real HTTP, the
 * app's `close`. `conformance: false` for a test that means to break it.
 */
export async function startTestApp(options: { env?: Record<string, string>; share?: TestApp; conformance?: boolean } = {}): Promise<TestApp> {
  const db = options.share?.db ?? (await createTestDatabase());
  const env = options.share ? { ...options.share.env, ...options.env } : testEnv(db, options.env);
  const platform = await createPlatform(loadConfig(env), silentLogger());
  const app = await buildApp(platform);
  // Answers as sent (serialized), whichever way they were asked for; null until the document is read.
  let conformance: ManagementConformance | null = null;
  const drifts: Error[] = [];
  if (options.conformance !== false) {
    app.fastify.addHook('onSend', async (request, reply, payload) => {
      if (conformance && typeof payload === 'string' && request.url.startsWith('/v1/')) {
        try {
          conformance.check(request.method, request.url, { statusCode: reply.statusCode, body: payload, headers: { 'content-type': reply.getHeader('content-type') } });
        } catch (err) {
          drifts.push(err as Error);
        }
      }
      return payload;
    });
  }
  await app.fastify.ready();
  if (options.conformance !== false) conformance = await managementConformance(app.fastify);
  const owned = !options.share;
  return {
    fastify: app.fastify,
    app,
    platform,
    db,
    env,
    async inject(opts) {
      const res = await app.fastify.inject(opts);
      if (drifts.length > 0) throw drifts.splice(0)[0];
      return res;
    },
    async close() {
      await app.fastify.close();
      await platform.close();
      if (owned) {
        await db.drop();
        await rm(env.MEDIA_DIR!, { recursive: true, force: true });
      }
      if (drifts.length > 0) throw drifts[0];
    },
  };
}
