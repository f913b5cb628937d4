// One attribute as JSON Schema: how the API prints it (output) and what a write body may give
// (input). Output follows @cms/query's formatting (biginteger as a string, decimal as a number,
// dates as `YYYY-MM-DD`, times as `HH:mm:ss.SSS`, datetimes in ISO UTC); input follows
// @cms/documents' parsing and validation options.
import { USERS_UID, type Attribute, type ScalarAttribute, type ScalarType } from '@cms/schema';
import { closedObject, nullableType, orNull, ref, type JsonSchema } from './json-schema.ts';
import { FIXED_SCHEMAS, type ModelNames } from './names.ts';

const TIME_OUTPUT = '^[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}$';
const TIME_INPUT = '^[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,6})?$';
const DECIMAL = '^-?[0-9]+(\\.[0-9]+)?$';
const BIGINT = '^-?[0-9]+$';
// Strapi's uid alphabet (a uid's own `regex` replaces it).
const UID_PATTERN = '^[A-Za-z0-9-_.~]*$';

/** A scalar of this type as printed in answers (every attribute may be null). */
export function scalarOutput(type: ScalarType, enumValues: readonly string[] = []): JsonSchema {
  switch (type) {
    case 'email': return nullableType('string', { format: 'email' });
    case 'blocks': return nullableType('array', { items: ref(FIXED_SCHEMAS.blocks) });
    case 'integer': return nullableType('integer');
    case 'biginteger': return nullableType('string', { pattern: BIGINT, description: 'A 64-bit integer, as a string' });
    case 'float': case 'decimal': return nullableType('number');
    case 'boolean': return nullableType('boolean');
    case 'date': return nullableType('string', { format: 'date' });
    case 'time': return nullableType('string', { pattern: TIME_OUTPUT });
    case 'datetime': return nullableType('string', { format: 'date-time' });
    case 'enumeration': return nullableType('string', { enum: [...enumValues, null] });
    case 'json': return { description: 'Any JSON value' };
    default: return nullableType('string');
  }
}

/** Validation options of a scalar that JSON Schema can state. */
function bounds(attr: ScalarAttribute): JsonSchema {
  const out: JsonSchema = {};
  if (attr.minLength !== undefined) out.minLength = attr.minLength;
  if (attr.maxLength !== undefined) out.maxLength = attr.maxLength;
  if (attr.min !== undefined) out.minimum = attr.min;
  if (attr.max !== undefined) out.maximum = attr.max;
  if (attr.regex !== undefined) out.pattern = attr.regex;
  if (attr.default !== undefined) out.default = attr.default;
  return out;
}

/** A scalar in a write body (`null` clears it). */
export function scalarInput(attr: ScalarAttribute): JsonSchema {
  const more = bounds(attr);
  switch (attr.type) {
    case 'email': return nullableType('string', { format: 'email', ...more });
    case 'uid': return nullableType('string', { pattern: UID_PATTERN, ...more });
    case 'password': return nullableType('string', { writeOnly: true, ...more });
    case 'blocks': return nullableType('array', { items: ref(FIXED_SCHEMAS.blocks), ...more });
    case 'integer': return nullableType('integer', more);
    case 'biginteger': return nullableType(['string', 'integer'], { pattern: BIGINT, ...more });
    case 'float': return nullableType('number', more);
    // A string keeps every digit of a decimal.
    case 'decimal': return nullableType(['number', 'string'], { pattern: DECIMAL, ...more });
    case 'boolean': return nullableType('boolean', more);
    case 'date': return nullableType('string', { format: 'date', ...more });
    case 'time': return nullableType('string', { pattern: TIME_INPUT, ...more });
    case 'datetime': return nullableType('string', { format: 'date-time', ...more });
    case 'enumeration': return nullableType('string', { enum: [...(attr.enum ?? []), null], ...more });
    case 'json': return { description: 'Any JSON value', ...more };
    default: return nullableType('string', more);
  }
}

/** The schema name of what a relation points at: a content type, or the end users. */
function targetSchema(names: ModelNames, target: string): string {
  return target === USERS_UID ? FIXED_SCHEMAS.user : names.contentTypes.get(target)!.schema;
}

const listOf = (items: JsonSchema, more: JsonSchema = {}): JsonSchema => ({ type: 'array', items, ...more });

