// cms env create | list | delete | promote — a project's environments (management-api.md
// § Environments): copies of it at `{project}--{name}`, whose model is promoted back to the
// project as a planned migration. Every other command works on an environment by its slug.
import * as p from '@clack/prompts';
import type { Command } from 'commander';
import type { AnswerOf } from '@cms/management-api/client';
import { CliError, connect, interactive, UsageError } from '../context.ts';
import { dataOf, type Client } from '../client.ts';
import { answered, confirmOrRefuse, print, table, withSpinner } from '../ui.ts';

export type Environment = AnswerOf<'/v1/projects/{slug}/environments', 'get'>['environments'][number];

/** `plan.changed` with no steps: the models differ only in what stores nothing (names shown, options). */
export type PromoteAnswer = AnswerOf<'/v1/projects/{slug}/environments/{name}/promote', 'post'>;

export type PromoteStep = PromoteAnswer['plan']['steps'][number];

/** The contract's environment names. */
export const ENVIRONMENT_NAME = /^[a-z][a-z0-9-]{0,19}$/;

/** How often `create --wait` asks about a copy, and how long it waits at most. */
const POLL_MS = 1000;
const WAIT_MS = 10 * 60_000;

/** A step in words: the server's description, else one made of its kind, type and attribute. */
export function describeStep(step: PromoteStep): string {
  if (step.description) return step.description;
  const words = step.kind.replace(/([A-Z])/g, ' $1').toLowerCase();
  return step.attribute ? `${words} ${step.attribute} of ${step.uid}` : `${words} ${step.uid}`;
}

/** The plan as lines: `+` a step that keeps data, `!` one that deletes stored data. */
export function describePromotePlan(parent: string, name: string, steps: PromoteStep[], changed = steps.length > 0): string {
  if (!changed) return `The models of ${parent} and ${name} are equal: nothing to promote.`;
  if (steps.length === 0) return `The models of ${parent} and ${name} differ only in names and options, which store nothing: promoting changes no table.`;
  return [
    `Promoting the model of ${name} to ${parent}:`,
    ...steps.map((s) => `  ${s.destructive ? '!' : '+'} ${describeStep(s)}${s.destructive ? '  (deletes stored data)' : ''}`),
  ].join('\n');
}

/**
 * The project the command is about: `--project`, else `CMS_PROJECT`, else the account's only
 * project (environments aside); several projects and none named is a usage error.
 */
async function parentSlug(api: Client, option: string | undefined): Promise<string> {
  const named = option ?? (process.env.CMS_PROJECT || undefined);
  if (named) return named;
  const { projects } = await dataOf(api.v1.GET('/v1/projects'));
  const own = projects.filter((x) => !x.parent);
  if (own.length === 1) return own[0]!.slug;
  throw new UsageError(own.length === 0
    ? 'No project yet: create one with `cms projects create <name>`.'
    : `Which project? Pass --project <slug> (or set CMS_PROJECT): ${own.map((x) => x.slug).join(', ')}.`);
}

function checkName(name: string): void {
  if (!ENVIRONMENT_NAME.test(name)) {
    throw new UsageError(`Not an environment name: ${name} (a lowercase letter, then up to 19 lowercase letters, digits or dashes).`);
  }
}

async function environments(api: Client, slug: string): Promise<Environment[]> {
  return (await dataOf(api.v1.GET('/v1/projects/{slug}/environments', { params: { path: { slug } } }))).environments;
}

