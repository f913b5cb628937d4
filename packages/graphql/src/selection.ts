// A GraphQL selection set → the query planner's Selection, so a whole operation field (its
// relations, media, components, zones and their arguments, at any depth) is read by ONE SQL
// statement like a REST populate: round trips never grow with the page size or the depth.
// Populated values are keyed `@<response key>` (see field-resolvers.ts).
import type { FieldsByTypeName, ResolveTree } from 'graphql-parse-resolve-info';
import type { DynamicZoneAttribute } from '@cms/schema';
import type { PhysicalDynamicZone } from '@cms/tables';
import { attributeHop, componentHop, hopIsMany, localizationsHop, lookup, parseSort, planFilters, planSort, UPLOAD_FILE_UID, USERS_UID, viewOf, type FileUseBranch, type Hop, type PlanEnv, type PopulatePlan, type ScalarField, type Selection, type TypeView } from '@cms/query';
import { POPULATED } from './field-resolvers.ts';
import { filterNode } from './filters.ts';
import { connectionSuffix, relationCollectionName } from './names.ts';
import { rowWindow, type GraphqlLimits, type PaginationArgs } from './pagination.ts';
import type { SchemaNames } from './context.ts';

export interface GraphPlanEnv extends PlanEnv {
  names: SchemaNames;
  limits: GraphqlLimits;
}

/** The fields requested on `typeName` (fragments already merged by graphql-parse-resolve-info). */
const fieldsOn = (fields: FieldsByTypeName, typeName: string): ResolveTree[] => Object.values(fields[typeName] ?? {});

/** Sub-selection of field `name` of `parentType` in `tree` (all its aliases merged). */
export function childFields(tree: ResolveTree, parentType: string, name: string): FieldsByTypeName {
  const merged: FieldsByTypeName = {};
  for (const field of fieldsOn(tree.fieldsByTypeName, parentType)) {
    if (field.name !== name) continue;
    for (const [type, fields] of Object.entries(field.fieldsByTypeName)) merged[type] = { ...merged[type], ...fields };
  }
  return merged;
}

/** Sub-selection of `nodes` inside a connection type. */
export const nodesOf = (tree: ResolveTree, collectionType: string): FieldsByTypeName => childFields(tree, collectionType, 'nodes');

export function planTreeSelection(env: GraphPlanEnv, view: TypeView, fields: FieldsByTypeName): Selection {
  const typeName = env.names.typeOf.get(view.uid)!;
  const scalars = new Set<string>();
  const populate: PopulatePlan[] = [];
  for (const tree of fieldsOn(fields, typeName)) {
    if (tree.name.startsWith('__')) continue;
    const connection = tree.name.endsWith(connectionSuffix);
    const name = connection ? tree.name.slice(0, -connectionSuffix.length) : tree.name;
    const key = POPULATED + tree.alias;
    // A user's role is resolved apart (user-roles.ts), by the user's id.
    if (name === 'role' && view.uid === USERS_UID) {
      scalars.add('id');
      continue;
    }
    if (name === 'related' && view.uid === UPLOAD_FILE_UID) {
      populate.push({ kind: 'fileUses', key, branches: fileUseBranches(env, tree) });
      continue;
    }
    if (name === 'localizations' && localizationsHop(view)) {
      populate.push(planRows(env, key, localizationsHop(view)!, true, tree, connection));
      continue;
    }
    const found = lookup(env.model, view, name);
    if (found.kind === 'field') scalars.add(found.field.name);
    if (found.kind !== 'link') continue;
    const { attr, phys } = found;
    if (attr.kind === 'dynamiczone') {
      populate.push(planDynamicZone(env, view, attr, phys as PhysicalDynamicZone, key, tree));
      continue;
    }
    const hop = attributeHop(env, view, attr, phys)!;
    // Targets the caller may not read stay empty (the field resolver answers null / []).
    if (hop.kind === 'relation' && !env.canFind(hop.target.uid)) continue;
    if (hop.kind === 'media' && !env.canFind(UPLOAD_FILE_UID)) continue;
    populate.push(planRows(env, key, hop, hopIsMany(hop, attr), tree, connection));
  }
  const selected: ScalarField[] = view.fields.filter((f) => scalars.has(f.name));
  return { view, fields: selected, populate };
}

function planRows(env: GraphPlanEnv, key: string, hop: Hop, many: boolean, tree: ResolveTree, connection: boolean): PopulatePlan {
  const target = hop.target;
  const typeName = env.names.typeOf.get(target.uid)!;
  const sub = connection ? nodesOf(tree, relationCollectionName(typeName)) : tree.fieldsByTypeName;
  const selection = planTreeSelection(env, target, sub);
  if (!many) return { kind: 'rows', key, hop, many, count: false, selection, where: null, sort: [] };
  const filters = filterNode(env, target, tree.args.filters);
  return {
    kind: 'rows', key, hop, many, count: false, selection,
    where: filters ? planFilters(env, target, filters) : null,
    sort: planSort(env, target, parseSort(tree.args.sort ?? undefined)),
    window: env.binder.bind(tree.args.pagination, (raw: PaginationArgs | undefined) => rowWindow(raw, env.limits)),
  };
}

function planDynamicZone(env: GraphPlanEnv, view: TypeView, attr: DynamicZoneAttribute, phys: PhysicalDynamicZone, key: string, tree: ResolveTree): PopulatePlan {
  const items = phys.components.map((ref) => {
    const hop = componentHop(env, view, attr.name, ref.uid);
    // Every item names its component: the union's resolveType reads `__component`.
    return { hop, selection: { ...planTreeSelection(env, hop.target, tree.fieldsByTypeName), component: ref.uid } };
  });
  return { kind: 'dynamiczone', key, ownerType: view.uid, ownerField: attr.name, items };
}

/**
 * A file's `related` (the `GenericMorph` union): the rows of content types the caller may read
 * that use it in a media attribute, and the components of such rows that do, each shaped by the
 * fragment on its own type and tagged with `__typename`. Only rows in the read's status count.
 */
function fileUseBranches(env: GraphPlanEnv, tree: ResolveTree): FileUseBranch[] {
  const branches: FileUseBranch[] = [];
  const member = (uid: string) => {
    const view = viewOf(env, uid);
    return { ...planTreeSelection(env, view, tree.fieldsByTypeName), typename: env.names.typeOf.get(uid)! };
  };
  for (const link of Object.values(env.physical.linkTables)) {
    if (link.kind !== 'media') continue;
    if (Object.hasOwn(env.physical.contentTypes, link.sourceUid)) {
      if (env.canFind(link.sourceUid)) branches.push({ linkTable: link.name, selection: member(link.sourceUid) });
      continue;
    }
    // A component directly inside a readable content type (deeper nesting is not followed).
    for (const ct of Object.values(env.physical.contentTypes)) {
      if (!env.canFind(ct.uid) || !ct.childComponents.some((c) => c.uid === link.sourceUid)) continue;
      branches.push({ linkTable: link.name, selection: member(link.sourceUid), owner: viewOf(env, ct.uid) });
    }
  }
  return branches;
}
