// Filter tree → FilterPlan. Names are resolved against the model, values cast per attribute type.
//
// Semantics follow Strapi's joins: a condition on `chef.name` is evaluated on the joined chef row,
// and every condition on the same relation within an AND refers to the same related row. We
// render relation paths as EXISTS, so to keep those semantics:
// - `$not` is pushed down to the comparisons (De Morgan holds in SQL's three-valued logic), so
//   `NOT chef.name = x` means "has a chef whose name is not x" like the LEFT JOIN does;
// - sibling conditions on the same relation are merged into one EXISTS;
// - where a condition is true on a missing (all-NULL) joined row — `filters[chef][id][$null]=true`
//   — the EXISTS also accepts rows that have no related row at all.
//
// Values are cast here (a bad one is a 400 before any SQL) and become parameters through the
// binder; what of a value the SQL's shape depends on (value-classes.ts) stays in the plan.
import type { ComparisonOperator, FilterNode } from './ast.ts';
import { castValue, escapeLike } from './cast-values.ts';
import { lookup, type ScalarField, type TypeView } from './model-view.ts';
import { attributeHop, localizationsHop, type PlanEnv } from './plan-hops.ts';
import { dotted, invalidKey, invalidValue } from './query-errors.ts';
import type { FilterPlan, Hop } from './query-plan.ts';
import { compareClass, searchClass } from './value-classes.ts';

const LIKE_OPS: Partial<Record<ComparisonOperator, (v: string) => string>> = {
  $contains: (v) => `%${v}%`,
  $notContains: (v) => `%${v}%`,
  $containsi: (v) => `%${v}%`,
  $notContainsi: (v) => `%${v}%`,
  $startsWith: (v) => `${v}%`,
  $startsWithi: (v) => `${v}%`,
  $endsWith: (v) => `%${v}`,
  $endsWithi: (v) => `%${v}`,
};

export function planFilters(env: PlanEnv, view: TypeView, node: FilterNode): FilterPlan {
  return simplify(planNode(env, view, node, false));
}

function planNode(env: PlanEnv, view: TypeView, node: FilterNode, negate: boolean): FilterPlan {
  switch (node.kind) {
    case 'and':
    case 'or': {
      // De Morgan: under a negation AND becomes OR and vice versa.
      const kind = (node.kind === 'and') !== negate ? 'and' : 'or';
      return { kind, children: node.children.map((c) => planNode(env, view, c, negate)) };
    }
    case 'not':
      return planNode(env, view, node.child, !negate);
    case 'compare':
      return planCompare(env, view, node.path, node.op, node.value, negate);
  }
}

function planCompare(env: PlanEnv, view: TypeView, path: string[], op: ComparisonOperator, value: unknown, negate: boolean): FilterPlan {
  const hops: Array<{ key: string; hop: Hop }> = [];
  let current = view;
  for (let i = 0; i < path.length; i++) {
    const name = path[i]!;
    const at = dotted(path.slice(0, i));
    const last = i === path.length - 1;
    if (name === 'localizations' && localizationsHop(current)) {
      if (last) throw invalidKey(op, 'filters', dotted(path));
      const hop = localizationsHop(current)!;
      hops.push({ key: name, hop });
      current = hop.target;
      continue;
    }
    const found = lookup(env.model, current, name);
    if (found.kind === 'unknown') throw invalidKey(name, 'filters', at);
    // A private or password attribute is named with its own path (`path:"secret"`, verified).
    if (found.kind === 'hidden') throw invalidKey(name, 'filters', dotted(path.slice(0, i + 1)));
    if (found.kind === 'field') {
      if (!last) throw invalidKey(path[i + 1]!, 'filters', dotted(path.slice(0, i + 1)));
      const leaf = compareLeaf(env, found.field, op, value, dotted(path)!);
      return wrapHops(hops, negate ? { kind: 'not', child: leaf } : leaf);
    }
    const { attr, phys } = found;
    // Dynamic zones cannot be filtered at all: the key itself is invalid (verified).
    if (attr.kind === 'dynamiczone') throw invalidKey(name, 'filters', at);
    // Operators apply to scalars only (Strapi answers 500 for `filters[chef][$eq]=1`).
    if (last) throw invalidKey(op, 'filters', dotted(path));
    // Media filters are accepted but match nothing (verified Strapi behaviour).
    if (attr.kind === 'media') return { kind: 'const', value: false };
    const hop = attributeHop(env, current, attr, phys)!;
    if (hop.kind === 'relation' && !env.canFind(hop.target.uid)) throw invalidKey(name, 'filters', at);
    hops.push({ key: name, hop });
    current = hop.target;
  }
  throw new Error('unreachable: a filter path ends with a field');
}

function wrapHops(hops: Array<{ key: string; hop: Hop }>, leaf: FilterPlan): FilterPlan {
  let node = leaf;
  for (let i = hops.length - 1; i >= 0; i--) node = { kind: 'exists', key: hops[i]!.key, hop: hops[i]!.hop, child: node, orMissing: false };
  return node;
}

function compareLeaf(env: PlanEnv, field: ScalarField, op: ComparisonOperator, leaf: unknown, path: string): FilterPlan {
  const compare = (value: Extract<FilterPlan, { kind: 'compare' }>['value']): FilterPlan => ({ kind: 'compare', field, op, value });
  const value = env.binder.rawOf(leaf);
  switch (compareClass(op, value)) {
    case 'null':
      return compare(null);
    case 'empty':
      return compare([]);
    case 'true':
      return compare(true);
    case 'false':
      return compare(false);
    case 'invalid':
      throw invalidValue(field.name, path, 'a boolean', value);
    case 'value':
      return compare(env.binder.bind(leaf, (raw: unknown) => castCompared(field, op, raw, path)));
  }
}

