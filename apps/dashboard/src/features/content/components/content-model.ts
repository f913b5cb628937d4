// What the content manager reads from the project's model: which types there are, how their
// documents are addressed in the REST API, and what each attribute needs in a form or a list.
import type { AttributeSchema, ComponentSchema, ContentTypeSchema, Model } from '../../../model/schema.ts';

export interface ContentType extends ContentTypeSchema {
  uid: string;
}

/** The project's content types, collection types first, each group by display name. */
export function contentTypesOf(model: Model): ContentType[] {
  return Object.entries(model.contentTypes)
    .map(([uid, type]) => ({ ...type, uid }))
    .sort((a, b) => (a.kind === b.kind ? typeLabel(a).localeCompare(typeLabel(b)) : a.kind === 'collectionType' ? -1 : 1));
}

export const typeLabel = (type: ContentTypeSchema) => type.info.displayName || type.info.singularName;
export const isLocalized = (type: ContentTypeSchema) => type.pluginOptions?.i18n?.localized === true;
/** Draft & publish is off unless the schema turns it on (as the platform reads it). */
export const hasDraftAndPublish = (type: ContentTypeSchema) => type.options?.draftAndPublish === true;
export const isSingleType = (type: ContentTypeSchema) => type.kind === 'singleType';

/** The REST path of a type's documents: `/api/articles` (collection) or `/api/homepage` (single). */
export const typePath = (type: ContentTypeSchema) => `/api/${isSingleType(type) ? type.info.singularName : type.info.pluralName}`;

/** Relations, uids and opted-in attributes differ per locale; the others are shared by every locale. */
export function isAttributeLocalized(type: ContentTypeSchema, attr: AttributeSchema): boolean {
  if (!isLocalized(type)) return false;
  return attr.type === 'relation' || attr.type === 'uid' || attr.pluginOptions?.i18n?.localized !== false;
}

/** Attribute types shown as a plain value in a list cell, filtered and sorted by the API. */
const SCALAR_TYPES = new Set<AttributeSchema['type']>([
  'string', 'text', 'email', 'uid', 'integer', 'biginteger', 'float', 'decimal', 'boolean', 'date', 'time', 'datetime', 'enumeration',
]);

/** Attributes a list can show, filter and sort by (password and private ones are never output). */
export function listableAttributes(type: ContentTypeSchema): Array<[string, AttributeSchema]> {
  return Object.entries(type.attributes).filter(([, a]) => SCALAR_TYPES.has(a.type) && !a.private);
}

/** The attribute that names a document (Strapi's "main field"): the first listable text one. */
export function mainFieldOf(schema: ContentTypeSchema | ComponentSchema | undefined): string | null {
  if (!schema) return null;
  const entry = Object.entries(schema.attributes).find(([, a]) => (a.type === 'string' || a.type === 'uid' || a.type === 'email') && !a.private);
  return entry?.[0] ?? null;
}

/** Attributes that are never sent back unchanged: the API does not output them. */
export const isWriteOnly = (attr: AttributeSchema) => attr.type === 'password' || attr.private === true;
