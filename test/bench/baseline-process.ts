// A hand-written baseline server started as a process of its own (separate from the load
// generator), ready once `readyPath` answers `readyStatus`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../helpers/process.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface BaselineProcess {
  url: string;
  /** its process id (CPU time from /proc) */
  pid: number;
  stop(): void;
}

export async function startBaseline(script: string, readyPath: string, env: Record<string, string>, readyStatus = 200): Promise<BaselineProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port) }, stdio: 'inherit',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    try { if ((await fetch(`${url}${readyPath}`)).status === readyStatus) break; } catch { /* starting */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
  return { url, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}
