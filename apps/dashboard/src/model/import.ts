// Reads dropped files into model entries: a single `schema.json`, a whole Strapi project
// (`src/api/<api>/content-types/<name>/schema.json`, `src/components/<category>/<name>.json`),
// or a model exported by this platform (`{contentTypes, components}`). Other files are skipped.
import type { ComponentSchema, ContentTypeSchema, Model } from './schema.ts';

export interface DroppedFile {
  /** path inside what was dropped (`src/api/post/content-types/post/schema.json`), or the file name */
  path: string;
  text: string;
}

export interface ImportResult {
  model: Model;
  /** files that are not part of a model (a Strapi project's routes, configs…) */
  skipped: string[];
  /** files that look like model files but cannot be read, with why */
  problems: Array<{ path: string; message: string }>;
}

const CONTENT_TYPE_PATH = /(?:^|\/)api\/[^/]+\/content-types\/([^/]+)\/schema\.json$/;
const COMPONENT_PATH = /(?:^|\/)components\/([^/]+)\/([^/]+)\.json$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function importFiles(files: DroppedFile[]): ImportResult {
  const result: ImportResult = { model: { contentTypes: {}, components: {} }, skipped: [], problems: [] };
  for (const file of files) {
    const path = file.path.replace(/\\/g, '/').replace(/^\.?\//, '');
    if (!path.endsWith('.json')) {
      result.skipped.push(path);
      continue;
    }
    let json: unknown;
    try {
      json = JSON.parse(file.text);
    } catch {
      result.problems.push({ path, message: 'is not valid JSON' });
      continue;
    }
    if (!isObject(json)) {
      result.skipped.push(path);
      continue;
    }
    if (isObject(json.contentTypes)) {
      Object.assign(result.model.contentTypes, json.contentTypes);
      if (isObject(json.components)) Object.assign(result.model.components, json.components);
      continue;
    }
    const component = COMPONENT_PATH.exec(path);
    if (typeof json.kind === 'string' && isObject(json.info) && isObject(json.attributes)) {
      const singular = (json.info as { singularName?: unknown }).singularName;
      if (typeof singular !== 'string' || !singular) {
        result.problems.push({ path, message: 'has no info.singularName' });
        continue;
      }
      // The platform's uid of a type is api::<singularName>.<singularName>, as Strapi generates it.
      result.model.contentTypes[`api::${singular}.${singular}`] = json as unknown as ContentTypeSchema;
      continue;
    }
    if (component && isObject(json.attributes)) {
      result.model.components[`${component[1]}.${component[2]}`] = json as unknown as ComponentSchema;
      continue;
    }
    if (isObject(json.attributes)) {
      result.problems.push({ path, message: CONTENT_TYPE_PATH.test(path)
        ? 'has no kind (collectionType or singleType)'
        : 'looks like a component: drop its category folder (components/<category>/<name>.json) so its uid is known' });
      continue;
    }
    result.skipped.push(path);
  }
  return result;
}

/** Merge imported entries into the working copy (an imported uid replaces the one there). */
export function mergeModels(into: Model, imported: Model): Model {
  return {
    contentTypes: { ...into.contentTypes, ...imported.contentTypes },
    components: { ...into.components, ...imported.components },
  };
}
