// Each test file gets its own database on the real Postgres, dropped at the end, so files can
// run in parallel without seeing each other's control schema or projects.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createPool, type DatabasePool } from 'slonik';
import { Sessions, type SessionLimits } from '../../packages/db/src/sessions.ts';

export const TEST_PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestDatabase {
  name: string;
  url: string;
  /** A slonik pool on the test database (same settings as the app's). */
  pool: DatabasePool;
  drop(): Promise<void>;
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export function testDatabaseUrl(name: string): string {
  const u = new URL(TEST_PG_ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function createTestDatabase(prefix = 'cms_test'): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = testDatabaseUrl(name);
  const pool = await createPool(url, { maximumPoolSize: 4, resetConnection: async () => {}, captureStackTrace: false });
  return {
    name,
    url,
    pool,
    async drop() {
      await pool.end();
      await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

/**
 * A slonik pool of `size` connections through the gateway's session wrapper (@cms/db sessions.ts:
 * prepared names, recycling, batched transaction statements), outside any request's scope.
 */
export async function createSessionsPool(url: string, size: number, limits: Partial<SessionLimits> = {}): Promise<DatabasePool> {
  const sessions = new Sessions({ abort: () => {} }, url, 10_000,
    { maxAgeMs: 3_600_000, maxUses: 1_000_000, maxPrepared: 100, parallelWorkersPerQuery: 0, ...limits },
    (err) => { throw err; });
  return createPool(url, { maximumPoolSize: size, driverFactory: sessions.driverFactory(), resetConnection: async () => {}, captureStackTrace: false });
}
