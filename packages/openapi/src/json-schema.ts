// The few JSON Schema (2020-12, OpenAPI 3.1's dialect) building blocks every module uses.

/** A JSON Schema, or any other JSON object of the document. */
export type JsonObject = { [key: string]: unknown };
export type JsonSchema = JsonObject;

/** A reference to a schema of the document's `components.schemas`. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** `schema` or null. */
export const orNull = (schema: JsonSchema): JsonSchema => ({ oneOf: [schema, { type: 'null' }] });

/** A primitive type that may also be null (`{type: [t, 'null']}`), with more keywords. */
export const nullableType = (type: string | string[], more: JsonSchema = {}): JsonSchema =>
  ({ type: [...(Array.isArray(type) ? type : [type]), 'null'], ...more });

/** An object with exactly these properties (none required unless listed). */
export const closedObject = (properties: Record<string, JsonSchema>, required: string[] = [], more: JsonSchema = {}): JsonSchema =>
  ({ type: 'object', ...more, properties, ...(required.length ? { required } : {}), additionalProperties: false });

/** `Restaurant` from `restaurant`, `SharedSeo` from `shared.seo`, `BlogPost` from `blog-post`. */
export function pascalCase(text: string): string {
  return text.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}
