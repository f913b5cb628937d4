// cms tokens create | list | revoke --project <slug> — the project's content-API tokens.
import type { Command } from 'commander';
import { dataOf } from '../client.ts';
import { connect, UsageError } from '../context.ts';
import { print, table, withSpinner } from '../ui.ts';

const TYPES = ['read-only', 'full-access', 'custom'];
const LIFESPANS = ['7', '30', '90'];

/** `find,findOne` per uid: `--permission api::article.article=find,findOne` (repeatable). */
function collectPermission(value: string, previous: Record<string, string[]> = {}): Record<string, string[]> {
  const at = value.lastIndexOf('=');
  if (at <= 0) throw new UsageError(`--permission ${value}: expected <uid>=<action>[,<action>…]`);
  const uid = value.slice(0, at);
  const actions = value.slice(at + 1).split(',').map((a) => a.trim()).filter(Boolean);
  return { ...previous, [uid]: [...(previous[uid] ?? []), ...actions] };
}

export function registerTokens(program: Command): void {
  const tokens = program.command('tokens').description('create, list and revoke a project\'s API tokens');

  tokens
    .command('create')
    .description('create an API token and print its key (shown this once)')
    .argument('<name>', 'the token\'s name')
    .requiredOption('-p, --project <slug>', 'the project')
    .option('--type <type>', `${TYPES.join(' | ')}`, 'read-only')
    .option('--permission <uid=actions>', 'for --type custom: actions on a uid, e.g. api::article.article=find,findOne (repeatable)', collectPermission)
    .option('--lifespan <days>', `${LIFESPANS.join(' | ')} days (never expires when absent)`)
    .option('--description <text>', 'a description')
    .option('--json', 'print the token and its key as JSON')
    .action(async (name: string, options: {
      project: string; type: string; permission?: Record<string, string[]>; lifespan?: string; description?: string; json?: boolean;
    }, command: Command) => {
      if (!TYPES.includes(options.type)) throw new UsageError(`--type must be one of ${TYPES.join(', ')}`);
      if (options.lifespan !== undefined && !LIFESPANS.includes(options.lifespan)) throw new UsageError(`--lifespan must be one of ${LIFESPANS.join(', ')}`);
      if (options.permission && options.type !== 'custom') throw new UsageError('--permission goes with --type custom');
      const api = await connect(command);
      const body = {
        name,
        type: options.type,
        ...(options.permission ? { permissions: options.permission } : {}),
        lifespanDays: options.lifespan === undefined ? null : Number(options.lifespan),
        ...(options.description ? { description: options.description } : {}),
      };
      const created = await withSpinner('Creating the token', () =>
        dataOf(api.v1.POST('/v1/projects/{slug}/api-tokens', { params: { path: { slug: options.project } }, body })));
      if (options.json) return print(JSON.stringify(created, null, 2));
      process.stderr.write(`Created token ${created.apiToken.id} (${created.apiToken.name}, ${created.apiToken.type}). `
        + 'Its key is shown this once; send it as `Authorization: Bearer <key>`:\n');
      print(created.accessKey);
    });

  tokens
    .command('list')
    .description('the project\'s API tokens (never their keys)')
    .requiredOption('-p, --project <slug>', 'the project')
    .option('--json', 'print the tokens as JSON')
    .action(async (options: { project: string; json?: boolean }, command: Command) => {
      const api = await connect(command);
      const { apiTokens } = await dataOf(api.v1.GET('/v1/projects/{slug}/api-tokens', { params: { path: { slug: options.project } } }));
      if (options.json) return print(JSON.stringify(apiTokens, null, 2));
      if (apiTokens.length === 0) return print('No API tokens.');
      print(table(['ID', 'NAME', 'TYPE', 'EXPIRES', 'CREATED'],
        apiTokens.map((t) => [String(t.id), t.name, t.type, t.expiresAt ?? 'never', t.createdAt])));
    });

  tokens
    .command('revoke')
    .description('delete an API token: it stops working at once')
    .argument('<id>', 'the token\'s id (see `cms tokens list`)')
    .requiredOption('-p, --project <slug>', 'the project')
    .action(async (id: string, options: { project: string }, command: Command) => {
      if (!/^[1-9]\d*$/.test(id)) throw new UsageError(`Not a token id: ${id}`);
      const api = await connect(command);
      await dataOf(api.v1.DELETE('/v1/projects/{slug}/api-tokens/{id}', { params: { path: { slug: options.project, id: Number(id) } } }));
      print(`Revoked token ${id}.`);
    });
}
