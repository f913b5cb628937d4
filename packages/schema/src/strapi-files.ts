// A model as the files of a Strapi v5 project, both ways: `src/api/<api>/content-types/<name>/schema.json`
// per content type and `src/components/<category>/<name>.json` per component — so a folder the
// CLI pulls works in a Strapi app, and a Strapi project's folder (or files dropped on the
// dashboard) becomes a model. A model exported by this platform (`{contentTypes, components}`)
// and a lone `schema.json` are read too; other files are skipped.
//
// Pure (no file system, no imports) so the dashboard can bundle it: `@cms/schema/strapi-files`.

export interface ModelFile {
  /** path inside the folder (`src/api/post/content-types/post/schema.json`), or a file name */
  path: string;
  text: string;
}

type JsonObject = Record<string, unknown>;

/** A model keyed by uid, its entries as raw `schema.json` documents. */
export interface FilesModel {
  contentTypes: Record<string, JsonObject>;
  components: Record<string, JsonObject>;
}

export interface FilesImport {
  model: FilesModel;
  /** files that are not part of a model (a Strapi project's routes, configs…) */
  skipped: string[];
  /** files that look like model files but cannot be read, with why */
  problems: Array<{ path: string; message: string }>;
}

const CONTENT_TYPE_PATH = /(?:^|\/)api\/[^/]+\/content-types\/([^/]+)\/schema\.json$/;
const COMPONENT_PATH = /(?:^|\/)components\/([^/]+)\/([^/]+)\.json$/;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export function modelFromFiles(files: ModelFile[]): FilesImport {
  const result: FilesImport = { model: { contentTypes: {}, components: {} }, skipped: [], problems: [] };
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
      const singular = json.info.singularName;
      if (typeof singular !== 'string' || !singular) {
        result.problems.push({ path, message: 'has no info.singularName' });
        continue;
      }
      // The platform's uid of a type is api::<singularName>.<singularName>, as Strapi generates it.
      result.model.contentTypes[`api::${singular}.${singular}`] = json;
      continue;
    }
    if (component && isObject(json.attributes)) {
      result.model.components[`${component[1]}.${component[2]}`] = json;
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

/** Where Strapi keeps a content type (`api::<api>.<name>`) or a component (`<category>.<name>`). */
export function modelFilePath(section: keyof FilesModel, uid: string): string {
  if (section === 'contentTypes') {
    const m = /^api::([^./]+)\.([^./]+)$/.exec(uid);
    if (!m) throw new TypeError(`Not a content type uid of a Strapi project: ${uid}`);
    return `src/api/${m[1]}/content-types/${m[2]}/schema.json`;
  }
  const m = /^([^./]+)\.([^./]+)$/.exec(uid);
  if (!m) throw new TypeError(`Not a component uid: ${uid}`);
  return `src/components/${m[1]}/${m[2]}.json`;
}

/** The model as a Strapi project's files (JSON indented by 2, as Strapi writes them). */
export function filesFromModel(model: FilesModel): ModelFile[] {
  const file = (section: keyof FilesModel) => ([uid, schema]: [string, JsonObject]): ModelFile =>
    ({ path: modelFilePath(section, uid), text: JSON.stringify(schema, null, 2) + '\n' });
  return [
    ...Object.entries(model.contentTypes).map(file('contentTypes')),
    ...Object.entries(model.components).map(file('components')),
  ];
}
