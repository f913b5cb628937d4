// The physical layout of a model: every table, column, link table and index name the DDL creates
// and the REST/GraphQL compilers read. Pure and cheap; compute once per model version and cache.
import { USERS_UID, type Attribute, type Component, type ContentType, type Model, type RelationKind, type ScalarType } from '@cms/schema';
import { sqlTypeOf } from './column-types.ts';
import {
  attributeColumnName, componentTableName, contentTypeTableName, FILES_TABLE, indexNames, linkTableName, USERS_TABLE,
} from './physical-names.ts';

export interface PhysicalScalar {
  kind: 'scalar';
  name: string;
  type: ScalarType;
  column: string;
  sqlType: string;
  /** Partial unique index among published rows of a locale; null when not unique (always null in components). */
  uniqueIndex: string | null;
  /** Btree index on the column asked for with `index: true`; null otherwise. */
  index: string | null;
}

/**
 * A relation attribute. Link rows always go from a row of the owner side (`source_id`) to a
 * target *document* (`target_document_id` + `target_locale`).
 * - side `owner`: this table's rows are `source_id`; the other side is the target document;
 *   order by `ord`.
 * - side `inverse` (mappedBy): the link table is the owner's; this table's documents are the
 *   targets (`target_document_id` = this.document_id, `target_locale` = this.locale, or NULL when
 *   this type is not localized); the other side's rows are `source_id` (rows of `ownerTable`);
 *   order by `inv_ord`.
 */
export interface PhysicalRelation {
  kind: 'relation';
  name: string;
  relation: RelationKind;
  /** Seen from this side, does the attribute hold many targets? */
  many: boolean;
  side: 'owner' | 'inverse';
  /** uid and table of the other side (for the owner: the target type; for the inverse: the owner type). */
  target: string;
  targetTable: string;
  /** The other side (`target`) is a localized type. On the owner side this means its link rows carry `target_locale`. */
  targetLocalized: boolean;
  /** See `PhysicalRelationLink.targetReferenced`. */
  targetReferenced: boolean;
  linkTable: string;
  /** The side that stores the link table, and its attribute. */
  ownerUid: string;
  ownerTable: string;
  ownerAttribute: string;
  /** Order column from this side's point of view. */
  orderColumn: 'ord' | 'inv_ord';
}

export interface PhysicalMedia {
  kind: 'media';
  name: string;
  multiple: boolean;
  linkTable: string;
  orderColumn: 'ord';
}

export interface ComponentRef {
  uid: string;
  table: string;
}

export interface PhysicalComponentAttribute {
  kind: 'component';
  name: string;
  component: string;
  table: string;
  repeatable: boolean;
}

export interface PhysicalDynamicZone {
  kind: 'dynamiczone';
  name: string;
  /** Items of the zone are read by UNION ALL over these tables, ordered by `ord`. */
  components: ComponentRef[];
}

export type PhysicalAttribute = PhysicalScalar | PhysicalRelation | PhysicalMedia | PhysicalComponentAttribute | PhysicalDynamicZone;

interface PhysicalTableBase {
  uid: string;
  table: string;
  /** In declaration order. */
  attributes: Record<string, PhysicalAttribute>;
  /** Scalar attributes only, in declaration order (the table's attribute columns). */
  scalars: PhysicalScalar[];
  /** Component tables that may hold direct children (component / dynamic-zone items) of this table's rows. */
  childComponents: ComponentRef[];
  /** Link tables whose `source_id` references this table (owner-side relations and media). */
  linkTables: string[];
}

export interface PhysicalContentType extends PhysicalTableBase {
  kind: 'contentType';
  draftAndPublish: boolean;
  localized: boolean;
  indexes: { version: string; published: string };
}

export interface PhysicalComponent extends PhysicalTableBase {
  kind: 'component';
  indexes: { owner: string };
}

export type PhysicalTable = PhysicalContentType | PhysicalComponent;

interface LinkTableBase {
  name: string;
  /** The table whose rows are `source_id`, its uid, and the attribute that owns the link table. */
  sourceUid: string;
  sourceTable: string;
  attribute: string;
  /** Unique (source_id): to-one owner sides and single media. */
  toOne: boolean;
  indexes: { link: string; source: string; order: string };
}

export interface PhysicalRelationLink extends LinkTableBase {
  kind: 'relation';
  relation: RelationKind;
  target: string;
  targetTable: string;
  targetLocalized: boolean;
  /**
   * The target table has exactly one row per document (end users: no locales, no drafts), so
   * `target_document_id` references it with ON DELETE CASCADE: deleting a user, by any route,
   * deletes the links to it in the same transaction, and a link can only name an existing user.
   */
  targetReferenced: boolean;
  indexes: { link: string; source: string; order: string; inverseOrder: string };
}

export interface PhysicalMediaLink extends LinkTableBase {
  kind: 'media';
  indexes: { link: string; source: string; order: string; file: string };
}

export type PhysicalLinkTable = PhysicalRelationLink | PhysicalMediaLink;

export interface PhysicalModel {
  filesTable: string;
  contentTypes: Record<string, PhysicalContentType>;
  components: Record<string, PhysicalComponent>;
  /** Every link table of the model, by name. */
  linkTables: Record<string, PhysicalLinkTable>;
}

export function isToOneRelation(kind: RelationKind): boolean {
  return kind === 'oneToOne' || kind === 'manyToOne';
}

/** Content types and components share table/attribute handling; look either up by uid. */
export function physicalTable(physical: PhysicalModel, uid: string): PhysicalTable | undefined {
  return physical.contentTypes[uid] ?? physical.components[uid];
}

const cache = new WeakMap<Model, PhysicalModel>();