/** Relations, media, components and dynamic zones as printed when populated. */
export function linkOutput(attr: Exclude<Attribute, ScalarAttribute>, names: ModelNames): JsonSchema {
  switch (attr.kind) {
    case 'relation': {
      const target = ref(targetSchema(names, attr.target));
      // `populate[x][count]=true` answers `{count}` instead of the list.
      return attr.many ? { oneOf: [listOf(target), ref(FIXED_SCHEMAS.relationCount)] } : orNull(target);
    }
    case 'media':
      return attr.multiple ? nullableType('array', { items: ref(FIXED_SCHEMAS.file) }) : orNull(ref(FIXED_SCHEMAS.file));
    case 'component': {
      const schema = ref(names.components.get(attr.component)!.schema);
      return attr.repeatable ? listOf(schema) : orNull(schema);
    }
    case 'dynamiczone':
      return listOf(dynamicZoneItems(attr.components, names, 'entry'));
  }
}

/** A relation, media, component or dynamic zone in a write body. */
export function linkInput(attr: Exclude<Attribute, ScalarAttribute>, names: ModelNames): JsonSchema {
  switch (attr.kind) {
    case 'relation':
      return ref(attr.many ? FIXED_SCHEMAS.toManyInput : FIXED_SCHEMAS.toOneInput);
    case 'media':
      return attr.multiple
        ? nullableType('array', { items: { type: 'integer', minimum: 1 }, description: 'File ids of the media library' })
        : nullableType('integer', { minimum: 1, description: 'A file id of the media library' });
    case 'component': {
      const schema = ref(names.components.get(attr.component)!.input);
      const counts = { ...(attr.min !== undefined ? { minItems: attr.min } : {}), ...(attr.max !== undefined ? { maxItems: attr.max } : {}) };
      return attr.repeatable ? nullableType('array', { items: schema, ...counts }) : orNull(schema);
    }
    case 'dynamiczone': {
      const counts = { ...(attr.min !== undefined ? { minItems: attr.min } : {}), ...(attr.max !== undefined ? { maxItems: attr.max } : {}) };
      return nullableType('array', { items: dynamicZoneItems(attr.components, names, 'entryInput'), ...counts });
    }
  }
}

/** One item of a dynamic zone: one of its components, told apart by `__component`. */
function dynamicZoneItems(components: readonly string[], names: ModelNames, kind: 'entry' | 'entryInput'): JsonSchema {
  const mapping = Object.fromEntries(components.map((uid) => [uid, `#/components/schemas/${names.components.get(uid)![kind]}`]));
  return { oneOf: components.map((uid) => ref(names.components.get(uid)![kind])), discriminator: { propertyName: '__component', mapping } };
}

/** `__component` of a dynamic zone item. */
export const componentTag = (uid: string): JsonSchema => ({ type: 'string', const: uid });

/** Shared schemas of relation inputs (by documentId or id, lists, `connect`/`disconnect`/`set`). */
export function relationInputSchemas(): Record<string, JsonSchema> {
  const target = ref(FIXED_SCHEMAS.relationRef);
  const targets = listOf(target);
  const position = {
    type: 'object', minProperties: 1, maxProperties: 1,
    properties: { before: target, after: target, start: { const: true }, end: { const: true } },
    additionalProperties: false,
    description: 'Where a connected target goes in the ordered list (default: the end)',
  };
  const connectItem = { anyOf: [target, closedObject({ documentId: { type: 'string' }, locale: { type: 'string' }, status: { enum: ['draft', 'published'] }, position }, ['documentId']), closedObject({ id: { type: 'integer', minimum: 1 }, position }, ['id'])] };
  const changes = (many: boolean) => closedObject({
    connect: many ? listOf(connectItem) : { anyOf: [connectItem, listOf(connectItem, { maxItems: 1 })] },
    disconnect: targets,
    set: many ? targets : { anyOf: [target, listOf(target, { maxItems: 1 })] },
  });
  return {
    [FIXED_SCHEMAS.relationRef]: {
      description: 'A target document: its documentId, its numeric id, `{documentId, locale?, status?}` or `{id}`',
      anyOf: [
        { type: 'string', minLength: 1, maxLength: 64 },
        { type: 'integer', minimum: 1 },
        closedObject({ documentId: { type: 'string', minLength: 1, maxLength: 64 }, locale: { type: 'string' }, status: { enum: ['draft', 'published'] } }, ['documentId']),
        closedObject({ id: { type: 'integer', minimum: 1 } }, ['id']),
      ],
    },
    [FIXED_SCHEMAS.toOneInput]: { description: 'The target, null to unlink, or connect/disconnect/set', anyOf: [target, { type: 'null' }, changes(false)] },
    [FIXED_SCHEMAS.toManyInput]: { description: 'Every target in order, or connect/disconnect/set', anyOf: [targets, changes(true)] },
  };
}