/** A compared value (not one the SQL's shape depends on) as the text(s) bound for the column. */
function castCompared(field: ScalarField, op: ComparisonOperator, value: unknown, path: string): string | string[] {
  const fail = (expected: string) => invalidValue(field.name, path, expected, value);
  const cast = (v: unknown): string => {
    if (v === null || v === undefined) throw fail('a value (null is only allowed with $eq, $ne, $eqi, $nei)');
    return castValue(field.type, v, fail);
  };
  switch (op) {
    case '$in':
    case '$notIn':
      return (Array.isArray(value) ? value : [value]).map(cast);
    case '$between': {
      if (!Array.isArray(value) || value.length !== 2) throw fail('two values');
      return value.map(cast);
    }
    case '$eq':
    case '$ne':
      return cast(value);
    case '$eqi':
    case '$nei':
      // compared as lower(text): any scalar value is fine
      return castValue('string', value, fail);
    default: {
      const like = LIKE_OPS[op];
      if (!like) return cast(value);
      if (value === null || value === undefined) throw fail('a value');
      return like(escapeLike(castValue('string', value, fail)));
    }
  }
}

/** `_q`: Strapi searches `id` and string attributes, plus numeric ones when the term is a number. */
export function planSearch(env: PlanEnv, view: TypeView, term: unknown): FilterPlan | null {
  if (searchClass(env.binder.rawOf(term)) === 'none') return null;
  const strings = new Set(['string', 'text', 'richtext', 'email', 'uid', 'enumeration']);
  const numbers = new Set(['integer', 'biginteger', 'float', 'decimal']);
  return {
    kind: 'search',
    fields: view.fields.filter((f) => f.name === 'id' || strings.has(f.type)),
    numeric: view.fields.filter((f) => numbers.has(f.type)),
    pattern: env.binder.bind(term, (t: string) => `%${escapeLike(t)}%`),
    // "is a number" is a bound flag, so the SQL text does not depend on the term
    isNumber: env.binder.bind(term, (t: string) => t.trim() !== '' && !Number.isNaN(Number(t))),
  };
}

// ───────────────────────── simplification ─────────────────────────

type Truth = 'T' | 'F' | 'U';

/** Flatten nested and/or, merge sibling EXISTS over the same attribute, decide `orMissing`. */
function simplify(node: FilterPlan): FilterPlan {
  if (node.kind === 'not') return { kind: 'not', child: simplify(node.child) };
  if (node.kind === 'exists') {
    const child = simplify(node.child);
    return { ...node, child, orMissing: nullRowTruth(child) === 'T' };
  }
  if (node.kind !== 'and' && node.kind !== 'or') return node;
  const flat: FilterPlan[] = [];
  for (const c of node.children.map(simplify)) {
    if (c.kind === node.kind) flat.push(...c.children);
    else flat.push(c);
  }
  const merged: FilterPlan[] = [];
  const byKey = new Map<string, Extract<FilterPlan, { kind: 'exists' }>>();
  for (const c of flat) {
    if (c.kind !== 'exists') {
      merged.push(c);
      continue;
    }
    const seen = byKey.get(c.key);
    if (!seen) {
      const copy = { ...c, child: { kind: node.kind, children: [c.child] } as FilterPlan };
      byKey.set(c.key, copy);
      merged.push(copy);
    } else {
      (seen.child as { children: FilterPlan[] }).children.push(c.child);
    }
  }
  const children = merged.map((c) => (c.kind === 'exists' ? simplify({ ...c, child: unwrapSingle(c.child) }) : c));
  return children.length === 1 ? children[0]! : { kind: node.kind, children };
}

function unwrapSingle(node: FilterPlan): FilterPlan {
  return (node.kind === 'and' || node.kind === 'or') && node.children.length === 1 ? node.children[0]! : node;
}

/** Three-valued truth of a condition evaluated on an all-NULL row (a LEFT JOIN that found nothing). */
function nullRowTruth(node: FilterPlan): Truth {
  switch (node.kind) {
    case 'const':
      return node.value ? 'T' : 'F';
    case 'search':
      return 'U';
    case 'exists':
      return nullRowTruth(node.child) === 'T' ? 'T' : 'F';
    case 'not': {
      const t = nullRowTruth(node.child);
      return t === 'T' ? 'F' : t === 'F' ? 'T' : 'U';
    }
    case 'and': {
      const ts = node.children.map(nullRowTruth);
      return ts.includes('F') ? 'F' : ts.includes('U') ? 'U' : 'T';
    }
    case 'or': {
      const ts = node.children.map(nullRowTruth);
      return ts.includes('T') ? 'T' : ts.includes('U') ? 'U' : 'F';
    }
    case 'compare':
      switch (node.op) {
        case '$null':
          return node.value ? 'T' : 'F';
        case '$notNull':
          return node.value ? 'F' : 'T';
        case '$eq':
        case '$eqi':
          return node.value === null ? 'T' : 'U';
        case '$ne':
        case '$nei':
          return node.value === null ? 'F' : 'U';
        // A list left in the plan is an empty one (other lists are parameters).
        case '$in':
          return Array.isArray(node.value) ? 'F' : 'U';
        case '$notIn':
          return Array.isArray(node.value) ? 'T' : 'U';
        default:
          return 'U';
      }
  }
}
