// cms export --project <slug> <file> — the project as a `strapi export --no-encrypt` archive
// (docs/export.md): asks the platform for an export, waits while it is written, then downloads
// it with a progress bar into <file> (written as <file>.part and renamed once complete).
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { dataOf } from '../client.ts';
import { CliError, connect } from '../context.ts';
import { stageProgress } from '../import/progress.ts';
import { print, withSpinner } from '../ui.ts';
import { projectPath } from './projects.ts';

const POLL_MS = 500;
/** A progress line (or bar redraw) at most this often while downloading. */
const PROGRESS_MS = 250;

export function registerExport(program: Command): void {
  program
    .command('export')
    .description('download the project as a Strapi export archive (.tar.gz): `strapi import` and `cms import strapi --data` load it')
    .argument('<file>', 'where to write the archive, e.g. my-project.tar.gz')
    .requiredOption('-p, --project <slug>', 'the project')
    .action(async (file: string, options: { project: string }, command: Command) => {
      const api = await connect(command);
      const slug = options.project;
      const started = await dataOf(api.v1.POST('/v1/projects/{slug}/exports', { params: { path: { slug } }, body: {} }));
      const id = started.export.id;
      const done = await withSpinner('Writing the export', async () => {
        for (;;) {
          const { export: current } = await dataOf(api.v1.GET('/v1/projects/{slug}/exports/{id}', { params: { path: { slug, id } } }));
          if (current.status !== 'running') return current;
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
      });
      if (done.status === 'failed') throw new CliError(`The export failed: ${done.error ?? 'unknown reason'}`);
      // A file, not JSON: the untyped download.
      const download = await api.download(projectPath(slug, `/exports/${encodeURIComponent(id)}/download`));
      const total = download.size ?? done.size;
      const progress = stageProgress('download', total);
      let received = 0;
      let shown = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          received += chunk.length;
          if (Date.now() - shown >= PROGRESS_MS) {
            shown = Date.now();
            progress.update(received);
          }
          callback(null, chunk);
        },
      });
      const partial = `${file}.part`;
      try {
        await pipeline(download.body, counter, createWriteStream(partial));
      } catch (err) {
        await rm(partial, { force: true });
        throw new CliError(`The download stopped: ${(err as Error).message}`);
      }
      if (total !== null && received !== total) {
        await rm(partial, { force: true });
        throw new CliError(`The download stopped after ${received} of ${total} bytes: run the command again.`);
      }
      await rename(partial, file);
      progress.stop(`${received} bytes`);
      const counts = done.counts;
      const entities = counts ? Object.values(counts.entities ?? {}).reduce((a, b) => a + b, 0) : 0;
      print(`Exported ${options.project} to ${file} (${received} bytes): ${entities} entities, ${counts?.links ?? 0} links, ${counts?.assets ?? 0} files.`);
    });
}
