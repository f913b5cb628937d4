// The normalised content model: what `parseModel` produces from Strapi v5 schema.json files and
// what every other package (ddl, query, rest, graphql) consumes. Plain JSON-serialisable data.

export const SCALAR_TYPES = [
  'string', 'text', 'richtext', 'blocks', 'email', 'password', 'uid',
  'integer', 'biginteger', 'float', 'decimal', 'boolean',
  'date', 'time', 'datetime', 'enumeration', 'json',
] as const;
export type ScalarType = (typeof SCALAR_TYPES)[number];

export const RELATION_KINDS = ['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany'] as const;
export type RelationKind = (typeof RELATION_KINDS)[number];

/**
 * The users-permissions plugin's end users: the one target of a relation that is not a content
 * type of the model. Its schema is the platform's, so relations to it are one-way.
 */
export const USERS_UID = 'plugin::users-permissions.user';

interface AttributeBase {
  /** Attribute name as declared (also the column name). */
  name: string;
  required: boolean;
  private: boolean;
  /**
   * Effective i18n flag (Strapi's `isLocalizedAttribute`): the owning content type is localized and the
   * attribute opts in (`pluginOptions.i18n.localized: true`) or is a relation or uid. Always false in components.
   */
  localized: boolean;
  /** The attribute definition exactly as given (unknown options kept, ignored). */
  raw: Record<string, unknown>;
}

export interface ScalarAttribute extends AttributeBase {
  kind: 'scalar';
  type: ScalarType;
  unique: boolean;
  /** `index: true`: a btree index on the column (set only when asked; Strapi ignores the option). */
  index?: true;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  /** Numbers: value bounds. */
  min?: number;
  max?: number;
  /** Source of a RegExp, without slashes. */
  regex?: string;
  /** enumeration only */
  enum?: string[];
  /** uid only */
  targetField?: string;
}

export interface MediaAttribute extends AttributeBase {
  kind: 'media';
  multiple: boolean;
  allowedTypes: string[] | null;
}

export interface RelationAttribute extends AttributeBase {
  kind: 'relation';
  relation: RelationKind;
  /** uid of the target content type, or `USERS_UID` */
  target: string;
  inversedBy?: string;
  mappedBy?: string;
  /** This side stores the link table (it has `inversedBy`, or the relation is one-way). */
  owner: boolean;
  /** Seen from this side, does the attribute hold many targets? (oneToMany, manyToMany) */
  many: boolean;
}

export interface ComponentAttribute extends AttributeBase {
  kind: 'component';
  /** component uid `category.name` */
  component: string;
  repeatable: boolean;
  /** repeatable only: item count bounds */
  min?: number;
  max?: number;
}

export interface DynamicZoneAttribute extends AttributeBase {
  kind: 'dynamiczone';
  components: string[];
  min?: number;
  max?: number;
}

export type Attribute = ScalarAttribute | MediaAttribute | RelationAttribute | ComponentAttribute | DynamicZoneAttribute;

export interface ContentType {
  /** `api::{singularName}.{singularName}` */
  uid: string;
  kind: 'collectionType' | 'singleType';
  collectionName: string;
  singularName: string;
  pluralName: string;
  displayName: string;
  draftAndPublish: boolean;
  localized: boolean;
  /** In declaration order (object key order is preserved; names never look like integers). */
  attributes: Record<string, Attribute>;
  /** The schema.json as given. */
  raw: Record<string, unknown>;
}

export interface Component {
  /** `{category}.{name}` */
  uid: string;
  category: string;
  name: string;
  collectionName: string;
  displayName: string;
  attributes: Record<string, Attribute>;
  raw: Record<string, unknown>;
}

export interface Model {
  contentTypes: Record<string, ContentType>;
  components: Record<string, Component>;
}

/** The body of `PUT /v1/projects/{slug}/schema`, kept as given. */
export interface RawModel {
  contentTypes: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
}
