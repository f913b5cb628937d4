// Where the CLI keeps its session, and which platform and token a command talks to.
//
// The session (`cms login`) is one JSON file, `config.json` in the user's config directory
// (env-paths: `$XDG_CONFIG_HOME/cms` or `~/.config/cms` on Linux, `~/Library/Preferences/cms` on
// macOS, `%APPDATA%\cms\Config` on Windows), readable by its owner only (0600).
//
// The platform's address: `--url`, else `CMS_URL`, else the address of the stored session,
// else http://127.0.0.1:1337. The token: `CMS_TOKEN` (CI), else the stored session's token when
// it was issued by that same address — a session is never sent to another server.
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import envPaths from 'env-paths';

export const DEFAULT_URL = 'http://127.0.0.1:1337';

export interface StoredSession {
  url: string;
  token: string;
  email: string;
}

export function configDir(): string {
  return envPaths('cms', { suffix: '' }).config;
}

export function configFile(): string {
  return join(configDir(), 'config.json');
}

export async function readSession(): Promise<StoredSession | null> {
  let text: string;
  try {
    text = await readFile(configFile(), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const data = JSON.parse(text) as Partial<StoredSession>;
  return typeof data.url === 'string' && typeof data.token === 'string'
    ? { url: data.url, token: data.token, email: String(data.email ?? '') }
    : null;
}

export async function writeSession(session: StoredSession): Promise<string> {
  const file = configFile();
  await mkdir(configDir(), { recursive: true, mode: 0o700 });
  await writeFile(file, JSON.stringify(session, null, 2) + '\n', { mode: 0o600 });
  // `mode` only applies when the file is created: tighten an older file too.
  await chmod(file, 0o600);
  return file;
}

export async function deleteSession(): Promise<void> {
  await rm(configFile(), { force: true });
}

export function normaliseUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError(`Not an http(s) address: ${url}`);
  return parsed.origin + parsed.pathname.replace(/\/+$/, '');
}

export interface Target {
  url: string;
  token: string | null;
  /** Where the token came from, for messages. */
  source: 'CMS_TOKEN' | 'login' | null;
}

/** The platform and token a command uses, from its `--url` option, the environment and the stored session. */
export async function resolveTarget(urlOption: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<Target> {
  const session = await readSession();
  const url = normaliseUrl(urlOption ?? (env.CMS_URL || undefined) ?? session?.url ?? DEFAULT_URL);
  if (env.CMS_TOKEN) return { url, token: env.CMS_TOKEN, source: 'CMS_TOKEN' };
  if (session && normaliseUrl(session.url) === url) return { url, token: session.token, source: 'login' };
  return { url, token: null, source: null };
}
