// Entry point: the body of `PUT /v1/projects/{slug}/schema` → the normalised Model, or one
// ValidationError listing every problem. Per-definition checks run first, then the checks that
// need the whole model (unique names, relation pairs, component nesting).
// The model shares structure internally (an attribute's `raw` is the same object as
// `contentType.raw.attributes[name]`): treat it as read-only.
import { checkComponentNesting } from './component-nesting.ts';
import { parseComponent } from './component.ts';
import { parseContentType, type ModelContext, type Parsed } from './content-type.ts';
import { cloneJson, describeType, isObject, own, type JsonObject } from './guards.ts';
import { jsonProblem } from './json-guard.ts';
import { Issues } from './issues.ts';
import { checkCollectionNames, checkRouteNames } from './model-names.ts';
import { LIMITS } from './names.ts';
import { checkRelationPairs } from './relation-pairs.ts';
import type { Component, ContentType, Model } from './types.ts';

export function parseModel(input: unknown): Model {
  const issues = new Issues();
  const sections = readSections(input, issues);
  issues.throwIfAny();
  const { contentTypes, components } = sections!;
  const ctx: ModelContext = {
    contentTypeUids: new Set(Object.keys(contentTypes)),
    componentUids: new Set(Object.keys(components)),
    issues,
  };
  const types = parseAll(contentTypes, ['contentTypes'], issues, (uid, s) => parseContentType(ctx, uid, s));
  const comps = parseAll(components, ['components'], issues, (uid, s) => parseComponent(ctx, uid, s));
  checkRouteNames(types, issues);
  checkCollectionNames(types, comps, issues);
  checkRelationPairs(types, issues);
  checkComponentNesting(comps, issues);
  issues.throwIfAny();
  return {
    contentTypes: Object.fromEntries(types.map((t) => [t.value.uid, t.value])),
    components: Object.fromEntries(comps.map((c) => [c.value.uid, c.value])),
  };
}

/** The two sections, after the guards that make the rest safe to run (shape, size, plain data). */
function readSections(input: unknown, issues: Issues): { contentTypes: JsonObject; components: JsonObject } | undefined {
  if (!isObject(input)) {
    issues.add([], `the model must be an object, got ${describeType(input)}`);
    return undefined;
  }
  const contentTypes = own(input, 'contentTypes');
  const components = own(input, 'components') ?? {};
  if (contentTypes === undefined || contentTypes === null) issues.add(['contentTypes'], 'contentTypes is required');
  else if (!isObject(contentTypes)) issues.add(['contentTypes'], `contentTypes must be an object, got ${describeType(contentTypes)}`);
  else if (Object.keys(contentTypes).length > LIMITS.contentTypes) {
    issues.add(['contentTypes'], `at most ${LIMITS.contentTypes} content types are allowed, got ${Object.keys(contentTypes).length}`);
  }
  if (!isObject(components)) issues.add(['components'], `components must be an object, got ${describeType(components)}`);
  else if (Object.keys(components).length > LIMITS.components) {
    issues.add(['components'], `at most ${LIMITS.components} components are allowed, got ${Object.keys(components).length}`);
  }
  if (issues.count > 0) return undefined;
  // Parse a private deep copy: every `raw` and `default` in the model then points into it (no
  // per-attribute clones on big models) and nothing in the result aliases the caller's input.
  // structuredClone still refuses exotic objects (proxies) that jsonProblem lets through.
  const problem = jsonProblem(input);
  const copy = problem ? undefined : cloneJson({ contentTypes, components });
  if (!copy) {
    issues.add([], problem ?? 'the model must be plain JSON data');
    return undefined;
  }
  return copy as { contentTypes: JsonObject; components: JsonObject };
}

function parseAll<T extends ContentType | Component>(
  section: JsonObject, at: string[], issues: Issues, parse: (uid: string, schema: JsonObject) => Parsed<T>,
): Parsed<T>[] {
  const out: Parsed<T>[] = [];
  for (const uid of Object.keys(section)) {
    const schema = section[uid];
    if (isObject(schema)) out.push(parse(uid, schema));
    else issues.add([...at, uid], `the schema must be an object, got ${describeType(schema)}`);
  }
  return out;
}