export function physicalModel(model: Model): PhysicalModel {
  const hit = cache.get(model);
  if (hit) return hit;
  const built = buildPhysicalModel(model);
  cache.set(model, built);
  return built;
}

function buildPhysicalModel(model: Model): PhysicalModel {
  const result: PhysicalModel = { filesTable: FILES_TABLE, contentTypes: {}, components: {}, linkTables: {} };
  const tableOf = (uid: string): string => {
    if (uid === USERS_UID) return USERS_TABLE;
    const ct = model.contentTypes[uid];
    if (ct) return contentTypeTableName(ct.singularName);
    return componentTableName(uid);
  };
  const localizedType = (uid: string): boolean => model.contentTypes[uid]?.localized ?? false;
  // Only relations to end users: the one target kept in a table of the platform's own.
  const referenced = (uid: string): boolean => uid === USERS_UID;

  const build = (uid: string, table: string, owner: ContentType | Component, isComponent: boolean) => {
    const attributes: Record<string, PhysicalAttribute> = {};
    const scalars: PhysicalScalar[] = [];
    const children = new Map<string, ComponentRef>();
    const links: string[] = [];
    for (const [name, attr] of Object.entries(owner.attributes)) {
      const physicalAttr = physicalAttribute(name, attr, uid, table, isComponent);
      attributes[name] = physicalAttr;
      if (physicalAttr.kind === 'scalar') scalars.push(physicalAttr);
      if (physicalAttr.kind === 'component') children.set(physicalAttr.component, { uid: physicalAttr.component, table: physicalAttr.table });
      if (physicalAttr.kind === 'dynamiczone') for (const c of physicalAttr.components) children.set(c.uid, c);
      if ((physicalAttr.kind === 'relation' && physicalAttr.side === 'owner') || physicalAttr.kind === 'media') {
        links.push(physicalAttr.linkTable);
        result.linkTables[physicalAttr.linkTable] = linkTableOf(uid, table, name, attr);
      }
    }
    return { uid, table, attributes, scalars, childComponents: [...children.values()], linkTables: links };
  };

  const physicalAttribute = (name: string, attr: Attribute, uid: string, table: string, isComponent: boolean): PhysicalAttribute => {
    switch (attr.kind) {
      case 'scalar': {
        const column = attributeColumnName(name);
        return {
          kind: 'scalar', name, type: attr.type, column, sqlType: sqlTypeOf(attr.type),
          uniqueIndex: attr.unique && !isComponent ? indexNames.uniqueAttribute(table, column) : null,
          index: attr.index ? indexNames.attribute(table, column) : null,
        };
      }
      case 'media':
        return { kind: 'media', name, multiple: attr.multiple, linkTable: linkTableName(table, name), orderColumn: 'ord' };
      case 'component':
        return { kind: 'component', name, component: attr.component, table: componentTableName(attr.component), repeatable: attr.repeatable };
      case 'dynamiczone':
        return { kind: 'dynamiczone', name, components: attr.components.map((c) => ({ uid: c, table: componentTableName(c) })) };
      case 'relation': {
        if (attr.owner || !attr.mappedBy) {
          return {
            kind: 'relation', name, relation: attr.relation, many: attr.many, side: 'owner',
            target: attr.target, targetTable: tableOf(attr.target), targetLocalized: localizedType(attr.target),
            targetReferenced: referenced(attr.target),
            linkTable: linkTableName(table, name), ownerUid: uid, ownerTable: table, ownerAttribute: name, orderColumn: 'ord',
          };
        }
        const ownerTable = tableOf(attr.target);
        return {
          kind: 'relation', name, relation: attr.relation, many: attr.many, side: 'inverse',
          target: attr.target, targetTable: ownerTable, targetLocalized: localizedType(attr.target), targetReferenced: false,
          linkTable: linkTableName(ownerTable, attr.mappedBy), ownerUid: attr.target, ownerTable, ownerAttribute: attr.mappedBy,
          orderColumn: 'inv_ord',
        };
      }
    }
  };

  const linkTableOf = (uid: string, table: string, name: string, attr: Attribute): PhysicalLinkTable => {
    const linkTable = linkTableName(table, name);
    if (attr.kind === 'media') {
      return {
        kind: 'media', name: linkTable, sourceUid: uid, sourceTable: table, attribute: name, toOne: !attr.multiple,
        indexes: { link: indexNames.link(linkTable), source: indexNames.source(linkTable), order: indexNames.order(linkTable), file: indexNames.file(linkTable) },
      };
    }
    if (attr.kind !== 'relation') throw new Error(`attribute ${name} of ${uid} has no link table`);
    return {
      kind: 'relation', name: linkTable, sourceUid: uid, sourceTable: table, attribute: name,
      toOne: isToOneRelation(attr.relation), relation: attr.relation,
      target: attr.target, targetTable: tableOf(attr.target), targetLocalized: localizedType(attr.target),
      targetReferenced: referenced(attr.target),
      indexes: {
        link: indexNames.link(linkTable), source: indexNames.source(linkTable), order: indexNames.order(linkTable),
        inverseOrder: indexNames.inverseOrder(linkTable),
      },
    };
  };

  for (const [uid, component] of Object.entries(model.components)) {
    const table = componentTableName(uid);
    result.components[uid] = { kind: 'component', ...build(uid, table, component, true), indexes: { owner: indexNames.owner(table) } };
  }
  for (const [uid, ct] of Object.entries(model.contentTypes)) {
    const table = contentTypeTableName(ct.singularName);
    result.contentTypes[uid] = {
      kind: 'contentType', ...build(uid, table, ct, false),
      draftAndPublish: ct.draftAndPublish, localized: ct.localized,
      indexes: { version: indexNames.version(table), published: indexNames.published(table) },
    };
  }
  return result;
}
