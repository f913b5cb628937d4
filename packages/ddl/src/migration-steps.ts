// What a migration does, as a readable, JSON-serialisable list of steps (stored with each model
// version). `applyMigration` interprets them in order against the previous and next models.
import type { Model, RelationKind, ScalarType } from '@cms/schema';

export type AttributeKind = 'scalar' | 'relation' | 'media' | 'component' | 'dynamiczone';

interface StepBase {
  /** uid of the content type or component concerned */
  type: string;
  description: string;
}

interface AttributeStepBase extends StepBase {
  attribute: string;
}

/** Attributes made of component rows (component and dynamic zone). */
export interface ComponentStorage {
  kind: 'component' | 'dynamiczone';
  components: string[];
  /** At most one item per owner (a non-repeatable component). */
  single: boolean;
}

export type MigrationStep =
  | (StepBase & { op: 'createComponent' | 'createContentType' | 'dropContentType' | 'dropComponent' })
  | (AttributeStepBase & { op: 'renameAttribute'; from: string })
  | (AttributeStepBase & { op: 'addAttribute' | 'dropAttribute'; kind: AttributeKind })
  | (AttributeStepBase & { op: 'changeScalarType'; from: ScalarType; to: ScalarType })
  | (AttributeStepBase & { op: 'changeEnumeration'; values: string[] })
  | (AttributeStepBase & { op: 'addUnique' | 'dropUnique' })
  /** `index: true` added or removed: built / dropped CONCURRENTLY once the migration committed (`syncModelIndexes`). */
  | (AttributeStepBase & { op: 'addIndex' | 'dropIndex'; index: string })
  | (AttributeStepBase & { op: 'changeRelationKind'; from: RelationKind; to: RelationKind })
  | (AttributeStepBase & { op: 'changeRelationTarget'; from: string; to: string })
  | (AttributeStepBase & { op: 'changeRelationOwner'; owner: boolean })
  | (AttributeStepBase & { op: 'changeMediaMultiple'; multiple: boolean })
  | (AttributeStepBase & { op: 'changeComponentStorage'; from: ComponentStorage; to: ComponentStorage })
  | (AttributeStepBase & { op: 'replaceAttribute'; from: string; to: string })
  | (StepBase & { op: 'changeKind'; from: 'collectionType' | 'singleType'; to: 'collectionType' | 'singleType' })
  | (StepBase & { op: 'enableI18n' | 'disableI18n' | 'enableDraftAndPublish' | 'disableDraftAndPublish' });

export type MigrationOp = MigrationStep['op'];

export interface MigrationPlan {
  /** The model the schema has now (null: nothing created yet). */
  prev: Model | null;
  next: Model;
  /** For each uid: new attribute name → old attribute name (renames confirmed by the caller). */
  renamedFrom: Record<string, Record<string, string>>;
  steps: MigrationStep[];
}

// Steps that delete stored data when applied. Every other lossy change (narrowing a type, a
// relation or a component, adding a unique constraint) is refused while data would be lost.
const DESTRUCTIVE: ReadonlySet<MigrationOp> = new Set<MigrationOp>(['dropContentType', 'dropComponent', 'dropAttribute', 'replaceAttribute']);

/** Whether applying the step deletes data (what a model editor asks to confirm). */
export function isDestructive(step: MigrationStep): boolean {
  return DESTRUCTIVE.has(step.op);
}
