// cms projects list | create | delete
import * as p from '@clack/prompts';
import type { Command } from 'commander';
import { dataOf } from '../client.ts';
import { CliError, connect, interactive } from '../context.ts';
import { answered, print, table, withSpinner } from '../ui.ts';

/** `/v1/projects/{slug}` plus `rest`, with the slug escaped. */
export function projectPath(slug: string, rest = ''): string {
  return `/v1/projects/${encodeURIComponent(slug)}${rest}`;
}

export function registerProjects(program: Command): void {
  const projects = program.command('projects').description('list, create and delete projects');

  projects
    .command('list')
    .description('the projects the account is a member of')
    .option('--json', 'print the projects as JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const api = await connect(command);
      const { projects: list } = await dataOf(api.v1.GET('/v1/projects'));
      if (options.json) return print(JSON.stringify(list, null, 2));
      if (list.length === 0) return print('No projects yet: create one with `cms projects create <name>`.');
      print(table(['SLUG', 'NAME', 'ROLE', 'PLAN', 'API'], list.map((x) => [x.slug, x.name, x.role, x.plan, x.apiUrl])));
    });

  projects
    .command('create')
    .description('create a project')
    .argument('<name>', 'the project\'s name')
    .option('--slug <slug>', 'its slug (derived from the name when absent)')
    .option('--default-locale <code>', 'its default locale (en when absent)')
    .option('--json', 'print the project as JSON')
    .action(async (name: string, options: { slug?: string; defaultLocale?: string; json?: boolean }, command: Command) => {
      const api = await connect(command);
      const body = { name, ...(options.slug ? { slug: options.slug } : {}), ...(options.defaultLocale ? { defaultLocale: options.defaultLocale } : {}) };
      const { project } = await withSpinner('Creating the project', () => dataOf(api.v1.POST('/v1/projects', { body })));
      if (options.json) return print(JSON.stringify(project, null, 2));
      print(`Created ${project.slug} (${project.name})\nREST:    ${project.apiUrl}\nGraphQL: ${project.graphqlUrl}`);
    });

  projects
    .command('delete')
    .description('delete a project with its content, media and tokens (asks to type the slug)')
    .argument('<slug>', 'the project\'s slug')
    .option('-y, --yes', 'do not ask (for CI)')
    .action(async (slug: string, options: { yes?: boolean }, command: Command) => {
      const api = await connect(command);
      // Loading it first: an unknown slug is the server's 404 before any question.
      const { project } = await dataOf(api.v1.GET('/v1/projects/{slug}', { params: { path: { slug } } }));
      if (!options.yes) {
        if (!interactive()) throw new CliError(`Refusing to delete ${slug} without confirmation. Pass --yes to confirm without a prompt.`);
        const typed = answered(await p.text({
          message: `This deletes ${project.name} (${slug}) with all its content, media and tokens. Type the slug to confirm`,
        }));
        if (typed !== slug) throw new CliError('The slug did not match: nothing was deleted.');
      }
      await withSpinner(`Deleting ${slug}`, () => dataOf(api.v1.DELETE('/v1/projects/{slug}', { params: { path: { slug } } })));
      print(`Deleted ${slug}.`);
    });
}
