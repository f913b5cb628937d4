// cms schema pull <dir> | push <dir> --project <slug> — the project's model as a Strapi project's
// files. Push shows the planned migration, asks before destructive steps and applies the model
// at the version the plan was made against (a change by someone else in between is refused).
import type { Command } from 'commander';
import type { AnswerOf } from '@cms/management-api/client';
import type { FilesModel } from '@cms/schema/strapi-files';
import { ApiError, dataOf, type Client } from '../client.ts';
import { CliError, connect, UsageError } from '../context.ts';
import { readModelFolder, writeModelFolder } from '../model-folder.ts';
import { confirmOrRefuse, print, withSpinner } from '../ui.ts';

/** The model as the API answers it, each schema typed as the Strapi files it is (the document says only "an object"). */
export type StoredModel = FilesModel & { version: number };

type Plan = AnswerOf<'/v1/projects/{slug}/schema/plan', 'post'>;

/** The project's model (`GET /v1/projects/{slug}/schema`). */
export async function storedModel(api: Client, slug: string): Promise<StoredModel> {
  return (await dataOf(api.v1.GET('/v1/projects/{slug}/schema', { params: { path: { slug } } }))) as StoredModel;
}

/** `--rename api::article.article:title=headline` (repeatable) → `{uid: {old: new}}`. */
function collectRename(value: string, previous: Record<string, Record<string, string>> = {}): Record<string, Record<string, string>> {
  const m = /^(.+):([^:=]+)=([^:=]+)$/.exec(value);
  if (!m) throw new UsageError(`--rename ${value}: expected <uid>:<old attribute>=<new attribute>`);
  const [, uid, from, to] = m as unknown as [string, string, string, string];
  return { ...previous, [uid]: { ...previous[uid], [from]: to } };
}

export function describePlan(plan: Plan): string {
  if (!plan.changed) return 'The project\'s model is already this one: nothing to change.';
  if (!plan.changes.length) return 'Only display options change (no migration).';
  return ['Planned migration:', ...plan.changes.map((c) => `  ${c.destructive ? '!' : '+'} ${c.description}${c.destructive ? '  (deletes stored data)' : ''}`)].join('\n');
}

export function registerSchema(program: Command): void {
  const schema = program.command('schema').description('the project\'s model as Strapi project files');

  schema
    .command('pull')
    .description('write the model as src/api/<name>/content-types/<name>/schema.json and src/components/<category>/<name>.json')
    .argument('<dir>', 'the folder (a Strapi project\'s root works)')
    .requiredOption('-p, --project <slug>', 'the project')
    .option('--prune', 'delete model files in <dir> that the project\'s model does not hold')
    .action(async (dir: string, options: { project: string; prune?: boolean }, command: Command) => {
      const api = await connect(command);
      const model = await withSpinner('Reading the model', () => storedModel(api, options.project));
      const { written, stale } = await writeModelFolder(dir, model, options.prune);
      print(`Wrote ${Object.keys(model.contentTypes).length} content types and ${Object.keys(model.components).length} components `
        + `of ${options.project} (model version ${model.version}) to ${dir} (${written.length} files).`);
      if (stale.length) {
        print(options.prune
          ? `Deleted ${stale.length} model files not in the project's model:\n${stale.map((s) => `  ${s}`).join('\n')}`
          : `Not in the project's model (kept; --prune deletes them):\n${stale.map((s) => `  ${s}`).join('\n')}`);
      }
    });

  schema
    .command('push')
    .description('make the project\'s model the one in <dir>: shows the migration, asks before destructive steps')
    .argument('<dir>', 'a folder with Strapi model files (as `schema pull` writes, or a Strapi project)')
    .requiredOption('-p, --project <slug>', 'the project')
    .option('-y, --yes', 'apply destructive steps without asking (for CI)')
    .option('--dry-run', 'only show the planned migration')
    .option('--rename <uid:old=new>', 'keep an attribute\'s data across a rename, e.g. api::article.article:title=headline (repeatable)', collectRename)
    .action(async (dir: string, options: {
      project: string; yes?: boolean; dryRun?: boolean; rename?: Record<string, Record<string, string>>;
    }, command: Command) => {
      const { model } = await readModelFolder(dir);
      const api = await connect(command);
      const { version } = await storedModel(api, options.project);
      const body = { ...model, ...(options.rename ? { renames: options.rename } : {}), expectedVersion: version };
      const path = { slug: options.project };
      const plan = await withSpinner('Planning the migration', () => dataOf(api.v1.POST('/v1/projects/{slug}/schema/plan', { params: { path }, body })));
      print(describePlan(plan));
      if (!plan.changed || options.dryRun) return;
      if (plan.destructive) {
        const count = plan.changes.filter((c) => c.destructive).length;
        await confirmOrRefuse(`Apply ${count} destructive step${count === 1 ? '' : 's'} (stored data will be deleted)?`, options.yes,
          `The migration deletes stored data (${count} step${count === 1 ? '' : 's'} marked !): nothing was changed.`);
      }
      let pushed: { version: number };
      try {
        pushed = await withSpinner('Applying the model', () => dataOf(api.v1.PUT('/v1/projects/{slug}/schema', { params: { path }, body })));
      } catch (err) {
        if (err instanceof ApiError && err.status === 409 && (err.details as { version?: unknown }).version !== undefined) {
          throw new CliError(`The model of ${options.project} changed while planning (now version ${(err.details as { version: number }).version}): nothing was changed; run the push again to see the new plan.`);
        }
        throw err;
      }
      print(`Applied: ${options.project} is at model version ${pushed.version}.`);
    });
}
