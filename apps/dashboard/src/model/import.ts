// Reads dropped files into model entries: a single `schema.json`, a whole Strapi project
// (`src/api/<api>/content-types/<name>/schema.json`, `src/components/<category>/<name>.json`),
// or a model exported by this platform (`{contentTypes, components}`). Other files are skipped.
// The reading itself is @cms/schema's (shared with the CLI's `cms schema push`).
import { modelFromFiles, type FilesImport, type ModelFile } from '@cms/schema/strapi-files';
import type { Model } from './schema.ts';

export type DroppedFile = ModelFile;

export interface ImportResult extends Omit<FilesImport, 'model'> {
  model: Model;
}

export function importFiles(files: DroppedFile[]): ImportResult {
  // The entries are the files' schema.json documents as written; the builder checks them.
  return modelFromFiles(files) as unknown as ImportResult;
}

/** Merge imported entries into the working copy (an imported uid replaces the one there). */
export function mergeModels(into: Model, imported: Model): Model {
  return {
    contentTypes: { ...into.contentTypes, ...imported.contentTypes },
    components: { ...into.components, ...imported.components },
  };
}