/** Follows a copy until it is ready (or failed: an error), asking every POLL_MS. */
async function waitUntilCopied(api: Client, slug: string, name: string): Promise<Environment> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const env = (await environments(api, slug)).find((e) => e.name === name);
    if (!env) throw new CliError(`The environment ${name} of ${slug} is gone (deleted while copying?).`);
    if (env.status === 'failed') throw new CliError(`The copy of ${slug} to ${env.slug} failed${env.error ? `: ${env.error}` : ''}.`);
    if (env.status === 'ready') return env;
    if (Date.now() > deadline) throw new CliError(`The copy of ${slug} to ${env.slug} is still running after ${WAIT_MS / 60_000} minutes; see \`cms env list\`.`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

function describeEnvironment(env: Environment): string {
  return `${env.slug} (${env.status})\nREST:    ${env.apiUrl}\nGraphQL: ${env.graphqlUrl}`;
}

export function registerEnvironments(program: Command): void {
  const env = program.command('env').description('copies of a project to try model and content changes in, promoted back as a reviewed plan');
  const projectOption = ['-p, --project <slug>', 'the project (default: $CMS_PROJECT, or your only project)'] as const;

  env
    .command('create')
    .description('copy the project into a new environment {project}--{name}')
    .argument('<name>', 'the environment\'s name, e.g. staging')
    .option(...projectOption)
    .option('--wait', 'wait until the copy is ready (exit 1 if it fails)')
    .option('--json', 'print the environment as JSON')
    .action(async (name: string, options: { project?: string; wait?: boolean; json?: boolean }, command: Command) => {
      checkName(name);
      const api = await connect(command);
      const slug = await parentSlug(api, options.project);
      let { environment } = await withSpinner(`Copying ${slug}`, () =>
        dataOf(api.v1.POST('/v1/projects/{slug}/environments', { params: { path: { slug } }, body: { name } })));
      if (options.wait && environment.status !== 'ready') {
        environment = await withSpinner(`Copying ${slug} to ${environment.slug}`, () => waitUntilCopied(api, slug, name));
      }
      if (options.json) return print(JSON.stringify(environment, null, 2));
      print(`Created ${describeEnvironment(environment)}`);
      if (environment.status === 'copying') process.stderr.write(`The copy goes on in the background: \`cms env list --project ${slug}\` shows when it is ready.\n`);
    });

  env
    .command('list')
    .description('the project\'s environments')
    .option(...projectOption)
    .option('--json', 'print the environments as JSON')
    .action(async (options: { project?: string; json?: boolean }, command: Command) => {
      const api = await connect(command);
      const slug = await parentSlug(api, options.project);
      const list = await environments(api, slug);
      if (options.json) return print(JSON.stringify(list, null, 2));
      if (list.length === 0) return print(`${slug} has no environments: create one with \`cms env create <name> --project ${slug}\`.`);
      print(table(['NAME', 'SLUG', 'STATUS', 'CREATED', 'API'], list.map((e) => [e.name, e.slug, e.status, e.createdAt, e.apiUrl])));
    });

  env
    .command('delete')
    .description('delete an environment with its content and media (the project keeps its own)')
    .argument('<name>', 'the environment\'s name')
    .option(...projectOption)
    .option('-y, --yes', 'do not ask (for CI)')
    .action(async (name: string, options: { project?: string; yes?: boolean }, command: Command) => {
      checkName(name);
      const api = await connect(command);
      const slug = await parentSlug(api, options.project);
      // Known first: an unknown name is a clear error before any question.
      const found = (await environments(api, slug)).find((e) => e.name === name);
      if (!found) throw new CliError(`${slug} has no environment ${name} (see \`cms env list --project ${slug}\`).`);
      if (!options.yes) {
        if (!interactive()) throw new CliError(`Refusing to delete ${found.slug} without confirmation. Pass --yes to confirm without a prompt.`);
        const typed = answered(await p.text({
          message: `This deletes the environment ${found.slug} with its content and media (${slug} keeps its own). Type its name to confirm`,
        }));
        if (typed !== name) throw new CliError('The name did not match: nothing was deleted.');
      }
      await withSpinner(`Deleting ${found.slug}`, () =>
        dataOf(api.v1.DELETE('/v1/projects/{slug}/environments/{name}', { params: { path: { slug, name } } })));
      print(`Deleted ${found.slug}.`);
    });

  env
    .command('promote')
    .description('make the project\'s model the environment\'s: prints the plan; --apply applies it (content never moves)')
    .argument('<name>', 'the environment\'s name')
    .option(...projectOption)
    .option('--apply', 'apply the plan (asks before destructive steps)')
    .option('-y, --yes', 'with --apply: apply destructive steps without asking (for CI)')
    .option('--json', 'print the answer as JSON')
    .action(async (name: string, options: { project?: string; apply?: boolean; yes?: boolean; json?: boolean }, command: Command) => {
      checkName(name);
      if (options.yes && !options.apply) throw new UsageError('--yes goes with --apply');
      const api = await connect(command);
      const slug = await parentSlug(api, options.project);
      const promote = (body: { dryRun: boolean; confirm?: boolean }) =>
        dataOf(api.v1.POST('/v1/projects/{slug}/environments/{name}/promote', { params: { path: { slug, name } }, body }));
      const planned = await withSpinner('Planning the promotion', () => promote({ dryRun: true }));
      const { steps, changed } = planned.plan;
      if (!options.apply || !changed) {
        if (options.json) return print(JSON.stringify(planned, null, 2));
        print(describePromotePlan(slug, `${slug}--${name}`, steps, changed));
        if (changed) process.stderr.write(`Nothing was changed: run again with --apply to apply this plan to ${slug}.\n`);
        return;
      }
      if (!options.json) print(describePromotePlan(slug, `${slug}--${name}`, steps, changed));
      const destructive = steps.filter((s) => s.destructive).length;
      if (destructive) {
        await confirmOrRefuse(
          `Apply ${destructive} destructive step${destructive === 1 ? '' : 's'} to ${slug} (its stored data will be deleted)?`, options.yes,
          `The promotion deletes stored data of ${slug} (${destructive} step${destructive === 1 ? '' : 's'} marked !): nothing was changed.`);
      }
      const body = destructive ? { dryRun: false, confirm: true } : { dryRun: false };
      const applied = await withSpinner(`Promoting the model to ${slug}`, () => promote(body));
      if (options.json) return print(JSON.stringify(applied, null, 2));
      print(`Promoted: ${slug} has the model of ${slug}--${name} (${applied.plan.steps.length} step${applied.plan.steps.length === 1 ? '' : 's'}; content was not copied).`);
    });
}
