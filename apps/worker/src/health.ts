// The worker's probes over HTTP (WORKER_HEALTH_PORT, default 8081), for Kubernetes and the image's
// HEALTHCHECK. The worker serves nothing else; node:http keeps this off the gateway's stack.
//   GET /healthz  200 while the process runs, shutdown included (liveness: a worker finishing
//                 its jobs after SIGTERM is not restarted)
//   GET /readyz   200 when Postgres answers and Redis (the queues) answers PING, else 503 with
//                 which one failed; 503 once shutdown began (readiness: a rollout waits for it)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Check = () => Promise<boolean>;

export interface HealthChecks {
  postgres: Check;
  redis: Check;
}

export interface HealthServer {
  readonly port: number;
  /** Shutdown began: /readyz answers 503 from now on (/healthz still 200 while jobs finish). */
  stopping(): void;
  close(): Promise<void>;
}

/** A check that fails instead of hanging past `ms` (a probe has its own timeout, shorter than a TCP one). */
async function within(check: Check, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([check().catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function startHealthServer(checks: HealthChecks, options: { port: number; host: string; checkTimeoutMs?: number }): Promise<HealthServer> {
  const checkTimeoutMs = options.checkTimeoutMs ?? 2_000;
  let shuttingDown = false;
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: Record<string, string>) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, { status: 'method not allowed' });
    if (path === '/healthz') return send(200, { status: 'ok' });
    if (path !== '/readyz') return send(404, { status: 'not found' });
    if (shuttingDown) return send(503, { status: 'stopping' });
    void Promise.all([within(checks.postgres, checkTimeoutMs), within(checks.redis, checkTimeoutMs)]).then(([pg, redis]) => {
      const ready = pg && redis;
      send(ready ? 200 : 503, { status: ready ? 'ok' : 'unavailable', postgres: pg ? 'ok' : 'unreachable', redis: redis ? 'ok' : 'unreachable' });
    });
  });
  // Probes open a connection each: none is kept waiting on a shutdown.
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    stopping() {
      shuttingDown = true;
    },
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
