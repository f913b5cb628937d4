// @cms/tables: the content model as tables, for everything that reads or writes them.
// `physicalModel` names every table and column of a project schema (so the DDL and the query
// compilers agree); the version-row helpers deep-copy and deep-delete a document version, and
// `deleteLocaleContent` deletes a locale's rows.
// Creating and migrating the tables is @cms/ddl's.
export {
  physicalModel, physicalTable, isToOneRelation,
  type PhysicalModel, type PhysicalTable, type PhysicalContentType, type PhysicalComponent, type PhysicalAttribute,
  type PhysicalScalar, type PhysicalRelation, type PhysicalMedia, type PhysicalComponentAttribute, type PhysicalDynamicZone,
  type PhysicalLinkTable, type PhysicalRelationLink, type PhysicalMediaLink, type ComponentRef,
} from './physical-model.ts';
export {
  COLUMNS, CONTENT_TYPE_SYSTEM_COLUMNS, COMPONENT_SYSTEM_COLUMNS, FILES_TABLE, USERS_TABLE, userRoleJson,
  shortenIdentifier, contentTypeTableName, componentTableName, linkTableName, indexNames,
} from './physical-names.ts';
export { sqlTypeOf } from './column-types.ts';
export {
  copyVersionRows, copyAttributeChildren, deleteVersionRows, deleteComponentRows, componentTreeOf,
  type CopyVersionRowsOptions, type IdPair, type ComponentTree,
} from './version-rows.ts';
export { deleteLocaleContent } from './locale-rows.ts';
