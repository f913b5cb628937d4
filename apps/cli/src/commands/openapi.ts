// cms openapi <out.json> --project <slug> — the project's OpenAPI 3.1 document, as the platform
// generates it (`GET /v1/projects/{slug}/openapi.json`), for client generators in any language.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { dataOf } from '../client.ts';
import { connect } from '../context.ts';
import { print, withSpinner } from '../ui.ts';

export function registerOpenapi(program: Command): void {
  program
    .command('openapi')
    .description('write the project\'s OpenAPI 3.1 document')
    .argument('<out>', 'the .json file to write')
    .requiredOption('-p, --project <slug>', 'the project')
    .action(async (out: string, options: { project: string }, command: Command) => {
      const api = await connect(command);
      const document = await withSpinner('Reading the OpenAPI document', () =>
        dataOf(api.v1.GET('/v1/projects/{slug}/openapi.json', { params: { path: { slug: options.project } } })));
      await mkdir(dirname(out), { recursive: true });
      await writeFile(out, JSON.stringify(document, null, 2) + '\n');
      // The document is an open object in the management API's own (it is the project's content API's).
      const { openapi, paths } = document as { openapi?: string; paths?: Record<string, unknown> };
      print(`Wrote the OpenAPI ${openapi ?? ''} document of ${options.project} (${Object.keys(paths ?? {}).length} paths) to ${out}.`);
    });
}
