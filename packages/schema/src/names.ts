// Naming rules and hard limits. Names become URL segments, GraphQL names and SQL identifiers,
// so they are restricted to a small alphabet and a bounded length before anything else reads them.

export const LIMITS = {
  contentTypes: 200,
  components: 500,
  attributes: 300,
  typeName: 60, // singularName, pluralName
  componentNamePart: 40, // category and name of a component uid
  attributeName: 60,
  collectionName: 60,
  displayName: 100,
  enumValue: 255,
  enumValues: 500,
  enumName: 255,
  regex: 1000,
  nestingDepth: 5,
  /** Nesting of the whole body, JSON defaults and unknown options included. */
  jsonDepth: 100,
} as const;

/** kebab-case: content type singular/plural names, component categories and names. */
export const KEBAB_CASE = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
export const ATTRIBUTE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
export const COLLECTION_NAME = /^[a-z][a-z0-9_]*$/;

/** Columns and fields the platform adds to every content type (camelCase and snake_case forms). */
export const RESERVED_ATTRIBUTE_NAMES: readonly string[] = [
  'id', 'documentId', 'document_id', 'locale', 'localizations',
  'publishedAt', 'published_at', 'createdAt', 'created_at', 'updatedAt', 'updated_at',
  'createdBy', 'created_by', 'updatedBy', 'updated_by',
];

/**
 * Members of Object.prototype: an attribute called `constructor` or `toString` invites
 * `attributes[name]` lookups elsewhere to hit the prototype, so they are refused too.
 */
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);

const RESERVED_LOWER = new Set([...RESERVED_ATTRIBUTE_NAMES, ...PROTOTYPE_NAMES].map((n) => n.toLowerCase()));

/** Reserved compare case-insensitively: `ID` or `PublishedAt` would be as ambiguous as the original. */
export function isReservedAttributeName(name: string): boolean {
  return name.startsWith('__') || RESERVED_LOWER.has(name.toLowerCase());
}

/** Route segments the platform serves itself (upload, users-permissions, i18n, graphql plugins). */
export const RESERVED_ROUTE_NAMES: readonly string[] = [
  'upload', 'users', 'auth', 'i18n', 'users-permissions', 'graphql', 'connect', 'content-type-builder',
  'upload-file', 'upload-files', 'i18n-locale', 'i18n-locales', 'user', 'role', 'roles', 'permission', 'permissions',
];
const RESERVED_ROUTES = new Set(RESERVED_ROUTE_NAMES);

export function isReservedRouteName(name: string): boolean {
  return RESERVED_ROUTES.has(name);
}
