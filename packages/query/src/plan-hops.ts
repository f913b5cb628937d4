// Hops: how planning steps from a row of one table to the rows an attribute leads to
// (relation targets, component rows, files, other locale versions).
import type { Attribute, Model } from '@cms/schema';
import type { PhysicalAttribute, PhysicalModel } from '@cms/tables';
import { typeView, UPLOAD_FILE_UID, type TypeView } from './model-view.ts';
import type { Binder } from './plan-values.ts';
import type { Hop } from './query-plan.ts';

export interface PlanEnv {
  model: Model;
  physical: PhysicalModel;
  canFind(uid: string): boolean;
  /** Casts the request's values into parameters (and records how, for its query shape). */
  binder: Binder;
}

export function viewOf(env: PlanEnv, uid: string): TypeView {
  const view = typeView(env.model, env.physical, uid);
  // The model is validated (targets and components exist): a miss is a bug, not a bad request.
  if (!view) throw new Error(`no table for ${uid}`);
  return view;
}

/** The hop of a relation, media or component attribute (dynamic zones have one hop per component). */
export function attributeHop(env: PlanEnv, view: TypeView, attr: Attribute, phys: PhysicalAttribute): Hop | null {
  if (phys.kind === 'relation') return { kind: 'relation', relation: phys, target: viewOf(env, phys.target) };
  if (phys.kind === 'media') return { kind: 'media', linkTable: phys.linkTable, target: viewOf(env, UPLOAD_FILE_UID) };
  if (phys.kind === 'component') return componentHop(env, view, attr.name, phys.component);
  return null;
}

export function componentHop(env: PlanEnv, owner: TypeView, field: string, component: string): Hop {
  return { kind: 'component', ownerType: owner.uid, ownerField: field, target: viewOf(env, component) };
}

/** Other locale versions of the same document: only on localized content types. */
export function localizationsHop(view: TypeView): Hop | null {
  return view.kind === 'contentType' && view.localized ? { kind: 'localizations', target: view } : null;
}

/** Does the hop hold many rows seen from its parent? */
export function hopIsMany(hop: Hop, attr?: Attribute): boolean {
  switch (hop.kind) {
    case 'relation':
      return hop.relation.many;
    case 'localizations':
      return true;
    case 'media':
      return attr?.kind === 'media' ? attr.multiple : true;
    case 'component':
      return attr?.kind === 'component' ? attr.repeatable : false;
  }
}
