// The content types (and plugin types) a read plan reads rows of: its root, what it populates and
// what its filters and sorts reach, at any depth. Components are parts of their owners' rows and
// are left out. Used for the answers' `Surrogate-Key` header (@cms/delivery): a change of a
// document of any of these types may change the answer.
import type { FilterPlan, Hop, QueryPlan, Selection, SortPlan } from './query-plan.ts';

// Plans of one shape share their tree (values aside): walked once per root selection.
const known = new WeakMap<Selection, readonly string[]>();

export function typesOfPlan(plan: QueryPlan): readonly string[] {
  let types = known.get(plan.root);
  if (!types) {
    const found = new Set<string>();
    selection(plan.root, found);
    filter(plan.where, found);
    sorts(plan.sort, found);
    known.set(plan.root, (types = [...found]));
  }
  return types;
}

function hop(h: Hop, found: Set<string>): void {
  if (h.target.kind !== 'component') found.add(h.target.uid);
}

function sorts(list: readonly SortPlan[], found: Set<string>): void {
  for (const s of list) for (const h of s.hops) hop(h, found);
}

function filter(f: FilterPlan | null, found: Set<string>): void {
  if (!f) return;
  switch (f.kind) {
    case 'and':
    case 'or':
      for (const c of f.children) filter(c, found);
      return;
    case 'not':
      return filter(f.child, found);
    case 'exists':
      hop(f.hop, found);
      return filter(f.child, found);
    default:
      return;
  }
}

function selection(s: Selection, found: Set<string>): void {
  if (s.view.kind !== 'component') found.add(s.view.uid);
  for (const p of s.populate) {
    switch (p.kind) {
      case 'rows':
        hop(p.hop, found);
        selection(p.selection, found);
        filter(p.where, found);
        sorts(p.sort, found);
        break;
      case 'dynamiczone':
        for (const item of p.items) selection(item.selection, found);
        break;
      case 'fileUses':
        for (const b of p.branches) {
          selection(b.selection, found);
          if (b.owner && b.owner.kind !== 'component') found.add(b.owner.uid);
        }
        break;
      default:
        break;
    }
  }
}
