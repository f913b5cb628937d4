// One slonik pool per Postgres cluster (never per project): DATABASE_URL's (`main`, the control
// plane's) and one per DATABASE_URLS entry. Project API requests' scopes are shared by all: a
// request's statements count against its project's share whichever cluster the project is on.
import { CONTROL_CLUSTER, type Config } from '@cms/config';
import { ServiceUnavailableError } from '@cms/errors';
import { telemetryEnabled, type Logger } from '@cms/telemetry';
import { createPool, type DatabasePool } from 'slonik';
import { startEmbeddedPostgres } from './embedded.ts';
import { FairShare } from './fair-share.ts';
import { DbScope, runInScope, type ScopeOwner } from './request-scope.ts';
import { routingPool } from './routing-pool.ts';
import { scopedPool } from './scoped-pool.ts';
import { Sessions } from './sessions.ts';
import { observePool, requestStatsInterceptor } from './telemetry.ts';

export interface Database {
  /** The control plane's pool (cluster `main`); statements made in a request's scope go through its project's share. */
  pool: DatabasePool;
  url: string;
  /** Every cluster's name, `main` first. */
  clusters: readonly string[];
  /** The pool of cluster `name` (503 for a cluster this process has no URL for). */
  poolOf(name: string): DatabasePool;
  /** The connection URL of cluster `name`. */
  urlOf(name: string): string;
  /**
   * The pool of the project a request serves: its statements go to the cluster its scope names
   * (the control plane's outside a request). `pool` itself when there is one cluster.
   */
  tenantPool: DatabasePool;
  embedded: boolean;
  /** Scopes of project API requests: the project's share of the pool, its timeout, cancellation. */
  scopes: RequestScopes;
  close(): Promise<void>;
}

/** Project API requests' side of the pool (see request-scope.ts, fair-share.ts, sessions.ts). */
export class RequestScopes implements ScopeOwner {
  /** Each cluster pool's sessions, once it exists (cancellation needs them; none in embedded mode). */
  readonly sessions: Sessions[] = [];

  constructor(readonly fair: FairShare) {}

  /** The scope of one request of project `projectId`, whose statements may each run `statementTimeoutMs`. */
  create(projectId: number, statementTimeoutMs: number, cluster?: string): DbScope {
    return new DbScope(this, this.fair.project(projectId), statementTimeoutMs, cluster);
  }

  /** Run `fn` (the rest of the request) in `scope`. */
  run(scope: DbScope, fn: () => void): void {
    runInScope(scope, fn);
  }

  /** Called once by `scope.abort()`: cancel its running statements, refuse its waiting ones. */
  abort(scope: DbScope): void {
    for (const sessions of this.sessions) sessions.cancel(scope);
    this.fair.abandon(scope);
  }
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

interface ClusterPool {
  pool: DatabasePool;
  url: string;
  close(): Promise<void>;
}

async function createClusterPool(config: Config, logger: Logger, url: string, poolSize: number, embedded: boolean, fair: FairShare, scopes: RequestScopes): Promise<ClusterPool> {
  // PGlite runs one statement at a time and has no signals: no per-plan timeouts nor cancels there.
  const limits = { maxAgeMs: config.dbConnectionMaxAgeMs, maxUses: config.dbConnectionMaxUses, maxPrepared: config.dbPreparedPerConnection, parallelWorkersPerQuery: config.dbParallelWorkersPerQuery };
  const sessions = embedded ? null : new Sessions(scopes, url, config.statementTimeoutMs, limits, (err) => logger.warn({ err }, 'could not cancel a statement'));
  if (sessions) scopes.sessions.push(sessions);
  const inner = await createPool(url, {
    maximumPoolSize: poolSize,
    statementTimeout: config.statementTimeoutMs,
    ...(sessions ? { driverFactory: sessions.driverFactory() } : {}),
    idleTimeout: 30_000,
    connectionTimeout: 10_000,
    captureStackTrace: false,
    typeParsers,
    // The only session state left behind is `statement_timeout`, which sessions.ts tracks per
    // connection; skip the default `DISCARD ALL` that would cost a round trip on every release.
    resetConnection: async () => {},
    // Per-request SQL statistics, with telemetry on only (no interceptor otherwise).
    interceptors: telemetryEnabled() ? [requestStatsInterceptor] : [],
    // With several clusters, a change spans a transaction on the control plane and one on the
    // project's cluster (@cms/tenancy projectTransaction): statements of one run inside the other.
    ...(Object.keys(config.databaseClusters).length > 0 ? { dangerouslyAllowForeignConnections: true } : {}),
  });
  if (telemetryEnabled()) observePool(inner);
  return {
    pool: scopedPool(inner, fair, scopes, sessions),
    url,
    async close() {
      await inner.end();
      await sessions?.close();
    },
  };
}

export async function createDatabase(config: Config, logger: Logger): Promise<Database> {
  const embedded = !config.databaseUrl;
  const pg = embedded ? await startEmbeddedPostgres(config.dataDir) : undefined;
  const url = config.databaseUrl ?? pg!.url;
  const poolSize = embedded ? 4 : config.dbPoolSize;
  // Every cluster's pool has the same size, so one share (a fraction of a pool) fits them all.
  const fair = new FairShare(Math.max(1, Math.floor((poolSize * config.dbShare.projectPercent) / 100)), config.dbShare.queueTimeoutMs);
  const scopes = new RequestScopes(fair);
  const clusters = new Map<string, ClusterPool>();
  try {
    clusters.set(CONTROL_CLUSTER, await createClusterPool(config, logger, url, poolSize, embedded, fair, scopes));
    for (const [name, clusterUrl] of Object.entries(config.databaseClusters)) {
      clusters.set(name, await createClusterPool(config, logger, clusterUrl, poolSize, false, fair, scopes));
    }
  } catch (err) {
    for (const c of clusters.values()) await c.close().catch(() => {});
    fair.close();
    await pg?.stop();
    throw err;
  }
  if (embedded) logger.info({ dataDir: config.dataDir }, 'using embedded Postgres (PGlite)');
  const clusterOf = (name: string): ClusterPool => {
    const found = clusters.get(name);
    if (!found) throw new ServiceUnavailableError(`This project's database cluster "${name}" is not configured on this instance (DATABASE_URLS)`);
    return found;
  };
  const control = clusters.get(CONTROL_CLUSTER)!.pool;
  return {
    pool: control,
    tenantPool: clusters.size === 1 ? control : routingPool(control, (name) => clusterOf(name).pool),
    url,
    embedded,
    scopes,
    clusters: [...clusters.keys()],
    poolOf: (name) => clusterOf(name).pool,
    urlOf: (name) => clusterOf(name).url,
    async close() {
      fair.close();
      for (const c of clusters.values()) await c.close();
      await pg?.stop();
    },
  };
}
