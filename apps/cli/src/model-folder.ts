// A Strapi project's model files on disk: read for `cms schema push` (and any command that takes
// a Strapi project folder), written by `cms schema pull`. The conversion between files and model
// is @cms/schema's (the dashboard's import uses the same); this module only does the file system.
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { filesFromModel, modelFromFiles, type FilesImport, type FilesModel, type ModelFile } from '@cms/schema/strapi-files';
import { CliError } from './context.ts';

const isDir = async (path: string) => (await stat(path).catch(() => null))?.isDirectory() ?? false;

/** `dir`'s `src/api` and `src/components` (or `api`/`components` when `dir` is a `src` folder). */
async function modelRoots(dir: string): Promise<string[]> {
  const src = (await isDir(join(dir, 'src'))) ? join(dir, 'src') : dir;
  const roots = [join(src, 'api'), join(src, 'components')];
  const found: string[] = [];
  for (const root of roots) if (await isDir(root)) found.push(root);
  return found;
}

/** The JSON files under a project folder's model directories, with paths relative to `dir` ('/' separated). */
export async function listModelFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const root of await modelRoots(dir)) {
    for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
      out.push(relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'));
    }
  }
  return out.sort();
}

/** The model of a Strapi project folder; any unreadable model file is an error naming it. */
export async function readModelFolder(dir: string): Promise<FilesImport> {
  if (!(await isDir(dir))) throw new CliError(`${dir} is not a folder.`);
  const files: ModelFile[] = [];
  for (const path of await listModelFiles(dir)) files.push({ path, text: await readFile(join(dir, path), 'utf8') });
  const result = modelFromFiles(files);
  if (result.problems.length) {
    throw new CliError(`Cannot read the model of ${dir}:\n${result.problems.map((p) => `  ${p.path} ${p.message}`).join('\n')}`);
  }
  if (!Object.keys(result.model.contentTypes).length && !Object.keys(result.model.components).length) {
    throw new CliError(`No model files in ${dir}: expected src/api/<name>/content-types/<name>/schema.json or src/components/<category>/<name>.json.`);
  }
  return result;
}

/**
 * Writes the model into `dir` in Strapi's layout. Returns the files written and the model files
 * already there that the model does not hold (deleted with `prune`).
 */
export async function writeModelFolder(dir: string, model: FilesModel, prune = false): Promise<{ written: string[]; stale: string[] }> {
  const files = filesFromModel(model);
  const written = new Set(files.map((f) => f.path));
  const existing = await listModelFiles(dir);
  // Only files that are model entries (a schema.json of a content type, a component) are stale;
  // other JSON in a Strapi project is left alone.
  const stale = existing.filter((path) => !written.has(path)
    && (/(^|\/)api\/[^/]+\/content-types\/[^/]+\/schema\.json$/.test(path) || /(^|\/)components\/[^/]+\/[^/]+\.json$/.test(path)));
  for (const file of files) {
    const target = join(dir, file.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.text);
  }
  if (prune) for (const path of stale) await rm(join(dir, path));
  return { written: [...written], stale };
}
