// What a command needs to reach the platform: the API client for the `--url`/`CMS_URL`/session
// target (see config.ts), and the errors main.ts turns into exit codes.
import type { Command } from 'commander';
import { createClient, type Client } from './client.ts';
import { resolveTarget, type Target } from './config.ts';

/** A wrong invocation (exit code 2), like commander's own usage errors. */
export class UsageError extends Error {}

/** Something the user must do first, or a refusal (exit code 1). */
export class CliError extends Error {}

/** The global options every command inherits from the program. */
export interface GlobalOptions {
  url?: string;
}

export async function target(command: Command): Promise<Target> {
  return resolveTarget((command.optsWithGlobals() as GlobalOptions).url);
}

/** A client with the account's token; fails with a hint to log in when there is none. */
export async function connect(command: Command): Promise<Client> {
  const t = await target(command);
  if (!t.token) throw new CliError(`Not logged in to ${t.url}: run \`cms login\` (or set CMS_TOKEN).`);
  return createClient({ url: t.url, token: t.token });
}

/** Whether prompts can be shown (a terminal on both ends). */
export function interactive(): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY);
}
