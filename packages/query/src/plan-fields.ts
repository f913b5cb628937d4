// `fields` → the columns a row outputs: `id` (+ `documentId`) always, then the listed scalars in
// output order; timestamps and `locale` only when listed. No list = every visible scalar.
import { lookup, type ScalarField, type TypeView } from './model-view.ts';
import type { Model } from '@cms/schema';
import { invalidKey } from './query-errors.ts';

const ALWAYS = new Set(['id', 'documentId']);

export function planFields(model: Model, view: TypeView, fields: readonly string[] | undefined, at: readonly string[]): ScalarField[] {
  if (fields === undefined) return view.fields;
  const wanted = new Set<string>();
  for (const name of fields) {
    const found = lookup(model, view, name);
    if (found.kind !== 'field') throw invalidKey(name, 'fields', [...at, name].join('.'));
    wanted.add(name);
  }
  return view.fields.filter((f) => ALWAYS.has(f.name) || wanted.has(f.name));
}
