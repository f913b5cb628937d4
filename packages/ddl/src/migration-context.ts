// What the step handlers of applyMigration share: the transaction, the schema, and the layouts
// before and after. `before` is the previous model with the confirmed renames applied — the
// layout the schema has once the rename steps ran — so every later step names things as `next` does.
import { qualify, quoteIdent, type DbTransaction } from '@cms/db';
import type { ValidationError } from '@cms/errors';
import type { Model } from '@cms/schema';
import type { MigrationPlan } from './migration-steps.ts';
import {
  COLUMNS, physicalModel, physicalTable, type ComponentRef, type ComponentTree, type PhysicalAttribute, type PhysicalModel, type PhysicalTable,
} from '@cms/tables';
import { refusal, schemaPath } from './refusals.ts';
import { applyRenames } from './rename-attributes.ts';
import { exists } from '@cms/db';

const q = quoteIdent;

export interface MigrationContext {
  db: DbTransaction;
  schema: string;
  defaultLocale: string;
  /** Layout before the migration (old attribute names). */
  original: PhysicalModel;
  /** Layout before the migration, renamed attributes under their new names. */
  before: PhysicalModel;
  beforeModel: Model;
  after: PhysicalModel;
  afterModel: Model;
  /** Components whose table was dropped so far. */
  droppedComponents: Set<string>;
  /** Component tables that exist now and may hold children of a row of `uid`. */
  tree: ComponentTree;
}

export function createMigrationContext(db: DbTransaction, schema: string, plan: MigrationPlan, defaultLocale: string): MigrationContext {
  const prev = plan.prev ?? { contentTypes: {}, components: {} };
  const beforeModel = applyRenames(prev, plan.renamedFrom);
  const before = physicalModel(beforeModel);
  const after = physicalModel(plan.next);
  const droppedComponents = new Set<string>();
  const tree: ComponentTree = {
    children(uid) {
      const refs = new Map<string, ComponentRef>();
      for (const layout of [before, after]) {
        for (const c of physicalTable(layout, uid)?.childComponents ?? []) {
          if (!droppedComponents.has(c.uid)) refs.set(c.uid, c);
        }
      }
      return [...refs.values()];
    },
  };
  return {
    db, schema, defaultLocale, original: physicalModel(prev), before, beforeModel, after, afterModel: plan.next, droppedComponents, tree,
  };
}

export function tableBefore(ctx: MigrationContext, uid: string): PhysicalTable {
  const t = physicalTable(ctx.before, uid);
  if (!t) throw new Error(`${uid} is not in the previous model`);
  return t;
}

export function tableAfter(ctx: MigrationContext, uid: string): PhysicalTable {
  const t = physicalTable(ctx.after, uid);
  if (!t) throw new Error(`${uid} is not in the next model`);
  return t;
}

export function attributeBefore(ctx: MigrationContext, uid: string, name: string): PhysicalAttribute {
  const a = tableBefore(ctx, uid).attributes[name];
  if (!a) throw new Error(`attribute ${name} of ${uid} is not in the previous model`);
  return a;
}

export function attributeAfter(ctx: MigrationContext, uid: string, name: string): PhysicalAttribute {
  const a = tableAfter(ctx, uid).attributes[name];
  if (!a) throw new Error(`attribute ${name} of ${uid} is not in the next model`);
  return a;
}

/** A refusal pointing at an attribute (or the type) in the pushed schema. */
export function refuse(uid: string, attribute: string | undefined, message: string, ...more: string[]): ValidationError {
  return refusal([...schemaPath(uid, attribute), ...more], message);
}

/** Whether an attribute (as laid out before the migration, under its current name) holds data. */
export async function attributeHasData(ctx: MigrationContext, uid: string, attr: PhysicalAttribute): Promise<boolean> {
  const table = tableBefore(ctx, uid).table;
  switch (attr.kind) {
    case 'scalar':
      return exists(ctx.db, `SELECT 1 FROM ${qualify(ctx.schema, table)} WHERE ${q(attr.column)} IS NOT NULL`);
    case 'relation':
      return attr.side === 'owner' && exists(ctx.db, `SELECT 1 FROM ${qualify(ctx.schema, attr.linkTable)}`);
    case 'media':
      return exists(ctx.db, `SELECT 1 FROM ${qualify(ctx.schema, attr.linkTable)}`);
    case 'component':
      return componentRowsExist(ctx, [{ uid: attr.component, table: attr.table }], uid, attr.name);
    case 'dynamiczone':
      return componentRowsExist(ctx, attr.components, uid, attr.name);
  }
}

export async function componentRowsExist(ctx: MigrationContext, tables: readonly ComponentRef[], ownerType: string, ownerField: string): Promise<boolean> {
  for (const t of tables) {
    const found = await exists(ctx.db,
      `SELECT 1 FROM ${qualify(ctx.schema, t.table)} WHERE ${q(COLUMNS.ownerType)} = $1 AND ${q(COLUMNS.ownerField)} = $2`,
      [ownerType, ownerField]);
    if (found) return true;
  }
  return false;
}
