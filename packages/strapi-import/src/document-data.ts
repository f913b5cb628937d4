// A Strapi document version (an export's entity, or a REST answer) → the write body the platform's
// import API takes: only the model's attributes, components and dynamic-zone items without their
// row ids, relations left for the relations pass (relations inside components for the last pass,
// which sends such versions again once every target is in), media as the files' documentIds
// (mapped to this project's file ids by `withFileIds` once the files are imported).
import type { FilesModel } from '@cms/schema/strapi-files';

interface RawAttribute {
  type?: string;
  component?: string;
  repeatable?: boolean;
  multiple?: boolean;
  target?: string;
  mappedBy?: string;
}

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The files (documentIds, in order) of one media attribute of one row of `ownerUid`. */
export type MediaOf = (ownerUid: string, row: Dict, field: string) => string[];

/** The targets (in order) of a relation attribute of one component row; undefined: leave it out. */
export type ComponentRelationsOf = (componentUid: string, row: Dict, field: string) => RelationTarget[] | undefined;

export interface RelationTarget {
  documentId: string;
  locale: string | null;
}

export function attributesOf(model: FilesModel, uid: string): Record<string, RawAttribute> {
  const entry = model.contentTypes[uid] ?? model.components[uid];
  return (isDict(entry) && isDict(entry.attributes) ? entry.attributes : {}) as Record<string, RawAttribute>;
}

/** Owner-side relation attributes of a content type (the inverse sides follow from them). */
export function ownerRelations(model: FilesModel, uid: string): string[] {
  return Object.entries(attributesOf(model, uid)).filter(([, a]) => a.type === 'relation' && !a.mappedBy).map(([name]) => name);
}

/**
 * Attributes left out of every body of `uid`, with why — its own and those of the components it
 * holds (at any depth), named `<uid>.<attribute>` so a source reports each once.
 */
export function unsupportedAttributes(model: FilesModel, uid: string, seen = new Set<string>()): Array<{ what: string; reason: string }> {
  if (seen.has(uid)) return [];
  seen.add(uid);
  return Object.entries(attributesOf(model, uid)).flatMap(([name, a]) => {
    if (a.type === 'password') return [{ what: `${uid}.${name}`, reason: 'password attributes hold hashes that cannot be imported as passwords' }];
    if (a.type === 'component' && a.component) return unsupportedAttributes(model, a.component, seen);
    if (a.type === 'dynamiczone') return ((a as { components?: string[] }).components ?? []).flatMap((c) => unsupportedAttributes(model, c, seen));
    return [];
  });
}

/** Whether any component a content type holds (at any depth) has a relation attribute. */
export function hasComponentRelations(model: FilesModel, uid: string, seen = new Set<string>()): boolean {
  if (seen.has(uid)) return false;
  seen.add(uid);
  const isComponent = !model.contentTypes[uid];
  return Object.values(attributesOf(model, uid)).some((a) =>
    (a.type === 'relation' && isComponent)
    || (a.type === 'component' && a.component !== undefined && hasComponentRelations(model, a.component, seen))
    || (a.type === 'dynamiczone' && ((a as { components?: string[] }).components ?? []).some((c) => hasComponentRelations(model, c, seen))));
}

/**
 * The write body of one row of `uid`. `relationsOf` gives the relations inside components (as
 * `{set: [...]}`); without it, or where it answers undefined, they are left out.
 */
export function bodyOf(model: FilesModel, uid: string, row: Dict, mediaOf: MediaOf, relationsOf?: ComponentRelationsOf): Dict {
  const body: Dict = {};
  const isComponent = !model.contentTypes[uid];
  for (const [name, attr] of Object.entries(attributesOf(model, uid))) {
    const value = row[name];
    switch (attr.type) {
      case 'relation': {
        const targets = isComponent ? relationsOf?.(uid, row, name) : undefined;
        if (targets) body[name] = { set: targets };
        break;
      }
      case 'password':
        break;
      case 'media': {
        const files = mediaOf(uid, row, name);
        body[name] = attr.multiple ? files : files[0] ?? null;
        break;
      }
      case 'component':
        if (value === undefined) break;
        if (attr.repeatable) body[name] = Array.isArray(value) ? value.filter(isDict).map((item) => bodyOf(model, attr.component!, item, mediaOf, relationsOf)) : [];
        else body[name] = isDict(value) ? bodyOf(model, attr.component!, value, mediaOf, relationsOf) : null;
        break;
      case 'dynamiczone':
        if (value === undefined) break;
        body[name] = Array.isArray(value)
          ? value.filter((item): item is Dict => isDict(item) && typeof item.__component === 'string')
            .map((item) => ({ __component: item.__component, ...bodyOf(model, item.__component as string, item, mediaOf, relationsOf) }))
          : [];
        break;
      default:
        if (value !== undefined) body[name] = value;
    }
  }
  return body;
}

/**
 * The body with each media documentId replaced by this project's file id; files that were not
 * imported are left out and named through `missing`.
 */
export function withFileIds(model: FilesModel, uid: string, body: Dict, fileIds: ReadonlyMap<string, number>, missing: (documentId: string, field: string) => void): Dict {
  const out: Dict = { ...body };
  for (const [name, attr] of Object.entries(attributesOf(model, uid))) {
    const value = body[name];
    if (value === undefined || value === null) continue;
    if (attr.type === 'media') {
      const ids = (Array.isArray(value) ? value : [value]).flatMap((documentId) => {
        const id = fileIds.get(String(documentId));
        if (id === undefined) missing(String(documentId), name);
        return id === undefined ? [] : [id];
      });
      out[name] = attr.multiple ? ids : ids[0] ?? null;
    } else if (attr.type === 'component') {
      out[name] = Array.isArray(value)
        ? value.map((item) => withFileIds(model, attr.component!, item as Dict, fileIds, missing))
        : withFileIds(model, attr.component!, value as Dict, fileIds, missing);
    } else if (attr.type === 'dynamiczone' && Array.isArray(value)) {
      out[name] = value.map((item) => withFileIds(model, (item as Dict).__component as string, item as Dict, fileIds, missing));
    }
  }
  return out;
}
