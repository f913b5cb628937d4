// Plain background processes for the local cluster: started detached with a pid file and a log
// file each in the run directory, so they outlive the command that started them and a later
// `stop` finds them again.
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';

export interface Background {
  name: string;
  pid: number;
  log: string;
  child: ChildProcess;
}

/** A port nothing listens on right now (the kernel's pick). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

/** Start `command args` detached, output appended to `runDir/name.log`, pid in `runDir/name.pid`. */
export async function startBackground(runDir: string, name: string, command: string, args: string[], env: Record<string, string>, cwd: string): Promise<Background> {
  const log = join(runDir, `${name}.log`);
  const fd = openSync(log, 'a');
  try {
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', fd, fd] });
    if (child.pid === undefined) throw new Error(`${name} could not be started (${command})`);
    child.unref();
    await writeFile(join(runDir, `${name}.pid`), `${child.pid}\n`);
    return { name, pid: child.pid, log, child };
  } finally {
    closeSync(fd);
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Wait until `pid` is gone; false after `timeoutMs`. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

/** The processes recorded in `runDir` (name → pid). */
export async function recordedPids(runDir: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const files = await readdir(runDir).catch(() => [] as string[]);
  for (const file of files.filter((f) => f.endsWith('.pid'))) {
    const pid = Number((await readFile(join(runDir, file), 'utf8')).trim());
    if (Number.isInteger(pid) && pid > 0) out.set(file.slice(0, -'.pid'.length), pid);
  }
  return out;
}

/**
 * SIGTERM one recorded process and wait for it (graceful shutdown), SIGKILL after `graceMs`;
 * its pid file is removed. Returns how it ended.
 */
export async function stopRecorded(runDir: string, name: string, pid: number, graceMs = 15_000): Promise<'stopped' | 'killed' | 'not running'> {
  let outcome: 'stopped' | 'killed' | 'not running' = 'not running';
  if (isAlive(pid)) {
    process.kill(pid, 'SIGTERM');
    outcome = 'stopped';
    if (!(await waitForExit(pid, graceMs))) {
      process.kill(pid, 'SIGKILL');
      await waitForExit(pid, 5_000);
      outcome = 'killed';
    }
  }
  await rm(join(runDir, `${name}.pid`), { force: true });
  return outcome;
}

export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Give up at once when this child exits (its log says why). */
  child?: ChildProcess;
  /** Where to read why, for the error. */
  log?: string;
}

/** Poll `url` until it answers `status`. */
export async function waitForStatus(url: string, status: number, options: WaitOptions = {}): Promise<void> {
  const { timeoutMs = 30_000, intervalMs = 50 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await exitedEarly(url, options);
    try {
      const res = await fetch(url);
      await res.body?.cancel();
      if (res.status === status) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer ${status} within ${timeoutMs} ms${await tail(options.log)}`);
    await sleep(intervalMs);
  }
}

/** Poll a log file until it holds `text`. */
export async function waitForLog(log: string, text: string, options: WaitOptions = {}): Promise<void> {
  const { timeoutMs = 30_000, intervalMs = 50 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await exitedEarly(log, { ...options, log });
    if ((await readFile(log, 'utf8').catch(() => '')).includes(text)) return;
    if (Date.now() > deadline) throw new Error(`${log} did not show "${text}" within ${timeoutMs} ms${await tail(log)}`);
    await sleep(intervalMs);
  }
}

async function exitedEarly(what: string, { child, log }: WaitOptions): Promise<void> {
  if (child && (child.exitCode !== null || child.signalCode !== null)) {
    throw new Error(`the process for ${what} exited (${child.exitCode ?? child.signalCode})${await tail(log)}`);
  }
}

async function tail(log: string | undefined): Promise<string> {
  if (!log) return '';
  const text = await readFile(log, 'utf8').catch(() => '');
  return `\n--- ${log} ---\n${text.split('\n').slice(-30).join('\n')}`;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
