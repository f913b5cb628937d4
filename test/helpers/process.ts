// Real gateway processes (`apps/gateway/src/main.ts`), for tests that need separate instances
// or the embedded mode exactly as `make start` runs it.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '../../scripts/build.ts';
import { freePort } from '../../scripts/cluster/processes.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface GatewayProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

// The local cluster's (scripts/cluster): a port nothing listens on right now.
export { freePort };

export interface SpawnOptions {
  timeoutMs?: number;
  /** run dist/gateway.js, as production does (benchmarks; the caller ensures it is built) */
  compiled?: boolean;
  /** extra node flags (a CPU profile) */
  nodeArgs?: string[];
}

/** Start a gateway with exactly `env` (plus PATH/HOME) and wait until /healthz answers. */
export async function spawnGateway(env: Record<string, string>, options: SpawnOptions = {}): Promise<GatewayProcess> {
  const { timeoutMs = 60_000, compiled = false, nodeArgs = [] } = options;
  const port = await freePort();
  const entry = compiled ? ['dist/gateway.js'] : ['--import', 'tsx', 'apps/gateway/src/main.ts'];
  const child = spawn(process.execPath, [...nodeArgs, ...entry], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}:\n${out}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`gateway did not start within ${timeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    child,
    output: () => out,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** fetch + JSON for tests. */
export async function call(base: string, method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** A gateway on dist/gateway.js, built first unless fresh: what production runs (for benchmarks). */
export async function spawnCompiledGateway(env: Record<string, string>, options: Omit<SpawnOptions, 'compiled'> = {}): Promise<GatewayProcess> {
  await ensureBuilt();
  return spawnGateway(env, { ...options, compiled: true });
}
