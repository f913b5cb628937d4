// The schemas of a model's content types and components: documents as answered (the fields
// @cms/query's type views print, plus every populatable link), write inputs, dynamic zone items
// and the `{data, meta}` envelopes.
import { typeView, type TypeView } from '@cms/query';
import type { Attribute, Component, ContentType, Model } from '@cms/schema';
import type { PhysicalModel } from '@cms/tables';
import { componentTag, linkInput, linkOutput, scalarInput, scalarOutput } from './attribute-schemas.ts';
import { closedObject, nullableType, ref, type JsonSchema } from './json-schema.ts';
import { FIXED_SCHEMAS, type ModelNames } from './names.ts';

/** Fields every row prints that no attribute declares. */
export const SYSTEM_FIELDS: Record<string, JsonSchema> = {
  id: { type: 'integer', description: 'The row id (each draft, published version and locale has its own)' },
  documentId: { type: 'string', description: 'The document id, shared by its drafts, published versions and locales' },
  createdAt: { type: 'string', format: 'date-time' },
  updatedAt: { type: 'string', format: 'date-time' },
  publishedAt: nullableType('string', { format: 'date-time', description: 'null on drafts' }),
  locale: { type: 'string', description: 'The locale code of this version' },
};

/** The scalar fields a view prints, as properties. */
export function fieldProperties(view: TypeView, attributes: Record<string, Attribute>): Record<string, JsonSchema> {
  const props: Record<string, JsonSchema> = {};
  for (const field of view.fields) {
    const attr = Object.hasOwn(attributes, field.name) ? attributes[field.name] : undefined;
    props[field.name] = attr?.kind === 'scalar' ? scalarOutput(attr.type, attr.enum)
      : SYSTEM_FIELDS[field.name] ?? (field.type === 'id' ? SYSTEM_FIELDS.id! : scalarOutput(field.type));
  }
  return props;
}

/** Printed fields plus populatable links of a content type or component. */
function outputProperties(view: TypeView, attributes: Record<string, Attribute>, names: ModelNames): Record<string, JsonSchema> {
  const props = fieldProperties(view, attributes);
  for (const { attr } of view.links) {
    if (attr.kind !== 'scalar') props[attr.name] = { ...linkOutput(attr, names), description: 'Present when populated' };
  }
  return props;
}

/** Every attribute of a write body (private and password ones are writable). */
function inputProperties(attributes: Record<string, Attribute>, names: ModelNames): Record<string, JsonSchema> {
  const props: Record<string, JsonSchema> = {};
  for (const attr of Object.values(attributes)) props[attr.name] = attr.kind === 'scalar' ? scalarInput(attr) : linkInput(attr, names);
  return props;
}

/** The names of a type's populatable links (for `populate`), in schema order. */
export function populatableNames(view: TypeView, localized: boolean): string[] {
  return [...view.links.map((l) => l.attr.name), ...(localized ? ['localizations'] : [])];
}

export function viewOf(model: Model, physical: PhysicalModel, uid: string): TypeView {
  const view = typeView(model, physical, uid);
  if (!view) throw new Error(`no view of ${uid}`);
  return view;
}

function contentTypeSchemas(model: Model, physical: PhysicalModel, type: ContentType, names: ModelNames): Record<string, JsonSchema> {
  const n = names.contentTypes.get(type.uid)!;
  const view = viewOf(model, physical, type.uid);
  const props = outputProperties(view, type.attributes, names);
  if (type.localized) props.localizations = { type: 'array', items: ref(n.schema), description: 'The other locales of the document, when populated' };
  const input = inputProperties(type.attributes, names);
  if (type.localized) input.locale = { type: 'string', description: 'The locale to create in (`?locale` wins)' };
  const flags = [type.draftAndPublish ? 'Draft & Publish' : null, type.localized ? 'localized (i18n)' : null].filter(Boolean).join(', ');
  return {
    [n.schema]: closedObject(props, ['id', 'documentId'], {
      title: type.displayName,
      description: `${type.kind === 'singleType' ? 'Single type' : 'Collection type'} \`${type.uid}\`${flags ? ` (${flags})` : ''}. Scalars are printed unless \`fields\` picks others; links only when populated.`,
    }),
    [n.input]: closedObject(input, [], { title: `${type.displayName} (write)` }),
    [n.request]: closedObject({ data: ref(n.input) }, ['data']),
    [n.response]: closedObject({ data: ref(n.schema), meta: { type: 'object' } }, ['data', 'meta']),
    ...(type.kind === 'collectionType'
      ? { [n.listResponse]: closedObject({ data: { type: 'array', items: ref(n.schema) }, meta: closedObject({ pagination: ref(FIXED_SCHEMAS.pagination) }, ['pagination']) }, ['data', 'meta']) }
      : {}),
  };
}

function componentSchemas(model: Model, physical: PhysicalModel, component: Component, names: ModelNames): Record<string, JsonSchema> {
  const n = names.components.get(component.uid)!;
  const props = outputProperties(viewOf(model, physical, component.uid), component.attributes, names);
  const input = inputProperties(component.attributes, names);
  const idInput = { type: 'integer', minimum: 1, description: 'Updates that item of the draft in place; without it the item is new' };
  const about = { title: component.displayName, description: `Component \`${component.uid}\`` };
  return {
    [n.schema]: closedObject(props, ['id'], about),
    [n.entry]: closedObject({ __component: componentTag(component.uid), ...props }, ['__component', 'id'], about),
    [n.input]: closedObject({ id: idInput, ...input }, [], about),
    [n.entryInput]: closedObject({ __component: componentTag(component.uid), id: idInput, ...input }, ['__component'], about),
  };
}

/** Every schema the model contributes, by name. */
export function modelSchemas(model: Model, physical: PhysicalModel, names: ModelNames): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const type of Object.values(model.contentTypes)) Object.assign(out, contentTypeSchemas(model, physical, type, names));
  for (const component of Object.values(model.components)) Object.assign(out, componentSchemas(model, physical, component, names));
  return out;
}
