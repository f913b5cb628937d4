// One slonik pool per Postgres cluster (never per project).
import type { Config } from '@cms/config';
import type { Logger } from '@cms/telemetry';
import { createPool, type DatabasePool } from 'slonik';
import { startEmbeddedPostgres } from './embedded.ts';

export interface Database {
  pool: DatabasePool;
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

function isoTimestamp(value: string): string {
  // Postgres text form "2026-11-23 06:00:00.123+00" → ISO 8601 UTC with milliseconds.
  return new Date(value.includes('T') ? value : value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).toISOString();
}

const typeParsers = [
  { name: 'int8', parse: (v: string) => { const n = Number(v); return Number.isSafeInteger(n) ? n : v; } },
  { name: 'numeric', parse: (v: string) => Number(v) },
  { name: 'timestamptz', parse: isoTimestamp },
  { name: 'timestamp', parse: (v: string) => isoTimestamp(`${v}+00`) },
  { name: 'date', parse: (v: string) => v },
];

export async function createDatabase(config: Config, logger: Logger): Promise<Database> {
  const embedded = !config.databaseUrl;
  const pg = embedded ? await startEmbeddedPostgres(config.dataDir) : undefined;
  const url = config.databaseUrl ?? pg!.url;
  const pool = await createPool(url, {
    maximumPoolSize: embedded ? 4 : config.dbPoolSize,
    statementTimeout: config.statementTimeoutMs,
    idleTimeout: 30_000,
    connectionTimeout: 10_000,
    captureStackTrace: false,
    typeParsers,
    // We never leave session state behind (only SET LOCAL inside transactions), so skip the
    // default `DISCARD ALL` that would cost a round trip on every release.
    resetConnection: async () => {},
  });
  if (embedded) logger.info({ dataDir: config.dataDir }, 'using embedded Postgres (PGlite)');
  return {
    pool,
    url,
    embedded,
    async close() {
      await pool.end();
      await pg?.stop();
    },
  };
}
