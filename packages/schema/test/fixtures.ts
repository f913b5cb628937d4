// Builders and assertions shared by the schema tests.
import assert from 'node:assert/strict';
import { blogRawModel } from '../../../test/fixtures/index.ts';
import { ValidationError, type FieldError } from '@cms/errors';
import { parseModel } from '../src/index.ts';

/** The blog example, as `PUT /v1/projects/{slug}/schema` receives it. */
export const blogInput = blogRawModel as () => { contentTypes: Record<string, any>; components: Record<string, any> };

export function contentType(singular: string, attributes: unknown = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    kind: 'collectionType',
    info: { singularName: singular, pluralName: `${singular}s`, displayName: singular },
    attributes,
    ...extra,
  };
}

export function component(attributes: unknown = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { info: { displayName: 'Component' }, attributes, ...extra };
}

/** A model with one content type `api::thing.thing` (plus optional others and components). */
export function thing(attributes: unknown, extra: { typeExtra?: Record<string, unknown>; types?: Record<string, unknown>; components?: Record<string, unknown> } = {}) {
  return {
    contentTypes: { 'api::thing.thing': contentType('thing', attributes, extra.typeExtra), ...extra.types },
    components: extra.components ?? {},
  };
}

export const T = ['contentTypes', 'api::thing.thing'];
export const A = [...T, 'attributes'];

/** parseModel must throw one ValidationError; returns its field errors (checked for shape). */
export function errorsOf(input: unknown): FieldError[] {
  let caught: unknown;
  try {
    parseModel(input);
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof ValidationError, `expected a ValidationError, got ${String(caught)}`);
  const errors = caught.details.errors as FieldError[];
  assert.ok(Array.isArray(errors) && errors.length > 0);
  assert.equal(caught.message, errors.length === 1 ? errors[0]!.message : `${errors.length} errors occurred`);
  for (const e of errors) {
    assert.equal(e.name, 'ValidationError');
    assert.ok(e.path.every((p) => typeof p === 'string'));
  }
  return errors;
}

/** Asserts the exact list of error paths, and that each message matches its pattern. */
export function expectErrors(input: unknown, expected: [path: string[], message: RegExp][]): void {
  const errors = errorsOf(input);
  assert.deepEqual(errors.map((e) => e.path), expected.map(([path]) => path));
  errors.forEach((e, i) => assert.match(e.message, expected[i]![1]));
}

/** One attribute on `thing` must fail with exactly this error. */
export function expectAttributeError(def: unknown, subPath: string[], message: RegExp, name = 'field'): void {
  expectErrors(thing({ [name]: def }), [[[...A, name, ...subPath], message]]);
}

/** The normalised attribute `name` of `thing` without its `raw` copy. */
export function parsedAttribute(def: Record<string, unknown>, name = 'field', extra: Parameters<typeof thing>[1] = {}): Record<string, unknown> {
  const model = parseModel(thing({ [name]: def }, extra));
  const { raw, ...rest } = model.contentTypes['api::thing.thing']!.attributes[name]!;
  assert.deepEqual(raw, def);
  return rest;
}
