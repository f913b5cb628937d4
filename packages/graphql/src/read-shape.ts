// A root field's shape for the read cache: its resolve tree (fields, aliases, arguments, at every
// depth) with the values the SQL only binds replaced by `ValueRef`s — filter values, pagination
// windows, the locale, a release id — while everything that changes the SQL's text stays: field names,
// aliases, sorts, status, publication filters and the class of each value (value-classes.ts).
// The root's `documentId` is left out: the statement binds it when it runs.
//
// Filter inputs are walked without the model, so an object key is taken for an operator when it
// is named like one. An object under such a key is an attribute's filters (an attribute named
// like an operator) or a value no scalar accepts: either way it is kept whole, as one reference
// whose class holds its JSON, so its values are part of the key.
import type { FieldsByTypeName, ResolveTree } from 'graphql-parse-resolve-info';
import { COMPARISON_OPERATORS, compareClass, localeClass, shapeKey, ValueRef, type ComparisonOperator, type QueryShape } from '@cms/query';

type Ref = (raw: unknown, shape: string) => ValueRef;

const OPERATORS = new Set(COMPARISON_OPERATORS.map((op) => op.slice(1)));

const isDict = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function treeShape(tree: ResolveTree): QueryShape<ResolveTree> {
  const values: unknown[] = [];
  const ref: Ref = (raw, shape) => new ValueRef(values.push(raw) - 1, shape);
  const template = fieldTemplate(tree, ref, true);
  return { key: shapeKey(template), values, template };
}

function fieldTemplate(tree: ResolveTree, ref: Ref, root: boolean): ResolveTree {
  const args: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(tree.args)) {
    if (root && name === 'documentId') continue;
    if (name === 'filters') args.filters = isDict(value) ? objectTemplate(value, ref) : value;
    else if (name === 'pagination') args.pagination = ref(value, 'value');
    else if (name === 'locale') args.locale = ref(value, localeClass(value));
    // A release preview's id is bound: every release shares the field's plan and SQL.
    else if (root && name === 'release') args.release = value === null || value === undefined ? value : ref(value, 'value');
    else args[name] = value;
  }
  const fieldsByTypeName: FieldsByTypeName = {};
  for (const [type, fields] of Object.entries(tree.fieldsByTypeName)) {
    fieldsByTypeName[type] = Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, fieldTemplate(field, ref, false)]));
  }
  return { name: tree.name, alias: tree.alias, args: args as ResolveTree['args'], fieldsByTypeName };
}

/** A filter object (`filterNode`'s input): null and absent values stay as they are (it skips or compares them). */
function objectTemplate(filters: Record<string, unknown>, ref: Ref): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === null) out[key] = value;
    else if (key === 'and' || key === 'or') out[key] = Array.isArray(value) ? value.map((item) => itemTemplate(item, ref)) : itemTemplate(value, ref);
    else if (OPERATORS.has(key)) out[key] = isDict(value) ? ref(value, `json:${JSON.stringify(value)}`) : ref(value, compareClass(`$${key}` as ComparisonOperator, value));
    else out[key] = isDict(value) ? objectTemplate(value, ref) : value;
  }
  return out;
}

/** An item of `and`/`or`: a filter object, or (in a scalar's filter) a value compared with `eq`. */
function itemTemplate(item: unknown, ref: Ref): unknown {
  if (item === null) return item;
  return isDict(item) ? objectTemplate(item, ref) : ref(item, compareClass('$eq', item));
}
