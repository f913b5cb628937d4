// Sort items → SortPlan: a scalar of the type itself, or one reached through relations and
// components (`sort[chef][name]=desc`). The `id ASC` tie-breaker is added by the renderer.
import type { SortItem } from './ast.ts';
import { lookup, type TypeView } from './model-view.ts';
import { attributeHop, type PlanEnv } from './plan-hops.ts';
import { dotted, invalidKey } from './query-errors.ts';
import type { Hop, SortPlan } from './query-plan.ts';

export function planSort(env: PlanEnv, view: TypeView, items: readonly SortItem[]): SortPlan[] {
  return items.map((item) => planSortItem(env, view, item));
}

function planSortItem(env: PlanEnv, view: TypeView, item: SortItem): SortPlan {
  const hops: Hop[] = [];
  let current = view;
  for (let i = 0; i < item.path.length; i++) {
    const name = item.path[i]!;
    const at = dotted(item.path.slice(0, i));
    const found = lookup(env.model, current, name);
    const last = i === item.path.length - 1;
    if (found.kind === 'field' && last) return { hops, field: found.field, direction: item.direction };
    if (found.kind === 'field') throw invalidKey(item.path[i + 1]!, 'sort', dotted(item.path.slice(0, i + 1)));
    // A private or password attribute is named with its own path (`sort=pin` → `path:"pin"`, verified).
    if (found.kind === 'hidden') throw invalidKey(name, 'sort', dotted(item.path.slice(0, i + 1)));
    if (found.kind !== 'link' || last) throw invalidKey(name, 'sort', at);
    const hop = attributeHop(env, current, found.attr, found.phys);
    if (!hop || hop.kind === 'media') throw invalidKey(name, 'sort', at);
    if (hop.kind === 'relation' && !env.canFind(hop.target.uid)) throw invalidKey(name, 'sort', at);
    hops.push(hop);
    current = hop.target;
  }
  throw invalidKey('sort', 'sort', null);
}
