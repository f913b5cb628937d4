// What an interrupted import already did, so running the same command again goes on from there:
// the project it created, the batches each stage completed and the ids of the files uploaded.
// One small JSON file per source and target in the CLI's config directory, written after every
// batch (atomically: a temporary file renamed over it) and deleted when the import completes.
// Batches re-sent anyway are harmless: every import route of the platform is idempotent.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImportState, ImportStateStore } from '@cms/strapi-import';
import { configDir } from '../config.ts';

export class StateFile implements ImportStateStore {
  readonly path: string;
  state: ImportState;

  private constructor(path: string, state: ImportState) {
    this.path = path;
    this.state = state;
  }

  /** The state of an import of `source` (an archive's path, a URL) into `project` (or a new one). */
  static async open(source: string, target: string, project: string | undefined, batchSize: number): Promise<StateFile> {
    const key = createHash('sha256').update(`${source}\n${target}\n${project ?? ''}`).digest('hex').slice(0, 24);
    const path = join(configDir(), 'imports', `${key}.json`);
    let state: ImportState = { project: project ?? null, batchSize, done: {}, fileIds: {} };
    try {
      const stored = JSON.parse(await readFile(path, 'utf8')) as ImportState;
      // Other batch boundaries: batches are counted again (their items are upserted anyway).
      state = { ...stored, done: stored.batchSize === batchSize ? stored.done : {}, batchSize };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && !(err instanceof SyntaxError)) throw err;
    }
    return new StateFile(path, state);
  }

  get resumed(): boolean {
    return Object.keys(this.state.done).length > 0 || Object.keys(this.state.fileIds).length > 0;
  }

  async save(): Promise<void> {
    await mkdir(join(configDir(), 'imports'), { recursive: true, mode: 0o700 });
    const tmp = `${this.path}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(this.state), { mode: 0o600 });
    await rename(tmp, this.path);
  }

  async remove(): Promise<void> {
    await rm(this.path, { force: true });
  }
}
