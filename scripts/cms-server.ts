// The container image's entry point (`node dist/cms-server.js <command>`): one image, its
// commands compiled into dist/ next to this file.
//   gateway      the HTTP server (default)
//   worker       media jobs and webhook deliveries
//   migrate      apply the database migrations, then exit
//   move-project the operator's cluster commands: `move-project <slug> <cluster>`, `--clusters`, `--set …`
//   healthcheck  the image's HEALTHCHECK: GET /healthz of the container's gateway (PORT) or worker
//                (WORKER_HEALTH_PORT); a migration that fails exits, so its process running is its health
// First: stack traces of the compiled server through its source maps, read on first use.
import '@cms/telemetry/stack-traces';
import { readFileSync } from 'node:fs';
import { workerHealthPortOf } from '@cms/config';

const COMMANDS: Record<string, string> = {
  gateway: './gateway.js',
  worker: './worker.js',
  migrate: './migrate.js',
  'move-project': './move-project.js',
};

/** The command the container's main process (pid 1) runs. */
function containerCommand(): string {
  try {
    const args = readFileSync('/proc/1/cmdline', 'utf8').split('\0').filter(Boolean);
    const self = args.findIndex((a) => a.endsWith('cms-server.js'));
    return self >= 0 ? (args[self + 1] ?? 'gateway') : 'gateway';
  } catch {
    return 'gateway';
  }
}

/** The port whose /healthz tells the health of the container's command; null: none to ask. */
function healthPort(command: string): number | null {
  if (command === 'gateway') return Number(process.env.PORT ?? 1337);
  if (command === 'worker') return workerHealthPortOf(process.env);
  return null;
}

/** `healthcheck [command]`: the command is found from pid 1 unless given (tests run no container). */
async function healthcheck(command = containerCommand()): Promise<number> {
  const port = healthPort(command);
  if (port === null) return 0;
  try {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2_500) });
    return res.status === 200 ? 0 : 1;
  } catch {
    return 1;
  }
}

const command = process.argv[2] ?? 'gateway';
if (command === 'healthcheck') {
  process.exit(await healthcheck(process.argv[3]));
}
const entry = COMMANDS[command];
if (!entry) {
  process.stderr.write(`unknown command "${command}"; usage: cms-server gateway | worker | migrate | move-project | healthcheck\n`);
  process.exit(64);
}
// The command's own arguments follow it, as if it had been run alone.
process.argv.splice(2, 1);
await import(entry);
