// The model as the management API holds it: Strapi v5 `schema.json` documents keyed by uid.
// Options the dashboard does not edit are kept as they are (an imported schema round-trips).

export type AttributeType =
  | 'string' | 'text' | 'richtext' | 'blocks' | 'email' | 'password' | 'uid'
  | 'integer' | 'biginteger' | 'float' | 'decimal' | 'boolean' | 'date' | 'time' | 'datetime'
  | 'enumeration' | 'json' | 'media' | 'relation' | 'component' | 'dynamiczone';

export interface AttributeSchema {
  type: AttributeType;
  required?: boolean;
  unique?: boolean;
  private?: boolean;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  min?: number | string;
  max?: number | string;
  regex?: string;
  enum?: string[];
  targetField?: string;
  multiple?: boolean;
  allowedTypes?: string[];
  relation?: string;
  target?: string;
  inversedBy?: string;
  mappedBy?: string;
  component?: string;
  repeatable?: boolean;
  components?: string[];
  pluginOptions?: { i18n?: { localized?: boolean } } & Record<string, unknown>;
  [option: string]: unknown;
}

export interface ContentTypeSchema {
  kind: 'collectionType' | 'singleType';
  collectionName?: string;
  info: { singularName: string; pluralName: string; displayName?: string; description?: string };
  options?: { draftAndPublish?: boolean } & Record<string, unknown>;
  pluginOptions?: { i18n?: { localized?: boolean } } & Record<string, unknown>;
  attributes: Record<string, AttributeSchema>;
  [option: string]: unknown;
}

export interface ComponentSchema {
  collectionName?: string;
  info: { displayName?: string; icon?: string; description?: string };
  attributes: Record<string, AttributeSchema>;
  [option: string]: unknown;
}

export interface Model {
  contentTypes: Record<string, ContentTypeSchema>;
  components: Record<string, ComponentSchema>;
}

export interface StoredModel extends Model {
  version: number;
}

export type Section = 'contentTypes' | 'components';

export const USER_TARGET = 'plugin::users-permissions.user';

export const ATTRIBUTE_GROUPS: Array<{ group: string; items: Array<{ value: AttributeType; label: string }> }> = [
  { group: 'Text', items: [
    { value: 'string', label: 'Short text' }, { value: 'text', label: 'Long text' }, { value: 'blocks', label: 'Rich text (blocks)' },
    { value: 'richtext', label: 'Rich text (Markdown)' }, { value: 'email', label: 'Email' }, { value: 'password', label: 'Password' },
    { value: 'uid', label: 'UID' },
  ] },
  { group: 'Number', items: [
    { value: 'integer', label: 'Integer' }, { value: 'biginteger', label: 'Big integer' }, { value: 'float', label: 'Float' }, { value: 'decimal', label: 'Decimal' },
  ] },
  { group: 'Date', items: [{ value: 'date', label: 'Date' }, { value: 'time', label: 'Time' }, { value: 'datetime', label: 'Date and time' }] },
  { group: 'Other', items: [
    { value: 'boolean', label: 'Boolean' }, { value: 'enumeration', label: 'Enumeration' }, { value: 'json', label: 'JSON' }, { value: 'media', label: 'Media' },
  ] },
  { group: 'Structure', items: [
    { value: 'relation', label: 'Relation' }, { value: 'component', label: 'Component' }, { value: 'dynamiczone', label: 'Dynamic zone' },
  ] },
];

export const TYPE_LABELS: Record<AttributeType, string> = Object.fromEntries(ATTRIBUTE_GROUPS.flatMap((g) => g.items.map((i) => [i.value, i.label]))) as Record<AttributeType, string>;

export const TEXT_TYPES = new Set<AttributeType>(['string', 'text', 'richtext', 'email', 'password', 'uid']);
export const NUMBER_TYPES = new Set<AttributeType>(['integer', 'biginteger', 'float', 'decimal']);
export const UNIQUE_TYPES = new Set<AttributeType>(['string', 'text', 'email', 'uid', 'integer', 'biginteger', 'float', 'decimal', 'date', 'time', 'datetime']);
export const DEFAULT_TYPES = new Set<AttributeType>(['string', 'text', 'richtext', 'email', 'uid', 'integer', 'biginteger', 'float', 'decimal', 'boolean', 'date', 'time', 'datetime', 'enumeration', 'json']);

export const sectionOf = (uid: string): Section => (uid.includes('::') ? 'contentTypes' : 'components');

export function displayNameOf(model: Model, uid: string): string {
  if (uid === USER_TARGET) return 'User (end users)';
  const entry = model.contentTypes[uid] ?? model.components[uid];
  return entry?.info.displayName || uid;
}

/** A Strapi-style kebab-case name from a display name (`Blog Post` → `blog-post`). */
export function kebabName(displayName: string): string {
  return displayName.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()
    .replace(/[^a-z0-9]+/g, '-').replace(/^[^a-z]+/, '').replace(/-+$/, '');
}

/** The plural Strapi's builder proposes (editable before creating). */
export function pluralOf(singular: string): string {
  if (/(s|x|z|ch|sh)$/.test(singular)) return `${singular}es`;
  if (/[^aeiou]y$/.test(singular)) return `${singular.slice(0, -1)}ies`;
  return `${singular}s`;
}

/** A short, human summary of an attribute's options for the attributes table. */
export function describeAttribute(model: Model, attr: AttributeSchema): string {
  const parts: string[] = [];
  if (attr.type === 'relation') parts.push(`${attr.relation} → ${displayNameOf(model, attr.target ?? '')}${attr.inversedBy ? ` (inverse: ${attr.inversedBy})` : attr.mappedBy ? ` (inverse of ${attr.mappedBy})` : ''}`);
  if (attr.type === 'component') parts.push(`${attr.repeatable ? 'repeatable ' : ''}${displayNameOf(model, attr.component ?? '')}`);
  if (attr.type === 'dynamiczone') parts.push((attr.components ?? []).map((c) => displayNameOf(model, c)).join(', '));
  if (attr.type === 'media') parts.push(`${attr.multiple ? 'multiple' : 'single'}${attr.allowedTypes?.length ? ` (${attr.allowedTypes.join(', ')})` : ''}`);
  if (attr.type === 'enumeration') parts.push((attr.enum ?? []).join(', '));
  if (attr.type === 'uid' && attr.targetField) parts.push(`from ${attr.targetField}`);
  if (attr.required) parts.push('required');
  if (attr.unique) parts.push('unique');
  if (attr.private) parts.push('private');
  if (attr.minLength !== undefined) parts.push(`min length ${attr.minLength}`);
  if (attr.maxLength !== undefined) parts.push(`max length ${attr.maxLength}`);
  if (attr.min !== undefined) parts.push(`min ${attr.min}`);
  if (attr.max !== undefined) parts.push(`max ${attr.max}`);
  if (attr.regex) parts.push(`matches /${attr.regex}/`);
  if (attr.default !== undefined) parts.push(`default ${JSON.stringify(attr.default)}`);
  if (attr.pluginOptions?.i18n?.localized === false) parts.push('same in every locale');
  return parts.join(' · ');
}
