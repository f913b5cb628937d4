// `make start-cluster` / `make stop-cluster` / `make cluster-status`:
//   node --import tsx scripts/cluster/cli.ts start | stop | status
// Settings (environment, all optional): CLUSTER_DIR (.cluster), CLUSTER_DATABASE (cms_cluster),
// CLUSTER_PORTS (1338,1339), CLUSTER_WORKER_HEALTH_PORT (1340), CLUSTER_S3_PORT (4569), CLUSTER_PG_URL
// (postgres://postgres@127.0.0.1:5432/postgres), CLUSTER_REDIS_URL (redis://127.0.0.1:6379),
// LOG_LEVEL (info).
import { resolve } from 'node:path';
import { isAlive } from './processes.ts';
import { readCluster, ROOT, startCluster, stopCluster } from './cluster.ts';

const env = process.env;
const runDir = resolve(ROOT, env.CLUSTER_DIR ?? '.cluster');

async function start(): Promise<void> {
  const ports = (env.CLUSTER_PORTS ?? '1338,1339').split(',').map((p) => Number(p.trim()));
  if (ports.length < 1 || ports.some((p) => !Number.isInteger(p) || p <= 0 || p > 65535)) throw new Error(`CLUSTER_PORTS: ports separated by commas, not "${env.CLUSTER_PORTS}"`);
  const info = await startCluster({
    runDir,
    pgAdminUrl: env.CLUSTER_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    database: env.CLUSTER_DATABASE ?? 'cms_cluster',
    redisUrl: env.CLUSTER_REDIS_URL ?? 'redis://127.0.0.1:6379',
    redisPrefix: `${env.CLUSTER_DATABASE ?? 'cms_cluster'}:`,
    gatewayPorts: ports,
    workerHealthPort: Number(env.CLUSTER_WORKER_HEALTH_PORT ?? 1340),
    s3Port: Number(env.CLUSTER_S3_PORT ?? 4569),
    bucket: 'cms-media',
    env: { LOG_LEVEL: env.LOG_LEVEL ?? 'info' },
  });
  const lines = [
    '',
    ...info.gateways.map((g) => `  ${g.name}: ${g.url}/  (dashboard, /v1, /p/{slug}/api)   pid ${g.pid}, log ${g.log}`),
    `  worker: ${info.worker.healthUrl}/readyz   pid ${info.worker.pid}, log ${info.worker.log}`,
    `  S3 (s3rver): ${info.s3.url}/${info.s3.bucket}   pid ${info.s3.pid}`,
    `  Postgres: ${info.databaseUrl}   Redis: ${info.env.REDIS_URL} (prefix ${info.env.REDIS_PREFIX})`,
    '  Stop with: make stop-cluster',
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function stop(): Promise<void> {
  const stopped = await stopCluster(runDir);
  if (!stopped.length) process.stdout.write(`no cluster running from ${runDir}\n`);
  for (const s of stopped) process.stdout.write(`  ${s.name} (pid ${s.pid}): ${s.outcome}\n`);
}

async function status(): Promise<void> {
  const info = await readCluster(runDir);
  if (!info) {
    process.stdout.write(`no cluster running from ${runDir}\n`);
    return;
  }
  for (const g of info.gateways) process.stdout.write(`  ${g.name} ${g.url} pid ${g.pid}: ${isAlive(g.pid) ? 'running' : 'gone'}\n`);
  process.stdout.write(`  worker ${info.worker.healthUrl} pid ${info.worker.pid}: ${isAlive(info.worker.pid) ? 'running' : 'gone'}\n`);
  process.stdout.write(`  s3 ${info.s3.url} pid ${info.s3.pid}: ${isAlive(info.s3.pid) ? 'running' : 'gone'}\n`);
}

const commands: Record<string, () => Promise<void>> = { start, stop, status };
const command = commands[process.argv[2] ?? ''];
if (!command) {
  process.stderr.write('usage: cli.ts start | stop | status\n');
  process.exit(64);
}
try {
  await command();
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
