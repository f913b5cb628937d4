// @cms/ddl: creating and migrating a project's tables (their names are @cms/tables').
// `createModelStatements` creates a model in a fresh schema; `planMigration` + `applyMigration`
// move a schema from one model to the next in the caller's transaction.
export { baseFunctionsFor, baseMigrations, baseMigrationsFor, SCHEMA_PLACEHOLDER } from './base-migrations.ts';
export { createModelStatements } from './compile-tables.ts';
export { planMigration, type PlanOptions } from './plan-migration.ts';
export { applyMigration, type ApplyMigrationContext } from './apply-migration.ts';
export type { MigrationPlan, MigrationStep, MigrationOp, AttributeKind, ComponentStorage } from './migration-steps.ts';
export { isDestructive } from './migration-steps.ts';
export { syncModelIndexes, modelIndexes, type IndexSync, type ModelIndex } from './model-indexes.ts';
export { copySchemaRows, referencedFirst, removeCopiedRows, UNCOPIED_TABLES, type CopiedTable } from './copy-schema-rows.ts';
