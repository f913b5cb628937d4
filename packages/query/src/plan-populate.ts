// Populate tree → PopulatePlan[] in output order (schema order, `localizations` last).
// Relations the caller may not `find` are left out silently, as Strapi's output sanitiser does.
import type { Attribute, DynamicZoneAttribute } from '@cms/schema';
import type { PhysicalAttribute, PhysicalDynamicZone } from '@cms/tables';
import type { Populate, PopulateEntry } from './ast.ts';
import { lookup, UPLOAD_FILE_UID, USERS_UID, type TypeView } from './model-view.ts';
import { planFields } from './plan-fields.ts';
import { planFilters } from './plan-filters.ts';
import { attributeHop, componentHop, hopIsMany, localizationsHop, viewOf, type PlanEnv } from './plan-hops.ts';
import { planSort } from './plan-sort.ts';
import { invalidKey } from './query-errors.ts';
import type { Hop, PopulatePlan, Selection } from './query-plan.ts';

const LOCALIZATIONS = 'localizations';
const ROLE = 'role';
const USER_ROLE: PopulatePlan = { kind: 'userRole', key: ROLE };

/** A row's selection: its fields and what is populated inside it. */
export function planSelection(env: PlanEnv, view: TypeView, fields: readonly string[] | undefined, populate: Populate | undefined, at: string[]): Selection {
  return { view, fields: planFields(env.model, view, fields, at), populate: planPopulate(env, view, populate, at) };
}

export function planPopulate(env: PlanEnv, view: TypeView, populate: Populate | undefined, at: string[]): PopulatePlan[] {
  if (populate === undefined) return [];
  if (populate === '*') return planStar(env, view);
  const planned = new Map<string, PopulatePlan | null>();
  for (const [key, entry] of Object.entries(populate)) {
    const path = [...at, key];
    if (key === LOCALIZATIONS && localizationsHop(view)) {
      planned.set(key, planRows(env, key, localizationsHop(view)!, true, entry, path));
      continue;
    }
    // An end user's role is populated as a whole, as on `/api/users?populate=role`.
    if (key === ROLE && view.uid === USERS_UID) {
      for (const k of ['fields', 'filters', 'sort', 'populate', 'count', 'on'] as const) if (entry[k] !== undefined) throw invalidKey(k, 'populate', path.join('.'));
      planned.set(key, USER_ROLE);
      continue;
    }
    const found = lookup(env.model, view, key);
    if (found.kind !== 'link') throw invalidKey(key, 'populate', path.join('.'));
    planned.set(key, planLink(env, view, found.attr, found.phys, entry, path));
  }
  // Output order is the schema's, whatever the request's order.
  const out: PopulatePlan[] = [];
  for (const { attr } of view.links) {
    const p = planned.get(attr.name);
    if (p) out.push(p);
  }
  for (const key of [ROLE, LOCALIZATIONS]) {
    const p = planned.get(key);
    if (p) out.push(p);
  }
  return out;
}

function planLink(env: PlanEnv, view: TypeView, attr: Attribute, phys: PhysicalAttribute, entry: PopulateEntry, path: string[]): PopulatePlan | null {
  if (attr.kind === 'dynamiczone') return planDynamicZone(env, view, attr, phys as PhysicalDynamicZone, entry, path);
  const hop = attributeHop(env, view, attr, phys)!;
  if (!readable(env, hop)) return null;
  return planRows(env, attr.name, hop, hopIsMany(hop, attr), entry, path);
}

function readable(env: PlanEnv, hop: Hop): boolean {
  if (hop.kind === 'relation') return env.canFind(hop.target.uid);
  if (hop.kind === 'media') return env.canFind(UPLOAD_FILE_UID);
  return true;
}

function planRows(env: PlanEnv, key: string, hop: Hop, many: boolean, entry: PopulateEntry, path: string[]): PopulatePlan {
  const at = path.join('.');
  if (entry.on !== undefined) throw invalidKey('on', 'populate', at);
  // A count is a relation's (or a multiple media's) size; components have none.
  if (entry.count !== undefined && hop.kind === 'component') throw invalidKey('count', 'populate', at);
  const target = hop.target;
  return {
    kind: 'rows', key, hop, many,
    count: entry.count === true,
    selection: planSelection(env, target, entry.fields, entry.populate, path),
    where: entry.filters ? planFilters(env, target, entry.filters) : null,
    sort: entry.sort ? planSort(env, target, entry.sort) : [],
  };
}

function planDynamicZone(env: PlanEnv, view: TypeView, attr: DynamicZoneAttribute, phys: PhysicalDynamicZone, entry: PopulateEntry, path: string[]): PopulatePlan {
  const at = path.join('.');
  for (const k of ['fields', 'filters', 'sort', 'count'] as const) if (entry[k] !== undefined) throw invalidKey(k, 'populate', at);
  const shared = entry.populate;
  if (shared !== undefined && shared !== '*') {
    // Shared populate keys must exist in at least one of the zone's components.
    for (const key of Object.keys(shared)) {
      const somewhere = phys.components.some((c) => lookup(env.model, viewOf(env, c.uid), key).kind === 'link');
      if (!somewhere) throw invalidKey(key, 'populate', [...path, key].join('.'));
    }
  }
  if (entry.on !== undefined) {
    for (const uid of Object.keys(entry.on)) if (!attr.components.includes(uid)) throw invalidKey(uid, 'populate', at);
  }
  const items: Array<{ hop: Hop; selection: Selection }> = [];
  for (const ref of phys.components) {
    const hop = componentHop(env, view, attr.name, ref.uid);
    let selection: Selection;
    if (entry.on !== undefined) {
      // `on` fragments: components not named are dropped from the array (verified).
      if (!Object.hasOwn(entry.on, ref.uid)) continue;
      const sub = entry.on[ref.uid]!;
      for (const k of ['filters', 'sort', 'count', 'on'] as const) if (sub[k] !== undefined) throw invalidKey(k, 'populate', [...path, ref.uid].join('.'));
      selection = planSelection(env, hop.target, sub.fields, sub.populate, [...path, ref.uid]);
    } else {
      selection = planSelection(env, hop.target, undefined, sharedFor(env, hop.target, shared), path);
    }
    items.push({ hop, selection: { ...selection, component: ref.uid } });
  }
  return { kind: 'dynamiczone', key: attr.name, ownerType: view.uid, ownerField: attr.name, items };
}

/** The part of a zone-wide populate that applies to one component. */
function sharedFor(env: PlanEnv, view: TypeView, shared: Populate | undefined): Populate | undefined {
  if (shared === undefined || shared === '*') return shared;
  return Object.fromEntries(Object.entries(shared).filter(([key]) => lookup(env.model, view, key).kind === 'link'));
}

/** `populate=*`: every relation, media, component and zone one level deep, and `localizations`, with all scalars. */
function planStar(env: PlanEnv, view: TypeView): PopulatePlan[] {
  const out: PopulatePlan[] = [];
  for (const { attr, phys } of view.links) {
    const p = planLink(env, view, attr, phys, {}, [attr.name]);
    if (p) out.push(p);
  }
  if (view.uid === USERS_UID) out.push(USER_ROLE);
  // Strapi adds the document's other locales with their scalars, as `populate[localizations]=true` (verified).
  const localizations = localizationsHop(view);
  if (localizations) out.push(planRows(env, LOCALIZATIONS, localizations, true, {}, [LOCALIZATIONS]));
  return out;
}
