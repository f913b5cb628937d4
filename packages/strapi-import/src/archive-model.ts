// The model of a `strapi export` archive, for an import without the Strapi project folder: its
// `schemas/` hold each content type and component as Strapi keeps it in memory — the schema.json
// file plus the attributes Strapi adds to every content type and the names it derives. Those are
// dropped again and the files read as the folder's would be (@cms/schema's `modelFromFiles`), so
// the model is the same as the folder's.
import { modelFilePath, modelFromFiles, type FilesModel, type ModelFile } from '@cms/schema/strapi-files';
import { readArchive } from './archive.ts';
import { ImportError } from './errors.ts';

type Dict = Record<string, unknown>;

/** Attributes Strapi adds to every content type. */
const SYSTEM_ATTRIBUTES = ['createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy', 'locale', 'localizations'];
/** Keys Strapi derives; a content type's file has `kind`, a component's none of them. */
const DERIVED_KEYS = ['kind', 'modelType', 'modelName', 'uid', 'globalId', 'plugin'];

const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One exported schema as its file (null for Strapi's own types and anything else). */
function fileOf(schema: Dict): ModelFile | null {
  const uid = schema.uid;
  if (typeof uid !== 'string' || !isDict(schema.attributes)) return null;
  const contentType = schema.modelType === 'contentType' && uid.startsWith('api::');
  if (!contentType && schema.modelType !== 'component') return null;
  const file = Object.fromEntries(Object.entries(schema).filter(([key]) => !DERIVED_KEYS.includes(key)));
  if (contentType) {
    file.attributes = Object.fromEntries(Object.entries(schema.attributes).filter(([name]) => !SYSTEM_ATTRIBUTES.includes(name)));
  }
  const json = contentType ? { kind: schema.kind, ...file } : file;
  try {
    return { path: modelFilePath(contentType ? 'contentTypes' : 'components', uid), text: JSON.stringify(json) };
  } catch {
    return null;
  }
}

/** The content types (`api::`) and components of the archive at `path`, as the project folder's files give them. */
export async function modelFromArchive(path: string): Promise<FilesModel> {
  const files: ModelFile[] = [];
  await readArchive(path, {
    line: (stage, item) => {
      const file = stage === 'schemas' ? fileOf(item) : null;
      if (file) files.push(file);
    },
  }, ['schemas']);
  const { model, problems } = modelFromFiles(files);
  if (problems.length) {
    throw new ImportError(`Cannot read the model of ${path}:\n${problems.map((p) => `  ${p.path} ${p.message}`).join('\n')}`);
  }
  if (!Object.keys(model.contentTypes).length && !Object.keys(model.components).length) {
    throw new ImportError(`${path} holds no content types or components (schemas/): pass the Strapi project folder too.`);
  }
  return model;
}
