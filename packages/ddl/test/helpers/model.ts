// Small builders for normalised models, so DDL tests can state exactly the model they need.
import { parseModel } from '@cms/schema';
import type {
  Attribute, Component, ComponentAttribute, ContentType, DynamicZoneAttribute, MediaAttribute, Model, RawModel,
  RelationAttribute, RelationKind, ScalarAttribute, ScalarType,
} from '@cms/schema';

type Unnamed<T> = Omit<T, 'name'>;
type AttrSpec = Unnamed<Attribute>;

const common = { required: false, private: false, localized: false };

export function scalar(type: ScalarType, opts: Partial<Unnamed<ScalarAttribute>> = {}): AttrSpec {
  return { ...common, kind: 'scalar', type, unique: false, raw: { type }, ...opts };
}

export function relation(kind: RelationKind, target: string, opts: { inversedBy?: string; mappedBy?: string } = {}): AttrSpec {
  const attr: Unnamed<RelationAttribute> = {
    ...common, kind: 'relation', relation: kind, target, owner: !opts.mappedBy,
    many: kind === 'oneToMany' || kind === 'manyToMany', raw: { type: 'relation', relation: kind, target, ...opts },
  };
  if (opts.inversedBy) attr.inversedBy = opts.inversedBy;
  if (opts.mappedBy) attr.mappedBy = opts.mappedBy;
  return attr;
}

export function media(multiple: boolean): AttrSpec {
  const attr: Unnamed<MediaAttribute> = { ...common, kind: 'media', multiple, allowedTypes: null, raw: { type: 'media', multiple } };
  return attr;
}

export function component(uid: string, repeatable = false): AttrSpec {
  const attr: Unnamed<ComponentAttribute> = { ...common, kind: 'component', component: uid, repeatable, raw: { type: 'component', component: uid, repeatable } };
  return attr;
}

export function dynamicZone(components: string[]): AttrSpec {
  const attr: Unnamed<DynamicZoneAttribute> = { ...common, kind: 'dynamiczone', components, raw: { type: 'dynamiczone', components } };
  return attr;
}

function named(attrs: Record<string, AttrSpec>): Record<string, Attribute> {
  return Object.fromEntries(Object.entries(attrs).map(([name, a]) => [name, { ...a, name } as Attribute]));
}

export interface TypeOptions {
  draftAndPublish?: boolean;
  localized?: boolean;
  kind?: 'collectionType' | 'singleType';
  pluralName?: string;
  displayName?: string;
}

export function contentType(singularName: string, attrs: Record<string, AttrSpec>, opts: TypeOptions = {}): ContentType {
  return {
    uid: `api::${singularName}.${singularName}`,
    kind: opts.kind ?? 'collectionType',
    collectionName: `${singularName}s`,
    singularName,
    pluralName: opts.pluralName ?? `${singularName}s`,
    displayName: opts.displayName ?? singularName,
    draftAndPublish: opts.draftAndPublish ?? false,
    localized: opts.localized ?? false,
    attributes: named(attrs),
    raw: {},
  };
}

export function componentType(uid: string, attrs: Record<string, AttrSpec>): Component {
  const [category, name] = uid.split('.') as [string, string];
  return { uid, category, name, collectionName: `components_${category}_${name}`, displayName: name, attributes: named(attrs), raw: {} };
}

export function model(contentTypes: ContentType[], components: Component[] = []): Model {
  return {
    contentTypes: Object.fromEntries(contentTypes.map((c) => [c.uid, c])),
    components: Object.fromEntries(components.map((c) => [c.uid, c])),
  };
}

/** Read a directory of Strapi schema.json files (`content-types/*.json`, `components/<category>/*.json`). */
/** The real normaliser, as the tenancy layer uses it. */
export function parseRawModel(raw: RawModel): Model {
  return parseModel(raw);
}

/** A copy of `m` with one content type or component replaced. */
export function withType(m: Model, replacement: ContentType | Component): Model {
  const copy: Model = { contentTypes: { ...m.contentTypes }, components: { ...m.components } };
  if ('singularName' in replacement) copy.contentTypes[replacement.uid] = replacement;
  else copy.components[replacement.uid] = replacement;
  return copy;
}
