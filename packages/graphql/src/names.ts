// GraphQL names of a project's model, as Strapi v5's GraphQL plugin derives them:
// types are upperFirst(camelCase(singularName)), components `Component<Category><Name>`,
// queries camelCase(singular/pluralName), enums `ENUM_<TYPE>_<ATTR>`.
import type { Component, ContentType } from '@cms/schema';

/** lodash's word split: separators, lower→upper and digit→letter boundaries. */
function words(text: string): string[] {
  return text
    .split(/[^A-Za-z0-9]+/)
    .flatMap((part) => part.split(/(?<=[a-z])(?=[A-Z])|(?<=[0-9])(?=[A-Za-z])|(?<=[A-Za-z])(?=[0-9])/))
    .filter(Boolean);
}

export const upperFirst = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

export function camelCase(text: string): string {
  return words(text)
    .map((w, i) => (i === 0 ? w.toLowerCase() : upperFirst(w.toLowerCase())))
    .join('');
}

export const pascalCase = (text: string): string => upperFirst(camelCase(text));

export const typeName = (type: ContentType): string => pascalCase(type.singularName);

export const componentTypeName = (component: Component): string =>
  `Component${pascalCase(component.category)}${pascalCase(component.name)}`;

export const findOneQueryName = (type: ContentType): string => camelCase(type.singularName);
export const findQueryName = (type: ContentType): string => camelCase(type.pluralName);
export const connectionSuffix = '_connection';

/** `<Type>EntityResponseCollection {nodes, pageInfo}` of a top-level `_connection`. */
export const entityCollectionName = (typeName: string): string => `${typeName}EntityResponseCollection`;
/** `<Type>RelationResponseCollection {nodes}` of a relation's `_connection`. */
export const relationCollectionName = (typeName: string): string => `${typeName}RelationResponseCollection`;

export const dynamicZoneTypeName = (owner: string, attribute: string): string => `${owner}${pascalCase(attribute)}DynamicZone`;

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** `enumName` when it is a valid GraphQL name, else `ENUM_<TYPE>_<ATTR>`. */
export function enumTypeName(owner: string, attribute: string, enumName?: string): string {
  if (enumName && GRAPHQL_NAME.test(enumName)) return enumName;
  return `ENUM_${owner.toUpperCase()}_${attribute.toUpperCase()}`;
}

/**
 * An enum value as a GraphQL name (Strapi slugifies with `_`). Names that stay invalid or
 * collide get a stable suffix, so every value keeps a distinct member.
 */
export function enumMemberNames(values: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set<string>();
  for (const value of values) {
    let name = value.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^_0-9A-Za-z]+/g, '_');
    if (!GRAPHQL_NAME.test(name)) name = `_${name}`;
    // true/false/null are not allowed as enum member names.
    if (name === 'true' || name === 'false' || name === 'null') name = `_${name}`;
    let unique = name;
    for (let i = 2; used.has(unique); i++) unique = `${name}_${i}`;
    used.add(unique);
    out.set(value, unique);
  }
  return out;
}

/** `{singularName}Changed`: a content type's subscription field (ours; Strapi has no subscriptions). */
export const changedSubscriptionName = (type: ContentType): string => `${findOneQueryName(type)}Changed`;
/** `<Type>ChangeEvent`: what a subscription field yields. */
export const changeEventName = (typeName: string): string => `${typeName}ChangeEvent`;
/** The fields every `<Type>ChangeEvent` has besides the document. */
export const CHANGE_EVENT_FIELDS: readonly string[] = ['event', 'documentId', 'locale', 'position'];
/** The change event's document field: `{singularName}`, or `entry` for a type named like one of the event's own fields. */
export function changedDocumentField(type: ContentType): string {
  const name = findOneQueryName(type);
  return CHANGE_EVENT_FIELDS.includes(name) ? 'entry' : name;
}
/** The root subscription type's name: `Subscription`, unless a content type or component already has it. */
export const subscriptionRootName = (taken: (name: string) => boolean): string => (taken('Subscription') ? 'RootSubscription' : 'Subscription');
