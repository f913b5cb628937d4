// One uniform view over the three kinds of tables a query reads rows from — content types,
// components and the media library — so planning code asks the same questions of each:
// which names are scalars, which are system fields, which are hidden, which lead elsewhere.
import { USERS_UID, type Attribute, type Model, type ScalarType } from '@cms/schema';
import { COLUMNS, USERS_TABLE, type PhysicalAttribute, type PhysicalModel } from '@cms/tables';

/** uid the caller's `canFind` is asked about for populated media. */
export const UPLOAD_FILE_UID = 'plugin::upload.file';
/** uid of the users-permissions plugin's end users (also a relation target of the model). */
export { USERS_UID };

/**
 * Plugin types with a fixed table and no links of their own: queried like content types at the
 * root; users are also reached through relations, files through media.
 */
export const isPluginType = (uid: string) => uid === UPLOAD_FILE_UID || uid === USERS_UID;

/** `id` casts as bigint and prints as a number; everything else casts per its attribute type. */
export type FieldType = ScalarType | 'id';

/** A column that can be output, filtered and sorted. */
export interface ScalarField {
  name: string;
  column: string;
  type: FieldType;
}

export type TableKind = 'contentType' | 'component' | 'plugin';

export interface TypeView {
  kind: TableKind;
  uid: string;
  table: string;
  draftAndPublish: boolean;
  localized: boolean;
  /** Output order: id, documentId, attribute scalars (schema order), timestamps, locale. */
  fields: ScalarField[];
  /** Attribute scalars shown by default (schema order). */
  scalars: ScalarField[];
  /** System fields listed explicitly only (`fields=createdAt`); shown by default after the scalars. */
  trailing: ScalarField[];
  /** Relations, media, components and dynamic zones (schema order). */
  links: Array<{ attr: Attribute; phys: PhysicalAttribute }>;
}

export type Lookup =
  | { kind: 'field'; field: ScalarField }
  | { kind: 'link'; attr: Attribute; phys: PhysicalAttribute }
  | { kind: 'hidden' }
  | { kind: 'unknown' };

const field = (name: string, column: string, type: FieldType): ScalarField => ({ name, column, type });

const ID = field('id', COLUMNS.id, 'id');
const DOCUMENT_ID = field('documentId', COLUMNS.documentId, 'string');
const TIMESTAMPS = [
  field('createdAt', COLUMNS.createdAt, 'datetime'),
  field('updatedAt', COLUMNS.updatedAt, 'datetime'),
  field('publishedAt', COLUMNS.publishedAt, 'datetime'),
];
const LOCALE = field('locale', COLUMNS.locale, 'string');

// The file object of populated media (without isUrlSigned).
const FILE_SCALARS: ScalarField[] = [
  field('name', 'name', 'string'),
  field('alternativeText', 'alternative_text', 'string'),
  field('caption', 'caption', 'string'),
  field('focalPoint', 'focal_point', 'json'),
  field('width', 'width', 'integer'),
  field('height', 'height', 'integer'),
  field('formats', 'formats', 'json'),
  field('hash', 'hash', 'string'),
  field('ext', 'ext', 'string'),
  field('mime', 'mime', 'string'),
  field('size', 'size', 'decimal'),
  field('url', 'url', 'string'),
  field('previewUrl', 'preview_url', 'string'),
  field('provider', 'provider', 'string'),
  field('provider_metadata', 'provider_metadata', 'json'),
];

// The user object: never the password or its tokens, nor the role unless populated.
const USER_SCALARS: ScalarField[] = [
  field('username', 'username', 'string'),
  field('email', 'email', 'email'),
  field('provider', 'provider', 'string'),
  field('confirmed', 'confirmed', 'boolean'),
  field('blocked', 'blocked', 'boolean'),
];

/** Views are derived from the (immutable, cached) model and physical model: build each once. */
const cache = new WeakMap<PhysicalModel, Map<string, TypeView | null>>();

export function typeView(model: Model, physical: PhysicalModel, uid: string): TypeView | null {
  let views = cache.get(physical);
  if (!views) cache.set(physical, (views = new Map()));
  if (views.has(uid)) return views.get(uid)!;
  const view = buildView(model, physical, uid);
  views.set(uid, view);
  return view;
}

function buildView(model: Model, physical: PhysicalModel, uid: string): TypeView | null {
  if (uid === UPLOAD_FILE_UID) return pluginView(uid, physical.filesTable, FILE_SCALARS);
  if (uid === USERS_UID) return pluginView(uid, USERS_TABLE, USER_SCALARS);
  const ct = Object.hasOwn(model.contentTypes, uid) ? model.contentTypes[uid] : undefined;
  const cmp = Object.hasOwn(model.components, uid) ? model.components[uid] : undefined;
  const owner = ct ?? cmp;
  const table = ct ? physical.contentTypes[uid] : physical.components[uid];
  if (!owner || !table) return null;
  const scalars: ScalarField[] = [];
  const links: TypeView['links'] = [];
  for (const [name, attr] of Object.entries(owner.attributes)) {
    const phys = table.attributes[name]!;
    if (attr.kind === 'scalar' && phys.kind === 'scalar') {
      if (!isHidden(attr)) scalars.push(field(name, phys.column, attr.type));
    } else if (!attr.private) {
      links.push({ attr, phys });
    }
  }
  if (!ct) {
    return { kind: 'component', uid, table: table.table, draftAndPublish: false, localized: false, fields: [ID, ...scalars], scalars, trailing: [], links };
  }
  const trailing = ct.localized ? [...TIMESTAMPS, LOCALE] : TIMESTAMPS;
  return {
    kind: 'contentType', uid, table: table.table, draftAndPublish: ct.draftAndPublish, localized: ct.localized,
    fields: [ID, DOCUMENT_ID, ...scalars, ...trailing], scalars, trailing, links,
  };
}

function pluginView(uid: string, table: string, scalars: ScalarField[]): TypeView {
  return {
    kind: 'plugin', uid, table, draftAndPublish: false, localized: false,
    fields: [ID, DOCUMENT_ID, ...scalars, ...TIMESTAMPS], scalars, trailing: TIMESTAMPS, links: [],
  };
}

/** Password and private attributes are never output nor usable in any query parameter. */
function isHidden(attr: Attribute): boolean {
  return attr.private || (attr.kind === 'scalar' && attr.type === 'password');
}

/** Resolve a request name on a view; request names are untrusted, so only own properties count. */
export function lookup(model: Model, view: TypeView, name: string): Lookup {
  const f = view.fields.find((x) => x.name === name);
  if (f) return { kind: 'field', field: f };
  const link = view.links.find((l) => l.attr.name === name);
  if (link) return { kind: 'link', attr: link.attr, phys: link.phys };
  if (view.kind === 'plugin') return { kind: 'unknown' };
  const owner = view.kind === 'contentType' ? model.contentTypes[view.uid] : model.components[view.uid];
  if (owner && Object.hasOwn(owner.attributes, name)) return { kind: 'hidden' };
  return { kind: 'unknown' };
}
