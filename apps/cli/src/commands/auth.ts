// cms login | logout | whoami — a session of the platform account, kept in the config file.
import { text as readStream } from 'node:stream/consumers';
import * as p from '@clack/prompts';
import type { Command } from 'commander';
import type { components } from '@cms/management-api/client';
import { ApiError, createClient, dataOf } from '../client.ts';
import { deleteSession, readSession, writeSession } from '../config.ts';
import { CliError, connect, interactive, target, UsageError } from '../context.ts';
import { answered, print, withSpinner } from '../ui.ts';

type Account = components['schemas']['Account'];

interface LoginOptions {
  email?: string;
  password?: string;
  passwordStdin?: boolean;
  printToken?: boolean;
}

async function credentials(options: LoginOptions): Promise<{ email: string; password: string }> {
  if (options.password && options.passwordStdin) throw new UsageError('Use either --password or --password-stdin, not both.');
  let { email, password } = options;
  if (options.passwordStdin) {
    password = (await readStream(process.stdin)).replace(/\r?\n$/, '');
    if (!password) throw new UsageError('--password-stdin: standard input was empty.');
  }
  if (email && password) return { email, password };
  if (!interactive()) {
    throw new UsageError('No terminal to ask on: pass --email and --password (or --password-stdin).');
  }
  p.intro('Log in to the content platform');
  email ??= answered(await p.text({ message: 'E-mail', validate: (v) => (v?.includes('@') ? undefined : 'An e-mail address') }));
  password ??= answered(await p.password({ message: 'Password', validate: (v) => (v ? undefined : 'The password') }));
  return { email, password };
}

export function registerAuth(program: Command): void {
  program
    .command('login')
    .description('log in and keep the session in the config file (0600)')
    .option('--email <email>', 'the account\'s e-mail (asked when absent)')
    .option('--password <password>', 'the password (asked when absent; prefer --password-stdin in scripts)')
    .option('--password-stdin', 'read the password from standard input')
    .option('--print-token', 'print the session token instead of storing it (for CMS_TOKEN)')
    .action(async (options: LoginOptions, command: Command) => {
      const { url } = await target(command);
      const { email, password } = await credentials(options);
      const api = createClient({ url });
      const { token, account } = await withSpinner('Logging in', () =>
        dataOf(api.v1.POST('/v1/auth/login', { body: { email, password } })));
      if (options.printToken) {
        print(token);
        return;
      }
      // Replacing another session: end it on its server first (best effort, it may be gone).
      const previous = await readSession();
      if (previous && previous.token !== token) {
        await createClient({ url: previous.url, token: previous.token }).v1.POST('/v1/auth/logout').catch(() => undefined);
      }
      const file = await writeSession({ url, token, email: account.email });
      print(`Logged in to ${url} as ${account.email} (session stored in ${file}).`);
    });

  program
    .command('logout')
    .description('end the stored session on the server and delete it')
    .action(async () => {
      const session = await readSession();
      if (!session) {
        print('Not logged in.');
        return;
      }
      try {
        await createClient({ url: session.url, token: session.token }).v1.POST('/v1/auth/logout');
      } catch (err) {
        // An expired session is over anyway; anything else (server unreachable) keeps the file,
        // so the session can still be ended later.
        if (!(err instanceof ApiError && err.status === 401)) throw err;
      }
      await deleteSession();
      print(`Logged out of ${session.url}.`);
    });

  program
    .command('whoami')
    .description('show the account the CLI acts as')
    .option('--json', 'print the account as JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const api = await connect(command);
      let account: Account;
      try {
        ({ account } = await dataOf(api.v1.GET('/v1/auth/me')));
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) {
          throw new CliError(`${err.message}: the session has ended, run \`cms login\` again.`);
        }
        throw err;
      }
      if (options.json) print(JSON.stringify(account, null, 2));
      else print(`${account.email}${account.name ? ` (${account.name})` : ''} on ${api.url}`);
    });
}
