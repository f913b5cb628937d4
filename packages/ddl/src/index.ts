// @cms/ddl: the content model as tables. `physicalModel` names every table and column;
// `createModelStatements` creates a model in a fresh schema; `planMigration` + `applyMigration`
// move a schema from one model to the next in the caller's transaction.
export {
  physicalModel, physicalTable, isToOneRelation,
  type PhysicalModel, type PhysicalTable, type PhysicalContentType, type PhysicalComponent, type PhysicalAttribute,
  type PhysicalScalar, type PhysicalRelation, type PhysicalMedia, type PhysicalComponentAttribute, type PhysicalDynamicZone,
  type PhysicalLinkTable, type PhysicalRelationLink, type PhysicalMediaLink, type ComponentRef,
} from './physical-model.ts';
export {
  COLUMNS, FILES_TABLE, USERS_TABLE, userRoleJson, shortenIdentifier, contentTypeTableName, componentTableName, linkTableName, indexNames,
} from './physical-names.ts';
export { sqlTypeOf } from './column-types.ts';
export { baseMigrations, baseMigrationsFor, SCHEMA_PLACEHOLDER } from './base-migrations.ts';
export { createModelStatements } from './compile-tables.ts';
export { planMigration, type PlanOptions } from './plan-migration.ts';
export { applyMigration, type ApplyMigrationContext } from './apply-migration.ts';
export type { MigrationPlan, MigrationStep, MigrationOp, AttributeKind, ComponentStorage } from './migration-steps.ts';
export { isDestructive } from './migration-steps.ts';
export {
  copyVersionRows, copyAttributeChildren, deleteVersionRows, deleteComponentRows, componentTreeOf,
  type CopyVersionRowsOptions, type IdPair, type ComponentTree,
} from './version-rows.ts';
