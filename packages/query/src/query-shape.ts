// A request's shape: its query with every value the SQL only binds replaced by a `ValueRef` (the
// template), the template as text (the key: equal keys plan to the same SQL) and the values the
// references point at. Values that change the SQL's text are kept as their class (value-classes.ts).
import type { FilterNode, Pagination, Populate, PopulateEntry, QueryAst } from './ast.ts';
import { ValueRef } from './plan-values.ts';
import { compareClass, localeClass, pageClass, searchClass } from './value-classes.ts';

export interface QueryShape<T> {
  key: string;
  /** The request's values, in the order the template's references number them. */
  values: unknown[];
  template: T;
}

/** A REST query whose locale, `_q`, pagination, release and filter values are references. */
export interface QueryTemplate extends Omit<QueryAst, 'locale' | 'search' | 'pagination' | 'release'> {
  locale: ValueRef;
  search?: ValueRef;
  pagination: ValueRef;
  /** A release preview: the id is bound, so every release shares the shape's SQL. */
  release?: ValueRef;
}

type Ref = (raw: unknown, shape: string) => ValueRef;

/** The shape of a parsed REST query (REST content reads, media files, end users). */
export function queryShape(ast: QueryAst): QueryShape<QueryTemplate> {
  const values: unknown[] = [];
  const ref: Ref = (raw, shape) => new ValueRef(values.push(raw) - 1, shape);
  const template: QueryTemplate = {
    sort: ast.sort,
    locale: ref(ast.locale, localeClass(ast.locale)),
    pagination: ref(ast.pagination, pageClass(ast.pagination as Pagination | undefined)),
  };
  if (ast.status !== undefined) template.status = ast.status;
  if (ast.publication !== undefined) template.publication = ast.publication;
  if (ast.search !== undefined) template.search = ref(ast.search, searchClass(ast.search));
  if (ast.release !== undefined) template.release = ref(ast.release, 'value');
  if (ast.fields !== undefined) template.fields = ast.fields;
  if (ast.filters !== undefined) template.filters = filterTemplate(ast.filters, ref);
  if (ast.populate !== undefined) template.populate = populateTemplate(ast.populate, ref);
  return { key: shapeKey(template), values, template };
}

/**
 * A template as text: JSON, except that a reference is written `?"<class>"` — no JSON value looks
 * like that, so no request's own data (a GraphQL JSON value…) can pass for a reference.
 */
export function shapeKey(template: unknown): string {
  if (template instanceof ValueRef) return `?${JSON.stringify(template.shape)}`;
  if (template === undefined) return 'undefined';
  if (typeof template !== 'object' || template === null) return JSON.stringify(template);
  if (Array.isArray(template)) return `[${template.map(shapeKey).join(',')}]`;
  const parts: string[] = [];
  for (const [key, value] of Object.entries(template)) if (value !== undefined) parts.push(`${JSON.stringify(key)}:${shapeKey(value)}`);
  return `{${parts.join(',')}}`;
}

function filterTemplate(node: FilterNode, ref: Ref): FilterNode {
  switch (node.kind) {
    case 'and':
    case 'or':
      return { kind: node.kind, children: node.children.map((c) => filterTemplate(c, ref)) };
    case 'not':
      return { kind: 'not', child: filterTemplate(node.child, ref) };
    case 'compare':
      return { kind: 'compare', path: node.path, op: node.op, value: ref(node.value, compareClass(node.op, node.value)) };
  }
}

function populateTemplate(populate: Populate, ref: Ref): Populate {
  if (populate === '*') return populate;
  return Object.fromEntries(Object.entries(populate).map(([key, entry]) => [key, entryTemplate(entry, ref)]));
}

function entryTemplate(entry: PopulateEntry, ref: Ref): PopulateEntry {
  const out: PopulateEntry = { ...entry };
  if (entry.filters !== undefined) out.filters = filterTemplate(entry.filters, ref);
  if (entry.populate !== undefined) out.populate = populateTemplate(entry.populate, ref);
  if (entry.on !== undefined) out.on = Object.fromEntries(Object.entries(entry.on).map(([uid, sel]) => [uid, entryTemplate(sel, ref)]));
  return out;
}
