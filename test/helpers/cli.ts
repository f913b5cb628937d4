// Running the `cms` CLI as a child process against a listening test gateway, with a home and
// config directory of its own (so its session file lands in a temporary folder).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestApp } from './app.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'apps/cli/bin/cms.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Cli {
  /** The gateway's origin, e.g. http://127.0.0.1:40123. */
  url: string;
  home: string;
  /** `$XDG_CONFIG_HOME/cms/config.json`: where `cms login` keeps the session. */
  configFile: string;
  /** Runs `cms …args` (with `CMS_URL` set to the gateway); `input` is written to its stdin. */
  run(args: string[], options?: { input?: string; env?: Record<string, string>; cwd?: string }): Promise<CliResult>;
  close(): Promise<void>;
}

/** Makes the test app listen on a free port and returns a CLI runner for it. */
export async function cliFor(t: TestApp): Promise<Cli> {
  if (!t.fastify.server.listening) await t.fastify.listen({ port: 0, host: '127.0.0.1' });
  const address = t.fastify.server.address();
  if (!address || typeof address !== 'object') throw new Error('the gateway is not listening');
  const url = `http://127.0.0.1:${address.port}`;
  const home = await mkdtemp(join(tmpdir(), 'cms-cli-home-'));
  const configHome = join(home, '.config');
  return {
    url,
    home,
    configFile: join(configHome, 'cms', 'config.json'),
    run(args, options = {}) {
      return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [BIN, ...args], {
          cwd: options.cwd ?? ROOT,
          env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: configHome, CMS_URL: url, NO_COLOR: '1', ...options.env },
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr }));
        child.stdin.end(options.input ?? '');
      });
    },
    close: () => rm(home, { recursive: true, force: true }),
  };
}
