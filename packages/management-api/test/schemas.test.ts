// The package stays browser-safe (relative imports only, and openapi-fetch for the client), its shared schemas have unique ids and
// compile in strict JSON Schema 2020-12, and every example in it (shapes, request bodies) is valid.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import * as api from '@cms/management-api';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const files = (dir: string): string[] => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name);
  return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
});

function strictAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  (addFormats as unknown as { default: typeof addFormats }).default(ajv);
  // OpenAPI's format of raw bytes (a body of another content type than JSON); fastify knows it too.
  ajv.addFormat('binary', true);
  for (const schema of api.sharedSchemas) ajv.addSchema(schema);
  return ajv;
}

/** Every route schema the package exports (`{name}Routes` objects of `defineRoute`s). */
const routeSchemas = () => Object.entries(api)
  .filter(([name, value]) => name.endsWith('Routes') && typeof value === 'object')
  .flatMap(([name, routes]) => Object.entries(routes as Record<string, api.RouteSchema>).map(([key, schema]) => ({ at: `${name}.${key}`, schema })));

describe('@cms/management-api', () => {
  it('imports nothing but its own modules (usable in a browser)', () => {
    for (const file of files(SRC)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s+'([^']+)'/g)) {
        // Relative modules, and openapi-fetch (the typed client's only dependency: a fetch wrapper).
        assert.match(m[1]!, /^(\.\.?\/|openapi-fetch$)/, `${file} imports ${m[1]}`);
      }
    }
  });

  it('has shared schemas with unique ids that compile strictly, and valid examples', () => {
    const ids = api.sharedSchemas.map((s) => s.$id);
    assert.equal(new Set(ids).size, ids.length);
    const ajv = strictAjv();
    for (const schema of api.sharedSchemas) {
      const validate = ajv.getSchema(schema.$id)!;
      assert.ok(validate, schema.$id);
      for (const example of (schema as { examples?: readonly unknown[] }).examples ?? []) assert.ok(validate(example), `${schema.$id}: ${JSON.stringify(validate.errors)}`);
    }
  });

  it('has route schemas whose requests compile strictly (as fastify validates them) and whose examples are valid', () => {
    const ajv = strictAjv();
    const routes = routeSchemas();
    assert.ok(routes.length > 10);
    for (const { at, schema } of routes) {
      assert.ok(schema.summary && schema.tags.length === 1 && schema.response, at);
      for (const part of ['body', 'docBody', 'querystring', 'headers'] as const) {
        if (!schema[part]) continue;
        // A body per content type (`content: {type: {schema}}`) is validated per content type.
        const byType = (schema[part] as { content?: Record<string, { schema: object }> }).content;
        for (const one of byType ? Object.values(byType).map((c) => c.schema) : [schema[part]!]) {
          const validate = ajv.compile(one);
          for (const example of (one as { examples?: unknown[] }).examples ?? []) assert.ok(validate(example), `${at} ${part}: ${JSON.stringify(validate.errors)}`);
        }
      }
      // Parameters only the document shows: each one a schema, its examples valid.
      for (const part of ['docQuery', 'docParams'] as const) {
        for (const [name, one] of Object.entries(schema[part] ?? {})) {
          const validate = ajv.compile(one);
          for (const example of (one as { examples?: unknown[] }).examples ?? []) assert.ok(validate(example), `${at} ${part}.${name}: ${JSON.stringify(validate.errors)}`);
        }
      }
    }
  });

  it('has valid examples in its answers, at any depth (the reference page shows them)', () => {
    const ajv = strictAjv();
    let checked = 0;
    /** Every schema with `examples` in `schema` (itself, its properties, items, variants), with where it is. */
    const withExamples = (schema: unknown, at: string): Array<{ at: string; schema: Record<string, unknown> }> => {
      if (!schema || typeof schema !== 'object') return [];
      const s = schema as Record<string, unknown>;
      const nested = [
        ...Object.entries((s.properties ?? {}) as Record<string, unknown>).map(([key, value]) => withExamples(value, `${at}.${key}`)),
        ...(['items', 'additionalProperties'] as const).map((key) => withExamples(s[key], `${at}[${key}]`)),
        ...(['anyOf', 'oneOf', 'allOf'] as const).flatMap((key) => ((s[key] ?? []) as unknown[]).map((one, i) => withExamples(one, `${at}.${key}[${i}]`))),
      ].flat();
      return Array.isArray(s.examples) ? [{ at, schema: s }, ...nested] : nested;
    };
    for (const { at, schema } of routeSchemas()) {
      for (const [status, answer] of Object.entries(schema.response)) {
        for (const found of withExamples(answer, `${at} ${status}`)) {
          // A response's own keys (`description` aside) are not JSON Schema: only its schema is compiled.
          const { headers: _headers, ...one } = found.schema;
          const validate = ajv.compile(one);
          for (const example of found.schema.examples as unknown[]) {
            assert.ok(validate(example), `${found.at}: ${JSON.stringify(validate.errors)}`);
            checked++;
          }
        }
      }
    }
    assert.ok(checked > 20, `only ${checked} examples checked`);
  });
});
