// GraphQL `filters` arguments → the query AST's FilterNode (the REST side's `filters[...]`), so
// both APIs share one planner: `{name: {eq: "x"}, chef: {name: {containsi: "a"}}, or: [...]}`.
// Inside a scalar's filter input, `and`/`or` take values (each compared with `eq`, verified field set).
// The input may be a shape's template (read-shape.ts): its values are `ValueRef`s, which are no
// filter objects; a reference to an object stands for an attribute named like an operator.
import { ValidationError } from '@cms/errors';
import { LIMITS, lookup, ValueRef, type ComparisonOperator, type FilterNode, type TypeView } from '@cms/query';
import { attributeHop, localizationsHop, type PlanEnv } from '@cms/query';

type Dict = Record<string, unknown>;

const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof ValueRef);

class Budget {
  private nodes = 0;
  visit(depth: number): void {
    if (depth > LIMITS.filterDepth) throw new ValidationError('filters are nested too deeply', { source: 'query', param: 'filters' });
    if (++this.nodes > LIMITS.filterNodes) throw new ValidationError('filters have too many conditions', { source: 'query', param: 'filters' });
  }
}

export function filterNode(env: PlanEnv, view: TypeView, filters: unknown): FilterNode | undefined {
  if (!isDict(filters)) return undefined;
  const node = objectNode(env, view, filters, [], 0, new Budget());
  return node.children.length === 0 ? undefined : node;
}

function objectNode(env: PlanEnv, view: TypeView, obj: Dict, path: string[], depth: number, budget: Budget): { kind: 'and'; children: FilterNode[] } {
  budget.visit(depth);
  const children: FilterNode[] = [];
  for (const [key, value] of Object.entries(obj)) {
    if (value === undefined || value === null) continue;
    if (key === 'and' || key === 'or') {
      const items = (Array.isArray(value) ? value : [value]).filter(isDict);
      children.push({ kind: key, children: items.map((item) => objectNode(env, view, item, path, depth + 1, budget)) });
    } else if (key === 'not') {
      if (isDict(value)) children.push({ kind: 'not', child: objectNode(env, view, value, path, depth + 1, budget) });
    } else {
      const target = nextView(env, view, key);
      const inner = value instanceof ValueRef ? env.binder.rawOf(value) : value;
      if (!isDict(inner)) continue;
      children.push(target ? objectNode(env, target, inner, [...path, key], depth + 1, budget) : scalarNode(inner, [...path, key], depth + 1, budget));
    }
  }
  return { kind: 'and', children };
}

/** The view a relation/component key leads to; null for scalars (the schema admits nothing else). */
function nextView(env: PlanEnv, view: TypeView, key: string): TypeView | null {
  if (key === 'localizations' && localizationsHop(view)) return view;
  const found = lookup(env.model, view, key);
  if (found.kind !== 'link') return null;
  return attributeHop(env, view, found.attr, found.phys)?.target ?? null;
}

function scalarNode(ops: Dict, path: string[], depth: number, budget: Budget): FilterNode {
  budget.visit(depth);
  const children: FilterNode[] = [];
  for (const [op, value] of Object.entries(ops)) {
    if (value === undefined) continue;
    if (op === 'and' || op === 'or') {
      const values = Array.isArray(value) ? value : [value];
      children.push({ kind: op, children: values.map((v) => ({ kind: 'compare', path, op: '$eq', value: v })) });
    } else if (op === 'not') {
      if (isDict(value)) children.push({ kind: 'not', child: scalarNode(value, path, depth + 1, budget) });
    } else {
      children.push({ kind: 'compare', path, op: `$${op}` as ComparisonOperator, value });
    }
  }
  return { kind: 'and', children };
}
