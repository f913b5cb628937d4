// The `cms` command: parses with commander, runs one command, maps errors to exit codes
// (0 success, 1 error, 2 usage error). Every command group registers itself from `commands`.
import { Command, CommanderError } from 'commander';
import { ImportError } from '@cms/strapi-import';
import { ApiError } from './client.ts';
import { CliError, UsageError } from './context.ts';
import { registerAuth } from './commands/auth.ts';
import { registerProjects } from './commands/projects.ts';
import { registerTokens } from './commands/tokens.ts';
import { registerSchema } from './commands/schema.ts';
import { registerTypes } from './commands/types.ts';
import { registerOpenapi } from './commands/openapi.ts';
import { registerImportStrapi } from './commands/import-strapi.ts';
import { registerExport } from './commands/export.ts';
import { registerEnvironments } from './commands/environments.ts';
import { registerApi } from './commands/api.ts';

/** Each adds its command(s) to the program; add a command group by adding a line here. */
const commands: Array<(program: Command) => void> = [
  registerAuth,
  registerProjects,
  registerTokens,
  registerSchema,
  registerTypes,
  registerOpenapi,
  registerImportStrapi,
  registerExport,
  registerEnvironments,
  registerApi,
];

export function buildProgram(): Command {
  const program = new Command('cms')
    .description('Manage projects, models and tokens of the content platform')
    .option('--url <url>', 'the platform\'s address (default: $CMS_URL, the logged-in address, http://127.0.0.1:1337)')
    .showHelpAfterError()
    .exitOverride();
  for (const register of commands) register(program);
  // Subcommands exit through the same override as the program.
  const override = (cmd: Command): void => {
    cmd.exitOverride();
    cmd.commands.forEach(override);
  };
  program.commands.forEach(override);
  return program;
}

/** The server's message, then each field error of a ValidationError (`details.errors`). */
function describeApiError(err: ApiError): string {
  if (err.status === 0) return err.message;
  const listed = (err.details as { errors?: unknown } | null)?.errors;
  const errors = Array.isArray(listed) ? (listed as Array<{ path?: unknown; message?: unknown }>) : [];
  const where = (e: { path?: unknown }) => (Array.isArray(e.path) ? e.path.join('.') : String(e.path ?? ''));
  // One field error repeating the message: just say where.
  if (errors.length === 1 && errors[0]!.message === err.message && where(errors[0]!)) {
    return `${where(errors[0]!)}: ${err.message} (${err.status} ${err.name})`;
  }
  const lines = errors.map((e) => `\n  ${where(e)}: ${String(e.message)}`);
  return `${err.message} (${err.status} ${err.name})${lines.join('')}`;
}

function fail(message: string, code: number): never {
  process.stderr.write(`Error: ${message}\n`);
  process.exit(code);
}

export async function main(argv: string[] = process.argv): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version are successes; commander printed the message already.
      process.exit(err.exitCode === 0 ? 0 : 2);
    }
    if (err instanceof UsageError) fail(err.message, 2);
    if (err instanceof ApiError) fail(describeApiError(err), 1);
    if (err instanceof CliError || err instanceof ImportError) fail(err.message, 1);
    throw err;
  }
}

await main();
