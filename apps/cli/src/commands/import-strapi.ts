// cms import strapi <dir> [--project <slug>] [--data <export.tar.gz>]
// cms import strapi [<dir>] --data <export.tar.gz> | --from-url <strapi url> --token <full-access token>
// A Strapi v5 project moved in one command: its model (and locales), and with --data or
// --from-url its content, files and users (docs/import-strapi.md). The import itself is
// @cms/strapi-import's, writing through the platform's /v1 routes (import/http-target.ts).
import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import type { FilesModel } from '@cms/schema/strapi-files';
import { archiveKind, ArchiveSource, modelFromArchive, runImport, type ImportSource } from '@cms/strapi-import';
import { connect, UsageError } from '../context.ts';
import { readModelFolder } from '../model-folder.ts';
import { print } from '../ui.ts';
import { httpImportTarget } from '../import/http-target.ts';
import { stageProgress } from '../import/progress.ts';
import { RestSource, restModel } from '../import/rest-source.ts';
import { StateFile } from '../import/state.ts';

interface Options {
  project?: string;
  data?: string;
  fromUrl?: string;
  token?: string;
  batchSize: number;
  yes?: boolean;
  json?: boolean;
}

function batchSize(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 500) throw new InvalidArgumentError('a whole number from 1 to 500');
  return n;
}

/**
 * The project's name: its package.json's, else the folder's; without a folder the archive's file
 * name (without .tar.gz) or the Strapi's host name.
 */
async function projectName(dir: string | undefined, url: string | undefined, archive: string | undefined): Promise<string> {
  if (dir) {
    const pkg = await readFile(resolve(dir, 'package.json'), 'utf8').then((t) => JSON.parse(t) as { name?: unknown }).catch(() => null);
    if (typeof pkg?.name === 'string' && pkg.name.trim()) return pkg.name.replace(/^@[^/]+\//, '').slice(0, 100);
    return basename(resolve(dir)).slice(0, 100) || 'Strapi import';
  }
  if (archive) return basename(archive).replace(/\.(tar\.gz|tgz|tar)$/i, '').slice(0, 100) || 'Strapi import';
  return new URL(url!).hostname.slice(0, 100);
}

export function registerImportStrapi(program: Command): void {
  const imports = program.command('import').description('move a project from another CMS into the platform');
  imports
    .command('strapi')
    .description('import a Strapi v5 project: its model, and with --data or --from-url its content, files and users')
    .argument('[dir]', 'the Strapi project folder (its src/api and src/components hold the model; without it, the archive\'s or the Strapi\'s)')
    .option('-p, --project <slug>', 'import into this project (default: a new project)')
    .option('--data <archive>', 'the content: a `strapi export --no-encrypt` archive (.tar.gz or .tar)')
    .option('--from-url <url>', 'read the content from a running Strapi\'s REST API instead')
    .option('--token <token>', 'a full-access API token of that Strapi (with --from-url)')
    .option('--batch-size <n>', 'items per request (1–500)', batchSize, 200)
    .option('-y, --yes', 'apply a model change that deletes data in an existing project without asking')
    .option('--json', 'print the report as JSON')
    .action(async (dir: string | undefined, options: Options, command: Command) => {
      if (options.data && options.fromUrl) throw new UsageError('Pass either --data or --from-url, not both.');
      if (options.fromUrl && !options.token) throw new UsageError('--from-url needs --token (a full-access API token of that Strapi).');
      if (!dir && !options.fromUrl && !options.data) throw new UsageError('Pass the Strapi project folder (or --data with an export archive, or --from-url with --token).');
      if (options.fromUrl) {
        try {
          new URL(options.fromUrl);
        } catch {
          throw new UsageError(`--from-url is not a URL: ${options.fromUrl}`);
        }
      }
      // An encrypted or unreadable archive is refused before anything is created.
      if (options.data) await archiveKind(options.data);
      const api = await connect(command);

      let model: FilesModel;
      let source: ImportSource | null;
      let sourceId: string;
      if (options.fromUrl) {
        model = dir ? (await readModelFolder(dir)).model : await restModel(options.fromUrl, options.token!);
        source = new RestSource(options.fromUrl, options.token!, model);
        sourceId = options.fromUrl;
      } else {
        const archive = options.data ? resolve(options.data) : null;
        // Without the folder, the model the archive's schemas/ hold.
        model = dir ? (await readModelFolder(dir)).model : await modelFromArchive(archive!);
        source = archive ? new ArchiveSource(archive, model) : null;
        sourceId = archive ? `${archive}:${(await stat(archive)).size}:${(await stat(archive)).mtimeMs}` : resolve(dir!);
      }
      const state = await StateFile.open(sourceId, api.url, options.project, options.batchSize);
      if (state.resumed) process.stderr.write(`Resuming the import into ${state.state.project} (state in ${state.path})\n`);
      const report = await runImport({
        target: httpImportTarget(api), model, source, state, batchSize: options.batchSize, yes: Boolean(options.yes),
        projectName: await projectName(dir, options.fromUrl, options.data),
        progress: (stage, total) => stageProgress(stage, total),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      print(options.json ? JSON.stringify(report.toJSON(), null, 2) : report.toText());
    });
}
