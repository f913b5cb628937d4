// Run a migration plan inside the caller's transaction (the caller records the model version).
// Any refusal is a ValidationError thrown before the caller commits, so a refused migration
// leaves the schema exactly as it was.
import type { DbTransaction } from '@cms/db';
import * as attributes from './apply-attribute-steps.ts';
import { syncDocCounts } from './doc-counts.ts';
import * as tables from './apply-table-steps.ts';
import * as settings from './apply-type-settings.ts';
import { createMigrationContext, type MigrationContext } from './migration-context.ts';
import type { MigrationPlan, MigrationStep } from './migration-steps.ts';

export interface ApplyMigrationContext {
  /** The project's default locale: rows of a type that becomes localized get it. */
  defaultLocale: string;
}

export async function applyMigration(tx: DbTransaction, schema: string, plan: MigrationPlan, options: ApplyMigrationContext): Promise<void> {
  const ctx = createMigrationContext(tx, schema, plan, options.defaultLocale);
  for (const step of plan.steps) await applyStep(ctx, step);
  // Last: new tables get the count triggers, and every total is recounted in this transaction.
  await syncDocCounts(tx, schema);
}

async function applyStep(ctx: MigrationContext, step: MigrationStep): Promise<void> {
  switch (step.op) {
    case 'renameAttribute': return tables.renameAttribute(ctx, step.type, step.from, step.attribute);
    case 'createComponent': return tables.createComponent(ctx, step.type);
    case 'createContentType': return tables.createContentType(ctx, step.type);
    case 'dropContentType': return tables.dropContentType(ctx, step.type);
    case 'dropComponent': return tables.dropComponent(ctx, step.type);
    case 'addAttribute': return attributes.addAttribute(ctx, step.type, step.attribute);
    case 'dropAttribute': return attributes.dropAttribute(ctx, step.type, step.attribute);
    case 'replaceAttribute': return attributes.replaceAttribute(ctx, step.type, step.attribute, step.from, step.to);
    case 'changeScalarType': return attributes.changeScalarType(ctx, step.type, step.attribute, step.from, step.to);
    case 'changeEnumeration': return attributes.changeEnumeration(ctx, step.type, step.attribute, step.values);
    case 'addUnique': return attributes.addUnique(ctx, step.type, step.attribute);
    case 'dropUnique': return attributes.dropUnique(ctx, step.type, step.attribute);
    // Outside the transaction, after it commits: CREATE/DROP INDEX CONCURRENTLY (syncModelIndexes).
    case 'addIndex': case 'dropIndex': return;
    case 'changeRelationKind': return attributes.changeRelationKind(ctx, step.type, step.attribute, step.from, step.to);
    case 'changeRelationTarget': return attributes.changeRelationTarget(ctx, step.type, step.attribute, step.from, step.to);
    case 'changeRelationOwner': return attributes.changeRelationOwner(ctx, step.type, step.attribute, step.owner);
    case 'changeMediaMultiple': return attributes.changeMediaMultiple(ctx, step.type, step.attribute, step.multiple);
    case 'changeComponentStorage': return attributes.changeComponentStorage(ctx, step.type, step.attribute, step.from, step.to);
    case 'changeKind': return settings.changeKind(ctx, step.type, step.to);
    case 'enableI18n': return settings.enableI18n(ctx, step.type);
    case 'disableI18n': return settings.disableI18n(ctx, step.type);
    case 'enableDraftAndPublish': return settings.enableDraftAndPublish(ctx, step.type);
    case 'disableDraftAndPublish': return settings.disableDraftAndPublish(ctx, step.type);
  }
}
