// cms types <out.d.ts> --project <slug> — TypeScript types of the project's documents.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { connect } from '../context.ts';
import { generateTypes } from '../typegen.ts';
import { print, withSpinner } from '../ui.ts';
import { storedModel } from './schema.ts';

export function registerTypes(program: Command): void {
  program
    .command('types')
    .description('write TypeScript types of the project\'s documents and components (for @strapi/client)')
    .argument('<out>', 'the .d.ts or .ts file to write')
    .requiredOption('-p, --project <slug>', 'the project')
    .action(async (out: string, options: { project: string }, command: Command) => {
      const api = await connect(command);
      const model = await withSpinner('Reading the model', () => storedModel(api, options.project));
      const header = `// Types of the documents of project ${options.project} (model version ${model.version}), written by \`cms types\`.\n`
        + '// Regenerate after changing the model; do not edit.\n';
      const { source, contentTypes, components } = generateTypes(model, header);
      await mkdir(dirname(out), { recursive: true });
      await writeFile(out, source);
      print(`Wrote the types of ${contentTypes} content types and ${components} components to ${out}.`);
    });
}
