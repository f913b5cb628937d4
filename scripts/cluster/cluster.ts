// A local cluster from the compiled server (dist/): two gateways on their own ports, one worker,
// this machine's Postgres and Redis, and an S3-compatible store (s3rver), each a plain background
// process with a pid file and a log in the run directory. `make start-cluster` / `make
// stop-cluster` drive it through cli.ts; test/integration/cluster.test.ts starts a private one.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { isAlive, recordedPids, startBackground, stopRecorded, waitForLog, waitForStatus, type Background } from './processes.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ClusterOptions {
  /** pid files, logs, the S3 store's objects, the cluster's secret */
  runDir: string;
  /** any database of the Postgres server, to create `database` from */
  pgAdminUrl: string;
  /** created when missing; kept by stop (the cluster's data) */
  database: string;
  redisUrl: string;
  /** keeps this cluster's Redis keys and channels apart from anything else on the same Redis */
  redisPrefix: string;
  /** one gateway per port */
  gatewayPorts: number[];
  /** the worker's /healthz and /readyz (WORKER_HEALTH_PORT) */
  workerHealthPort: number;
  s3Port: number;
  bucket: string;
  /** more environment for every server process (LOG_LEVEL, MEDIA_JOB_LOCK_MS, …) */
  env?: Record<string, string>;
}

export interface ClusterInfo {
  runDir: string;
  gateways: Array<{ name: string; url: string; pid: number; log: string }>;
  worker: { pid: number; log: string; healthUrl: string };
  s3: { url: string; bucket: string; pid: number };
  databaseUrl: string;
  /** the environment every server process of the cluster shares (for one more instance) */
  env: Record<string, string>;
}

const INFO_FILE = 'cluster.json';
// Stop order: front doors first (nothing new is enqueued), then the worker, then storage.
const STOP_ORDER = (name: string) => (name.startsWith('gateway') ? 0 : name === 'worker' ? 1 : 2);

/** The node arguments that run one compiled command (its stack traces read the source maps themselves: @cms/telemetry/stack-traces). */
export function serverArgs(command: 'gateway' | 'worker' | 'migrate'): string[] {
  return [join(ROOT, 'dist', `${command}.js`)];
}

export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(database)) throw new Error(`invalid database name "${database}"`);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
  } finally {
    await client.end();
  }
}

/** The cluster's APP_SECRET: made once and kept in the run directory, so restarts keep sessions and tokens valid. */
async function clusterSecret(runDir: string): Promise<string> {
  const file = join(runDir, 'app-secret');
  const existing = await readFile(file, 'utf8').catch(() => '');
  if (existing.trim()) return existing.trim();
  const secret = randomBytes(24).toString('hex');
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** Run `node dist/migrate.js` to its end (output into migrate.log); throws unless it exits 0. */
async function migrate(runDir: string, env: Record<string, string>): Promise<void> {
  const log = join(runDir, 'migrate.log');
  const fd = openSync(log, 'a');
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, serverArgs('migrate'), { cwd: ROOT, env, stdio: ['ignore', fd, fd] });
      child.once('error', reject);
      child.once('exit', (c) => resolve(c));
    });
    if (code !== 0) throw new Error(`migrations failed (exit ${code}); see ${log}:\n${await readFile(log, 'utf8')}`);
  } finally {
    closeSync(fd);
  }
}

export async function startCluster(options: ClusterOptions): Promise<ClusterInfo> {
  const { runDir } = options;
  await mkdir(runDir, { recursive: true });
  const running = [...(await recordedPids(runDir))].filter(([, pid]) => isAlive(pid));
  if (running.length) throw new Error(`a cluster is already running from ${runDir} (${running.map(([n, p]) => `${n} ${p}`).join(', ')}); stop it first`);
  await ensureDatabase(options.pgAdminUrl, options.database);
  const dbUrl = databaseUrl(options.pgAdminUrl, options.database);
  const s3Url = `http://127.0.0.1:${options.s3Port}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    HOST: '127.0.0.1',
    DATABASE_URL: dbUrl,
    REDIS_URL: options.redisUrl,
    REDIS_PREFIX: options.redisPrefix,
    APP_SECRET: await clusterSecret(runDir),
    DATA_DIR: join(runDir, 'data'),
    S3_BUCKET: options.bucket,
    S3_ENDPOINT: s3Url,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    // The worker processes media jobs and delivers webhooks; gateways only enqueue them.
    MEDIA_WORKER: 'false',
    WEBHOOKS_WORKER: 'false',
    ...options.env,
  };
  const started: Background[] = [];
  try {
    const s3Dir = join(runDir, 's3');
    await mkdir(s3Dir, { recursive: true });
    const s3 = await startBackground(runDir, 's3', process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/cluster/s3-server.ts'), s3Dir, String(options.s3Port), options.bucket], env, ROOT);
    started.push(s3);
    await waitForLog(s3.log, 's3 ready', { child: s3.child });

    await migrate(runDir, env);

    const workerHealthUrl = `http://127.0.0.1:${options.workerHealthPort}`;
    const worker = await startBackground(runDir, 'worker', process.execPath, serverArgs('worker'), { ...env, WORKER_HEALTH_PORT: String(options.workerHealthPort) }, ROOT);
    started.push(worker);
    await waitForStatus(`${workerHealthUrl}/readyz`, 200, { child: worker.child, log: worker.log });

    const gateways = await Promise.all(options.gatewayPorts.map(async (port, i) => {
      const gateway = await startBackground(runDir, `gateway-${i + 1}`, process.execPath, serverArgs('gateway'), { ...env, PORT: String(port) }, ROOT);
      started.push(gateway);
      const url = `http://127.0.0.1:${port}`;
      await waitForStatus(`${url}/readyz`, 200, { child: gateway.child, log: gateway.log });
      return { name: gateway.name, url, pid: gateway.pid, log: gateway.log };
    }));
    const info: ClusterInfo = {
      runDir,
      gateways,
      worker: { pid: worker.pid, log: worker.log, healthUrl: workerHealthUrl },
      s3: { url: s3Url, bucket: options.bucket, pid: s3.pid },
      databaseUrl: dbUrl,
      env,
    };
    await writeFile(join(runDir, INFO_FILE), `${JSON.stringify(info, null, 2)}\n`);
    return info;
  } catch (err) {
    await stopCluster(runDir);
    throw err;
  }
}

/** The running cluster's description, or null. */
export async function readCluster(runDir: string): Promise<ClusterInfo | null> {
  const text = await readFile(join(runDir, INFO_FILE), 'utf8').catch(() => null);
  return text ? (JSON.parse(text) as ClusterInfo) : null;
}

/** SIGTERM every recorded process (gateways, then the worker, then the store) and wait for each. */
export async function stopCluster(runDir: string): Promise<Array<{ name: string; pid: number; outcome: string }>> {
  const pids = [...(await recordedPids(runDir))].sort(([a], [b]) => STOP_ORDER(a) - STOP_ORDER(b));
  const out: Array<{ name: string; pid: number; outcome: string }> = [];
  for (const group of [0, 1, 2]) {
    const members = pids.filter(([name]) => STOP_ORDER(name) === group);
    out.push(...(await Promise.all(members.map(async ([name, pid]) => ({ name, pid, outcome: await stopRecorded(runDir, name, pid) })))));
  }
  await rm(join(runDir, INFO_FILE), { force: true });
  return out;
}
