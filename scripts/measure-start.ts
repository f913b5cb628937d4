// How fast a compiled gateway comes up: time from spawning `node dist/gateway.js` to the first
// `/readyz` 200, then the same after `kill -9` (a crashed instance restarted on a migrated
// database, as a supervisor would). Needs `make build`, DATABASE_URL, REDIS_URL and APP_SECRET.
//
//   node --import tsx scripts/measure-start.ts [runs] [dist | dist-no-maps | tsx]
// (`tsx` measures the TypeScript sources run through the tsx loader, as before the compiled build.)
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readFile } from 'node:fs/promises';
import { serverArgs } from './cluster/cluster.ts';
import { freePort, waitForStatus } from './cluster/processes.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface StartTiming {
  /** spawn → first /readyz 200, ms */
  readyMs: number;
  /** CPU time the process used until then (user + system), ms: what the start costs on an idle machine */
  cpuMs: number;
  child: ChildProcess;
}

/** A process's user + system CPU time so far, from /proc (Linux), ms. */
async function cpuTimeMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the line (11 and 12 after the command), in clock ticks (100/s).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const MODES: Record<string, string[]> = {
  dist: serverArgs('gateway'),
  'dist-no-maps': ['dist/gateway.js'],
  tsx: ['--import', 'tsx', 'apps/gateway/src/main.ts'],
};

/** Spawn the gateway on `port` and time it to its first /readyz 200 (polled every 5 ms). */
export async function timeGatewayStart(env: Record<string, string>, port: number, mode = 'dist'): Promise<StartTiming> {
  const args = MODES[mode];
  if (!args) throw new Error(`unknown mode ${mode}: ${Object.keys(MODES).join(', ')}`);
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT, env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: env.LOG_LEVEL ?? 'warn' }, stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitForStatus(`http://127.0.0.1:${port}/readyz`, 200, { timeoutMs: 30_000, intervalMs: 5, child });
  const readyMs = Math.round(performance.now() - started);
  return { readyMs, cpuMs: await cpuTimeMs(child.pid!), child };
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 5);
  const mode = process.argv[3] ?? 'dist';
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'APP_SECRET']) if (!process.env[name]) throw new Error(`${name} is required`);
  const port = await freePort();
  const cold: number[] = [];
  const cpu: number[] = [];
  const restart: number[] = [];
  for (let i = 0; i < runs; i++) {
    const first = await timeGatewayStart({}, port, mode);
    cold.push(first.readyMs);
    cpu.push(first.cpuMs);
    // kill -9, then start again on the same port at once.
    const exited = new Promise((r) => first.child.once('exit', r));
    const killedAt = performance.now();
    first.child.kill('SIGKILL');
    await exited;
    const again = await timeGatewayStart({}, port, mode);
    restart.push(Math.round(performance.now() - killedAt));
    const stopped = new Promise((r) => again.child.once('exit', r));
    again.child.kill('SIGTERM');
    await stopped;
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  process.stdout.write(`spawn → /readyz 200: ${cold.join(', ')} ms (median ${median(cold)})\n`);
  process.stdout.write(`CPU used until then: ${cpu.join(', ')} ms (median ${median(cpu)})\n`);
  process.stdout.write(`kill -9 → /readyz 200 again: ${restart.join(', ')} ms (median ${median(restart)})\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
