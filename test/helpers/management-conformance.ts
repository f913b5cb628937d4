// Every `/v1` JSON answer a test gateway sends (inject or real HTTP) is checked against the schema
// the management API's own OpenAPI document (`GET /v1/openapi.json`) gives its route and status: a
// drift between the code and the document fails the test that saw it (test/helpers/app.ts). Routes and statuses the document gives no JSON
// schema (streams, downloads, routes not described yet) are not checked.
import { AssertionError } from 'node:assert';
import type { FastifyInstance } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Json = Record<string, any>;

const BASE = 'https://management.test/openapi.json';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options'] as const;

/** JSON pointer escaping of one segment. */
const escape = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

/** '0' per equal segment, '1' per parameter (lower is more specific), null when `own` does not match. */
function rankOf(own: string[], given: string[]): string | null {
  let rank = '';
  for (let i = 0; i < given.length; i++) {
    if (own[i] === given[i]) rank += '0';
    else if (/^\{.+\}$/.test(own[i]!) && given[i] !== '') rank += '1';
    else return null;
  }
  return rank;
}

/** An answer as sent: its status, its serialized body, its headers. */
export interface Answer {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
}

export interface ManagementConformance {
  /** Throws an AssertionError naming the route, status and mismatch when `res` breaks the document. */
  check(method: string, url: string, res: Answer): void;
  /** The document it checks against. */
  document: Json;
}

/**
 * The checker of this process: every gateway a test process starts runs the same code, so the
 * document (a few hundred ms to generate) is made and compiled once, from the first.
 */
let shared: Promise<ManagementConformance> | undefined;

export function managementConformance(fastify: FastifyInstance): Promise<ManagementConformance> {
  shared ??= build(fastify);
  return shared;
}

async function build(fastify: FastifyInstance): Promise<ManagementConformance> {
  const res = await fastify.inject({ method: 'GET', url: '/v1/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`GET /v1/openapi.json answered ${res.statusCode}: ${res.body.slice(0, 500)}`);
  const document = JSON.parse(res.body) as Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as { default: typeof addFormats }).default(ajv);
  ajv.addSchema(document, BASE);
  const routes = Object.entries(document.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ path, method, segments: path.split('/') })));
  /** The operation serving `method pathname`; a static segment wins over a parameter, as in fastify's router. */
  const find = (method: string, pathname: string) => {
    const segments = pathname.split('/');
    let best: { path: string; method: string; rank: string } | undefined;
    for (const route of routes) {
      if (route.method !== method || route.segments.length !== segments.length) continue;
      const rank = rankOf(route.segments, segments);
      if (rank !== null && (!best || rank < best.rank)) best = { path: route.path, method: route.method, rank };
    }
    return best;
  };
  const compiled = new Map<string, ValidateFunction | null>();

  /** The validator of `status` of an operation, or null when the document gives it no JSON schema. */
  const validatorOf = (path: string, method: string, status: number): ValidateFunction | null => {
    const key = `${method} ${path} ${status}`;
    if (!compiled.has(key)) {
      const responses = document.paths[path][method].responses as Json;
      const code = [String(status), `${String(status)[0]}XX`, 'default'].find((c) => responses[c]);
      const schema = code ? responses[code].content?.['application/json']?.schema : undefined;
      compiled.set(key, schema === undefined ? null : ajv.compile({
        $ref: `${BASE}#/paths/${escape(path)}/${method}/responses/${code}/content/${escape('application/json')}/schema`,
      }));
    }
    return compiled.get(key)!;
  };

  const checker: ManagementConformance = {
    document,
    check(method, url, res) {
      const pathname = url.split('?')[0]!;
      if (!pathname.startsWith('/v1/')) return;
      const type = String(res.headers['content-type'] ?? '');
      if (!type.startsWith('application/json') || res.body === '') return;
      const found = find(method.toLowerCase(), pathname);
      if (!found) return;
      const { path, method: op } = found;
      const validate = validatorOf(path, op, res.statusCode);
      if (!validate) return;
      let body: unknown;
      try {
        body = JSON.parse(res.body);
      } catch {
        throw new AssertionError({ message: `${method.toUpperCase()} ${pathname} → ${res.statusCode}: not JSON although ${type}` });
      }
      if (!validate(body)) {
        const errors = (validate.errors ?? []).slice(0, 10).map((e) => `  ${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`).join('\n');
        throw new AssertionError({
          message: `${method.toUpperCase()} ${pathname} → ${res.statusCode} does not match its schema in /v1/openapi.json (${op.toUpperCase()} ${path}):\n${errors}\nbody: ${res.body.slice(0, 1500)}`,
        });
      }
    },
  };
  return checker;
}
