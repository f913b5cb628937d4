// The names a model's schemas and operations get in the document: readable (`Restaurant`,
// `RestaurantInput`, `ComponentSharedSeo`, `listRestaurants`) and unique — a name already taken
// (a content type called `restaurant-input`, say) gets a number.
import type { Component, ContentType, Model } from '@cms/schema';
import { pascalCase } from './json-schema.ts';

class NameRegistry {
  private readonly taken = new Set<string>();

  constructor(reserved: readonly string[] = []) {
    for (const name of reserved) this.taken.add(name);
  }

  claim(base: string): string {
    let name = base;
    for (let n = 2; this.taken.has(name); n++) name = `${base}${n}`;
    this.taken.add(name);
    return name;
  }
}

/** Schemas the document defines whatever the model. */
export const FIXED_SCHEMAS = {
  error: 'Error',
  pagination: 'Pagination',
  relationCount: 'RelationCount',
  relationRef: 'RelationTarget',
  toOneInput: 'ToOneRelationInput',
  toManyInput: 'ToManyRelationInput',
  blocks: 'BlocksNode',
  file: 'UploadFile',
  fileInfo: 'UploadFileInfo',
  user: 'UsersPermissionsUser',
  userInput: 'UsersPermissionsUserInput',
  role: 'UsersPermissionsRole',
  auth: 'UsersPermissionsAuth',
  locale: 'I18NLocale',
} as const;

/** Tags of the plugins' operations. */
export const PLUGIN_TAGS = ['Upload', 'Users-Permissions', 'I18n', 'OpenAPI'] as const;

export interface ContentTypeNames {
  /** The tag of its operations: its display name (numbered when another type has it too). */
  tag: string;
  schema: string;
  input: string;
  request: string;
  response: string;
  listResponse: string;
  /** Operation ids: find (list or single), findOne, create, update, delete. */
  ops: { find: string; findOne: string; create: string; update: string; delete: string };
}

export interface ComponentNames {
  schema: string;
  input: string;
  /** Dynamic zone items: the component with its `__component`. */
  entry: string;
  entryInput: string;
}

export interface ModelNames {
  contentTypes: Map<string, ContentTypeNames>;
  components: Map<string, ComponentNames>;
}

/** Names are claimed in two passes: every type's own name first, then what is derived from it. */
export function modelNames(model: Model, reservedOperations: readonly string[]): ModelNames {
  const schemas = new NameRegistry(Object.values(FIXED_SCHEMAS));
  const ops = new NameRegistry(reservedOperations);
  const tags = new NameRegistry(PLUGIN_TAGS);
  const types = Object.values(model.contentTypes);
  const components = Object.values(model.components);
  const typeBase = new Map(types.map((t: ContentType) => [t.uid, schemas.claim(pascalCase(t.singularName))]));
  const componentBase = new Map(components.map((c: Component) => [c.uid, schemas.claim(`Component${pascalCase(c.uid)}`)]));
  const out: ModelNames = { contentTypes: new Map(), components: new Map() };
  for (const t of types) {
    const base = typeBase.get(t.uid)!;
    const plural = pascalCase(t.pluralName);
    const single = t.kind === 'singleType';
    out.contentTypes.set(t.uid, {
      tag: tags.claim(t.displayName),
      schema: base,
      input: schemas.claim(`${base}Input`),
      request: schemas.claim(`${base}Request`),
      response: schemas.claim(`${base}Response`),
      listResponse: schemas.claim(`${base}ListResponse`),
      ops: {
        find: ops.claim(single ? `get${base}` : `list${plural}`),
        findOne: ops.claim(`get${base}${single ? 'Document' : ''}`),
        create: ops.claim(`create${base}`),
        update: ops.claim(`update${base}`),
        delete: ops.claim(`delete${base}`),
      },
    });
  }
  for (const c of components) {
    const base = componentBase.get(c.uid)!;
    out.components.set(c.uid, {
      schema: base,
      input: schemas.claim(`${base}Input`),
      entry: schemas.claim(`${base}Entry`),
      entryInput: schemas.claim(`${base}EntryInput`),
    });
  }
  return out;
}
