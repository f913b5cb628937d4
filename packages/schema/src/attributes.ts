// The `attributes` object of a content type or component: names, types, and dispatch to the
// parser of each kind. Attributes with problems are left out of the result (the model fails anyway)
// but their names are remembered so cross-model checks do not report them a second time.
import { readBase, type OwnerContext } from './attribute-base.ts';
import { parseComponentAttribute, parseDynamicZone } from './component-attributes.ts';
import { describeType, isObject, own, show, type JsonObject } from './guards.ts';
import type { Path } from './issues.ts';
import { parseMedia } from './media-attribute.ts';
import { ATTRIBUTE_NAME, LIMITS, isReservedAttributeName } from './names.ts';
import { parseRelation } from './relation-attribute.ts';
import { parseScalar } from './scalar-attribute.ts';
import { SCALAR_TYPES, type Attribute, type ScalarType } from './types.ts';

export const ATTRIBUTE_TYPES: readonly string[] = [...SCALAR_TYPES, 'media', 'relation', 'component', 'dynamiczone'];

export interface ParsedAttributes {
  /** Valid attributes, in declaration order. */
  attributes: Map<string, Attribute>;
  /** Every declared name, valid or not. */
  declared: Set<string>;
  /** False when the attributes were not read at all (not an object, or too many). */
  complete: boolean;
}

export function parseAttributes(ctx: OwnerContext, value: unknown, path: Path): ParsedAttributes {
  const result: ParsedAttributes = { attributes: new Map(), declared: new Set(), complete: false };
  const at = [...path, 'attributes'];
  if (value === undefined) {
    ctx.issues.add(at, 'attributes is required');
    return result;
  }
  if (!isObject(value)) {
    ctx.issues.add(at, `attributes must be an object, got ${describeType(value)}`);
    return result;
  }
  const names = Object.keys(value);
  if (names.length > LIMITS.attributes) {
    ctx.issues.add(at, `at most ${LIMITS.attributes} attributes are allowed, got ${names.length}`);
    return result;
  }
  result.complete = true;
  const byLowerCase = new Map<string, string>();
  for (const name of names) {
    result.declared.add(name);
    const nameOk = checkName(ctx, name, byLowerCase, [...at, name]);
    const attr = parseAttribute(ctx, name, own(value, name), [...at, name]);
    if (nameOk && attr) result.attributes.set(name, attr);
  }
  checkTargetFields(ctx, value, result.attributes, at);
  return result;
}

function checkName(ctx: OwnerContext, name: string, byLowerCase: Map<string, string>, path: Path): boolean {
  const problem = name.length > LIMITS.attributeName ? `attribute name ${show(name)} is longer than ${LIMITS.attributeName} characters`
    : isReservedAttributeName(name) ? `attribute name ${show(name)} is reserved`
    : !ATTRIBUTE_NAME.test(name) ? `attribute name ${show(name)} must start with a letter and contain only letters, digits and _`
    : byLowerCase.has(name.toLowerCase()) ? `attribute name ${show(name)} clashes with ${show(byLowerCase.get(name.toLowerCase()))} (names must differ by more than letter case)`
    : null;
  if (problem) {
    ctx.issues.add(path, problem);
    return false;
  }
  byLowerCase.set(name.toLowerCase(), name);
  return true;
}

function parseAttribute(ctx: OwnerContext, name: string, def: unknown, path: Path): Attribute | undefined {
  if (!isObject(def)) {
    ctx.issues.add(path, `attribute definition must be an object, got ${describeType(def)}`);
    return undefined;
  }
  const type = own(def, 'type');
  if (type === undefined || type === null) {
    ctx.issues.add([...path, 'type'], 'type is required');
    return undefined;
  }
  if (typeof type !== 'string' || !ATTRIBUTE_TYPES.includes(type)) {
    ctx.issues.add([...path, 'type'], `type ${show(type)} is not a valid attribute type (one of ${ATTRIBUTE_TYPES.join(', ')})`);
    return undefined;
  }
  if (type === 'dynamiczone' && ctx.kind === 'component') {
    ctx.issues.add([...path, 'type'], 'dynamic zones are not allowed in components');
    return undefined;
  }
  const { base, opts, unique } = readBase(ctx, name, def, type, path);
  switch (type) {
    case 'media': return parseMedia(base, opts);
    case 'relation': return parseRelation(ctx, base, opts);
    case 'component': return parseComponentAttribute(ctx, base, opts);
    case 'dynamiczone': return parseDynamicZone(ctx, base, opts);
    default: return parseScalar(base, type as ScalarType, unique, opts);
  }
}

/** A uid's `targetField` must name a string or text attribute of the same type (the slug source). */
function checkTargetFields(ctx: OwnerContext, defs: JsonObject, attributes: Map<string, Attribute>, at: Path): void {
  for (const attr of attributes.values()) {
    if (attr.kind !== 'scalar' || attr.targetField === undefined) continue;
    const sourceDef = Object.hasOwn(defs, attr.targetField) ? defs[attr.targetField] : undefined;
    const sourceType = isObject(sourceDef) ? own(sourceDef, 'type') : undefined;
    if (sourceType !== 'string' && sourceType !== 'text') {
      ctx.issues.add([...at, attr.name, 'targetField'], `targetField ${show(attr.targetField)} must name a string or text attribute of ${ctx.uid}`);
    }
  }
}
