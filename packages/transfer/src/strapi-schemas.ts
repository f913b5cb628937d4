// A project's model as Strapi 5 holds it in memory, which is what `strapi export` writes under
// `schemas/` and what `strapi import` compares with the destination app's (differences in
// anything but `private`, `required` and `configurable` stop the import): each type's schema.json
// as given, plus the attributes Strapi adds to every content type and the names it derives.
import type { Component, ContentType, Model } from '@cms/schema';
import { BUILTIN_SCHEMAS } from './strapi-builtin-schemas.ts';

type Json = Record<string, unknown>;

const pascal = (s: string): string => s.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');

const ADMIN_USER_LINK = {
  type: 'relation', relation: 'oneToOne', target: 'admin::user', configurable: false, writable: false, visible: false, useJoinTable: false, private: true,
};

/** The attributes Strapi 5 adds to every content type (after the declared ones, in this order). */
function systemAttributes(ct: ContentType): Json {
  // `locale` and `localizations` are private on a type without i18n: the API never shows them.
  const hidden = !ct.localized;
  return {
    createdAt: { type: 'datetime' },
    updatedAt: { type: 'datetime' },
    publishedAt: { type: 'datetime', configurable: false, writable: true, visible: true },
    createdBy: ADMIN_USER_LINK,
    updatedBy: ADMIN_USER_LINK,
    locale: { writable: true, private: hidden, configurable: false, visible: false, type: 'string' },
    localizations: {
      type: 'relation', relation: 'oneToMany', target: ct.uid, writable: false, private: hidden, configurable: false, visible: false,
      unstable_virtual: true, joinColumn: { name: 'document_id', referencedColumn: 'document_id', referencedTable: ct.collectionName },
    },
  };
}

export function contentTypeSchema(ct: ContentType): Json {
  const raw = ct.raw;
  const schema: Json = {
    collectionName: ct.collectionName,
    info: raw.info ?? { singularName: ct.singularName, pluralName: ct.pluralName, displayName: ct.displayName },
    options: raw.options ?? {},
  };
  if (raw.pluginOptions !== undefined) schema.pluginOptions = raw.pluginOptions;
  schema.attributes = { ...(raw.attributes as Json), ...systemAttributes(ct) };
  return { ...schema, kind: ct.kind, modelType: 'contentType', modelName: ct.singularName, uid: ct.uid, globalId: pascal(ct.singularName) };
}

export function componentSchema(component: Component): Json {
  const raw = component.raw;
  return {
    collectionName: component.collectionName,
    info: raw.info ?? { displayName: component.displayName },
    options: raw.options ?? {},
    attributes: raw.attributes,
    modelType: 'component',
    modelName: component.name,
    uid: component.uid,
    globalId: `Component${pascal(component.category)}${pascal(component.name)}`,
  };
}

/** Every schema of the archive, in Strapi's order: its own types, then the project's, then components. */
export function strapiSchemas(model: Model): Json[] {
  const builtins = Object.values(BUILTIN_SCHEMAS);
  const plugins = builtins.filter((s) => String(s.uid).startsWith('plugin::'));
  const admin = builtins.filter((s) => String(s.uid).startsWith('admin::'));
  return [
    ...plugins,
    ...Object.values(model.contentTypes).map(contentTypeSchema),
    ...admin,
    ...Object.values(model.components).map(componentSchema),
  ];
}
