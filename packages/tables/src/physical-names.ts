// Every physical name of a project schema is computed here, so the DDL, the migrations and the
// query compilers always agree. Names are deterministic functions of uids and attribute names.
import { createHash } from 'node:crypto';
import { isoTimestamp } from '@cms/db';

const IDENT_MAX = 63;
const TRUNCATED_PREFIX = 54;

/**
 * Postgres silently truncates identifiers past 63 bytes, which could make two long names
 * collide. Cut long names to 54 chars + `_` + 8 hex chars of sha1(full name) instead.
 */
export function shortenIdentifier(name: string): string {
  if (Buffer.byteLength(name, 'utf8') <= IDENT_MAX) return name;
  const hash = createHash('sha1').update(name).digest('hex').slice(0, 8);
  let prefix = name.slice(0, TRUNCATED_PREFIX);
  // Multi-byte characters: keep cutting until the whole name fits in 63 bytes.
  while (Buffer.byteLength(prefix, 'utf8') > TRUNCATED_PREFIX) prefix = prefix.slice(0, -1);
  return `${prefix}_${hash}`;
}

const snake = (s: string): string => s.replace(/-/g, '_');

/** The media library table, created by the base migrations. */
export const FILES_TABLE = 'files';
/** End users of the users-permissions plugin. */
export const USERS_TABLE = 'up_users';

/**
 * A user's role as the content API shows it (`populate=role`: Strapi's role without its
 * permissions), from the row `roleAlias` of platform.roles. Roles live in the control plane, by
 * project and type; users hold their role's type.
 */
export function userRoleJson(roleAlias: string): string {
  const r = roleAlias;
  return `json_build_object('id', ${r}.id, 'name', ${r}.name, 'description', ${r}.description, 'type', ${r}.type, ` +
    `'createdAt', ${isoTimestamp(`${r}.created_at`)}, 'updatedAt', ${isoTimestamp(`${r}.updated_at`)})`;
}

/** System columns (attribute columns are named after their attribute). */
export const COLUMNS = {
  id: 'id',
  documentId: 'document_id',
  locale: 'locale',
  publishedAt: 'published_at',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  createdBy: 'created_by',
  updatedBy: 'updated_by',
  ownerId: 'owner_id',
  ownerType: 'owner_type',
  ownerField: 'owner_field',
  ord: 'ord',
  invOrd: 'inv_ord',
  sourceId: 'source_id',
  targetDocumentId: 'target_document_id',
  targetLocale: 'target_locale',
  fileId: 'file_id',
} as const;

export const CONTENT_TYPE_SYSTEM_COLUMNS: readonly string[] = [
  COLUMNS.id, COLUMNS.documentId, COLUMNS.locale, COLUMNS.publishedAt,
  COLUMNS.createdAt, COLUMNS.updatedAt, COLUMNS.createdBy, COLUMNS.updatedBy,
];
export const COMPONENT_SYSTEM_COLUMNS: readonly string[] = [
  COLUMNS.id, COLUMNS.ownerId, COLUMNS.ownerType, COLUMNS.ownerField, COLUMNS.ord,
];

/** `api::blog-post.blog-post` with singularName `blog-post` → `ct_blog_post`. */
export function contentTypeTableName(singularName: string): string {
  return shortenIdentifier(`ct_${snake(singularName)}`);
}

/** Component `category.name` → `cmp_<category>__<name>`. */
export function componentTableName(componentUid: string): string {
  const dot = componentUid.indexOf('.');
  const category = dot < 0 ? componentUid : componentUid.slice(0, dot);
  const name = dot < 0 ? '' : componentUid.slice(dot + 1);
  return shortenIdentifier(`cmp_${snake(category)}__${snake(name)}`);
}

/** Link table of a relation (owner side) or media attribute of table `table`. */
export function linkTableName(table: string, attribute: string): string {
  return shortenIdentifier(`lnk_${table}__${snake(attribute)}`);
}

/** Column of a scalar attribute: its name, shortened only if Postgres could not hold it. */
export function attributeColumnName(attribute: string): string {
  return shortenIdentifier(attribute);
}

// Index names: `<table>$<purpose>`. Table and attribute names never contain `$`, so a system
// index can never collide with an attribute's index or with another table's.
export const indexNames = {
  /** unique (document_id, locale, published_at IS NULL) */
  version: (table: string) => shortenIdentifier(`${table}$version_key`),
  /** (locale, id) where published */
  published: (table: string) => shortenIdentifier(`${table}$published_idx`),
  /** unique scalar attribute among published rows of a locale */
  uniqueAttribute: (table: string, column: string) => shortenIdentifier(`${table}$unique$${column}`),
  /** component rows by owner */
  owner: (table: string) => shortenIdentifier(`${table}$owner_idx`),
  /** link table: unique (source_id, target_document_id, target_locale) or (source_id, file_id) */
  link: (linkTable: string) => shortenIdentifier(`${linkTable}$link_key`),
  /** link table: unique (source_id) for to-one owner sides and single media */
  source: (linkTable: string) => shortenIdentifier(`${linkTable}$source_key`),
  /** media link table: (file_id), for the cascade from files */
  file: (linkTable: string) => shortenIdentifier(`${linkTable}$file_idx`),
  /** `index: true` on a scalar attribute: (column) */
  attribute: (table: string, column: string) => shortenIdentifier(`${table}$index$${column}`),
  /** link table: (source_id, ord), a row's links in order (to-many sides; a to-one side has `source`) */
  order: (linkTable: string) => shortenLinkIndexName(`${linkTable}$order_idx`),
  /**
   * relation link table: (target_document_id, inv_ord), a document's inverse links in order, their
   * max(inv_ord) on a new link, and the cascade from targets (it replaced `$target_idx`, on target_document_id alone)
   */
  inverseOrder: (linkTable: string) => shortenLinkIndexName(`${linkTable}$inv_order_idx`),
};

/**
 * `shortenIdentifier` with md5 instead of sha1: the base migration that adds the order indexes to
 * existing schemas (`base_0005_link_order_indexes`) computes the same names in SQL, where md5 is
 * built in. Table names are ASCII, so characters are bytes.
 */
export function shortenLinkIndexName(name: string): string {
  if (Buffer.byteLength(name, 'utf8') <= IDENT_MAX) return name;
  return `${name.slice(0, TRUNCATED_PREFIX)}_${createHash('md5').update(name).digest('hex').slice(0, 8)}`;
}
