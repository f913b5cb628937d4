// The management API's OpenAPI 3.1 document (`GET /v1/openapi.json`, issue 40): valid OpenAPI, every
// route fastify serves under /v1 in it with its method, each operation described (tag, summary,
// errors in the envelope, security), and the check every test's answers go through
// (test/helpers/management-conformance.ts) really catching a drift.
import assert, { AssertionError } from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import { TAGS, sharedSchemas } from '@cms/management-api';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { managementConformance, type Answer } from '../helpers/management-conformance.ts';
import { as, signup } from '../helpers/management.ts';

type Json = Record<string, any>;

const OPERATIONS = ['get', 'put', 'post', 'delete', 'patch', 'options'];

/**
 * `METHOD /v1/...` of every route in fastify's route table (its `printRoutes` tree, read back into
 * paths): fastify's own HEAD twins of GET routes left out, as the document leaves them out.
 */
function servedRoutes(tree: string): string[] {
  const stack: string[] = [];
  const out: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^((?:│ {3}| {4})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack.push(m[2]!);
    const path = stack.join('');
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD' && path.startsWith('/v1/')) out.push(`${method} ${path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
    }
  }
  return out;
}

describe('management API: the OpenAPI document', () => {
  let t: TestApp;
  let doc: Json;
  let res: LightMyRequestResponse;
  const operations = () => Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    OPERATIONS.filter((m) => item[m]).map((m) => ({ path, method: m, op: item[m] as Json })));

  before(async () => {
    t = await startTestApp();
    res = await t.inject({ method: 'GET', url: '/v1/openapi.json' });
    doc = res.json();
  });
  after(async () => t?.close());

  it('is served to anyone, cacheable, as JSON', () => {
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'public, max-age=300');
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(doc.servers.map((s: Json) => s.url), ['/']);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(doc));
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1)?.slice(0, 3000));
  });

  it('has every route fastify serves under /v1, with its method, and nothing else', () => {
    const served = servedRoutes(t.fastify.printRoutes({ commonPrefix: false }));
    assert.ok(served.includes('POST /v1/auth/login') && served.includes('GET /v1/projects/{slug}'), served.join('\n'));
    const documented = operations().map(({ path, method }) => `${method.toUpperCase()} ${path}`);
    assert.deepEqual(served.filter((r) => !documented.includes(r)), [], 'routes missing from the document');
    assert.deepEqual(documented.filter((r) => !served.includes(r)), [], 'documented operations fastify does not serve');
    // The content API's document of a project is another route, not clashing with this one.
    assert.ok(documented.includes('GET /v1/projects/{slug}/openapi.json') && documented.includes('GET /v1/openapi.json'));
  });

  it('gives every operation one tag of the list, a summary, a description, its request body, and errors in the envelope', () => {
    const names = TAGS.map((tag) => tag.name);
    assert.deepEqual(doc.tags.map((tag: Json) => tag.name), names);
    const problems: string[] = [];
    for (const { path, method, op } of operations()) {
      const at = `${method.toUpperCase()} ${path}`;
      if (op.tags?.length !== 1 || !names.includes(op.tags[0])) problems.push(`${at}: tags ${JSON.stringify(op.tags)}`);
      if (typeof op.summary !== 'string' || op.summary.trim() === '') problems.push(`${at}: no summary`);
      if (typeof op.description !== 'string' || op.description.trim() === '') problems.push(`${at}: no description`);
      // Every write says what it takes, `noBody()` included (optional then, as any body admitting null).
      if (['post', 'put', 'patch'].includes(method) && !op.requestBody) problems.push(`${at}: no request body`);
      const bodyType = op.requestBody?.content?.['application/json']?.schema?.type;
      if (op.requestBody && op.requestBody.required !== !(Array.isArray(bodyType) && bodyType.includes('null'))) problems.push(`${at}: requestBody.required ${op.requestBody.required} for a body of type ${JSON.stringify(bodyType)}`);
      const errors = Object.entries(op.responses as Json).filter(([code]) => /^[45]/.test(code));
      if (!errors.some(([code]) => code === '4XX')) problems.push(`${at}: no 4XX answer`);
      for (const [code, answer] of errors) {
        if (answer.content?.['application/json']?.schema?.$ref !== '#/components/schemas/ErrorEnvelope') problems.push(`${at}: ${code} is not the error envelope`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('says how to authenticate: a session everywhere but the public routes', () => {
    assert.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['csrfToken', 'sessionCookie', 'sessionToken']);
    assert.equal(doc.components.securitySchemes.sessionToken.scheme, 'bearer');
    const security = (path: string, method: string) => doc.paths[path][method].security;
    for (const [path, method] of [['/v1/auth/signup', 'post'], ['/v1/auth/login', 'post'], ['/v1/openapi.json', 'get'], ['/v1/auth/forgot-password', 'post'], ['/v1/billing/webhook', 'post']]) {
      assert.deepEqual(security(path, method!), [], `${method} ${path} is public`);
    }
    assert.deepEqual(security('/v1/auth/me', 'get'), [{ sessionToken: [] }, { sessionCookie: [] }]);
    assert.deepEqual(security('/v1/projects', 'post'), [{ sessionToken: [] }, { sessionCookie: [], csrfToken: [] }]);
    assert.deepEqual(security('/v1/auth/session', 'get'), [{}, { sessionToken: [] }, { sessionCookie: [] }]);
  });

  it('names the shared shapes as components, and their examples match them', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as { default: typeof addFormats }).default(ajv);
    ajv.addSchema(doc, 'https://management.test/doc.json');
    for (const schema of sharedSchemas) {
      const component = doc.components.schemas[schema.$id];
      assert.ok(component, `${schema.$id} is a component`);
      const validate = ajv.compile({ $ref: `https://management.test/doc.json#/components/schemas/${schema.$id}` });
      for (const example of component.examples ?? []) assert.ok(validate(example), `${schema.$id} example: ${JSON.stringify(validate.errors)}`);
    }
  });

  it('documents the answers of the account routes as they are (checked on every inject)', async () => {
    // Each of these goes through the conformance check of startTestApp: a mismatch throws.
    const session = await signup(t);
    const me = as(t, session);
    assert.equal((await me.get('/v1/auth/me')).statusCode, 200);
    assert.equal((await me.get('/v1/auth/sessions')).statusCode, 200);
    assert.equal((await t.inject({ method: 'GET', url: '/v1/auth/session' })).json().account, null);
    assert.equal((await me.get('/v1/auth/2fa')).statusCode, 200);
    assert.equal((await me.post('/v1/auth/2fa/setup')).statusCode, 200);
    assert.equal((await me.get('/v1/auth/audit-logs?pageSize=2')).statusCode, 200);
    assert.equal((await me.del('/v1/auth/audit-logs')).statusCode, 405);
    assert.equal((await me.del('/v1/auth/sessions/abc')).statusCode, 404);
    assert.equal((await t.inject({ method: 'GET', url: '/v1/auth/me' })).statusCode, 401);
  });

  describe('the conformance check of the tests', () => {
    const answer = (statusCode: number, body: unknown, type = 'application/json; charset=utf-8'): Answer =>
      ({ statusCode, body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': type } });

    it('fails an answer that does not match its route\'s schema, naming the route and the mismatch', async () => {
      const check = await managementConformance(t.fastify);
      assert.throws(
        () => check.check('GET', '/v1/auth/me', answer(200, { account: { id: 'seven', email: 'a@example.com', name: null, emailVerified: true, twoFactorEnabled: false } })),
        (err: Error) => err.name === 'AssertionError' && /GET \/v1\/auth\/me → 200 does not match/.test(err.message) && /\/account\/id must be integer/.test(err.message),
      );
      assert.throws(() => check.check('POST', '/v1/auth/login', answer(401, { error: 'nope' })), /POST \/v1\/auth\/login → 401 does not match[\s\S]*must have required property 'data'/);
      // A parameter's route, the static one preferred (audit-logs/export is not audit-logs/{id}).
      assert.throws(() => check.check('GET', '/v1/projects/acme/audit-logs?page=2', answer(200, { data: [{}] })), /GET \/v1\/projects\/\{slug\}\/audit-logs\)/);
    });

    it('fails the inject that got a drift, and over real HTTP the app\'s close', async () => {
      const check = await managementConformance(t.fastify);
      const original = check.check;
      check.check = (method, url, answer) => {
        if (url.includes('drift=1')) throw new AssertionError({ message: `drift seen on ${method} ${url}` });
        original(method, url, answer);
      };
      try {
        await assert.rejects(t.inject({ method: 'GET', url: '/v1/auth/session?drift=1' }), /drift seen on GET \/v1\/auth\/session\?drift=1/);
        assert.equal((await t.inject({ method: 'GET', url: '/v1/auth/session' })).statusCode, 200);
        const other = await startTestApp({ share: t });
        await other.fastify.listen({ port: 0, host: '127.0.0.1' });
        const { port } = other.fastify.server.address() as AddressInfo;
        assert.equal((await fetch(`http://127.0.0.1:${port}/v1/auth/session?drift=1`)).status, 200);
        await assert.rejects(other.close(), /drift seen/);
      } finally {
        check.check = original;
      }
    });

    it('passes a matching answer and leaves alone what the document gives no JSON schema', async () => {
      const check = await managementConformance(t.fastify);
      check.check('GET', '/v1/auth/me', answer(200, { account: { id: 7, email: 'a@example.com', name: null, emailVerified: true, twoFactorEnabled: false } }));
      check.check('GET', '/v1/auth/me', answer(401, { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Unauthorized', details: {} } }));
      check.check('GET', '/v1/projects/acme/audit-logs/export', answer(200, '{"id":1}\n', 'application/x-ndjson'));
      check.check('DELETE', '/v1/auth/sessions/3', answer(204, ''));
      check.check('GET', '/v1/nowhere', answer(404, { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } }));
      check.check('GET', '/p/acme/api/articles', answer(200, { data: 'anything' }));
    });
  });
});
