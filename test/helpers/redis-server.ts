// A redis-server of a test's own on a free port (no persistence): a test may flush or kill it
// without touching the shared test Redis other files use in parallel.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createConnection } from 'node:net';
import { promisify } from 'node:util';
import { freePort } from './process.ts';

export interface OwnRedis {
  url: string;
  /** FLUSHDB: every key gone, as after a restart without persistence. */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

const answers = (port: number) => new Promise<boolean>((resolve) => {
  const socket = createConnection(port, '127.0.0.1');
  socket.once('connect', () => { socket.end(); resolve(true); });
  socket.once('error', () => resolve(false));
});

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  for (let i = 0; !(await answers(port)); i++) {
    if (i > 100 || child.exitCode !== null) throw new Error('redis-server did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = `redis://127.0.0.1:${port}`;
  return {
    url,
    async flush() {
      const { stdout } = await promisify(execFile)('redis-cli', ['-p', String(port), 'FLUSHDB']);
      if (stdout.trim() !== 'OK') throw new Error(`FLUSHDB answered ${stdout}`);
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
