// CORS and security headers: per-project origins on every project route family, the dashboard's
// origins on the management API, refused origins get no allow headers, settings validated, isolated
// per project and live on a second gateway.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { as, signup } from '../helpers/management.ts';
import { blogRawModel } from '../fixtures/index.ts';

const APP = 'https://app.example.com';
const OTHER = 'https://other.example.com';
const DASHBOARD = 'https://dashboard.example.com';

const ALLOW_HEADERS = ['access-control-allow-origin', 'access-control-allow-credentials', 'access-control-allow-methods',
  'access-control-allow-headers', 'access-control-max-age', 'access-control-expose-headers'];

function assertAllowed(res: LightMyRequestResponse, origin: string, what: string): void {
  assert.equal(res.headers['access-control-allow-origin'], origin, `${what}: ${JSON.stringify(res.headers)}`);
  assert.match(String(res.headers.vary), /Origin/, what);
  assert.equal(res.headers['access-control-expose-headers'], 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id', what);
}

function assertNoCors(res: LightMyRequestResponse, what: string): void {
  for (const h of ALLOW_HEADERS) assert.equal(res.headers[h], undefined, `${what}: ${h} = ${res.headers[h]}`);
}

function assertSecurityHeaders(res: LightMyRequestResponse, what: string): void {
  assert.equal(res.headers['x-content-type-options'], 'nosniff', what);
  assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN', what);
  assert.equal(res.headers['referrer-policy'], 'no-referrer', what);
  assert.equal(res.headers['x-permitted-cross-domain-policies'], 'none', what);
  assert.equal(res.headers['strict-transport-security'], undefined, `${what}: no HSTS over plain HTTP`);
}

describe('CORS and security headers', () => {
  let t: TestApp;
  let second: TestApp;
  let p: ContentProject;
  let q: ContentProject;
  let token: string;

  before(async () => {
    t = await startTestApp({ env: { DASHBOARD_ORIGINS: DASHBOARD, TRUST_PROXY: 'true' } });
    second = await startTestApp({ share: t });
    p = await setupContentProject(t, blogRawModel());
    q = await setupContentProject(t, blogRawModel());
    token = await p.token('full-access');
    await p.setPublic({ 'api::tag.tag': ['find'] });
  });
  after(async () => {
    await second?.close();
    await t?.close();
  });

  const at = (project: ContentProject, path: string) => `/p/${project.slug}${path}`;
  const preflight = (app: TestApp, url: string, origin: string, method = 'POST', headers = 'authorization,content-type') =>
    app.inject({ method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers } });
  const putCors = (project: ContentProject, body: unknown) => project.admin.put(`/v1/projects/${project.slug}/settings/cors`, body);

  describe('defaults: any origin, like Strapi', () => {
    it('a preflight is 204 with every allow header', async () => {
      const res = await preflight(t, at(p, '/api/tags'), APP);
      assert.equal(res.statusCode, 204, res.body);
      assert.equal(res.body, '');
      assertAllowed(res, APP, 'preflight');
      assert.equal(res.headers['access-control-allow-credentials'], 'true');
      assert.equal(res.headers['access-control-allow-methods'], 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS');
      const allowed = String(res.headers['access-control-allow-headers']).toLowerCase().split(', ');
      for (const h of ['authorization', 'content-type', 'strapi-response-format']) assert.ok(allowed.includes(h), h);
      assert.equal(res.headers['access-control-max-age'], '31536000');
    });

    it('preflights of every route family', async () => {
      for (const [path, method] of [['/api/tags', 'GET'], ['/api/tags/abc', 'PUT'], ['/api/tags/abc', 'DELETE'], ['/graphql', 'POST'],
        ['/api/upload', 'POST'], ['/api/upload/files/1', 'DELETE'], ['/api/auth/local', 'POST'], ['/api/users/me', 'GET'],
        ['/api/users', 'GET'], ['/uploads/x.png', 'GET'], ['/api/site', 'PUT'], ['/api/i18n/locales', 'GET'], ['/api/nothing-here', 'GET']] as const) {
        const res = await preflight(t, at(p, path), APP, method);
        assert.equal(res.statusCode, 204, `${method} ${path}: ${res.body}`);
        assertAllowed(res, APP, `${method} ${path}`);
      }
    });

    it('actual requests carry the allow headers, answers and errors alike', async () => {
      const cases: [string, () => Promise<LightMyRequestResponse>, number][] = [
        ['public list', () => t.inject({ url: at(p, '/api/tags'), headers: { origin: APP } }), 200],
        ['write with a token', () => t.inject({ method: 'POST', url: at(p, '/api/tags'), headers: { origin: APP, authorization: `Bearer ${token}` }, payload: { data: { label: 'x' } } }), 201],
        ['graphql', () => t.inject({ method: 'POST', url: at(p, '/graphql'), headers: { origin: APP, authorization: `Bearer ${token}` }, payload: { query: '{ tags { label } }' } }), 200],
        ['upload list', () => t.inject({ url: at(p, '/api/upload/files'), headers: { origin: APP, authorization: `Bearer ${token}` } }), 200],
        ['auth login refused', () => t.inject({ method: 'POST', url: at(p, '/api/auth/local'), headers: { origin: APP }, payload: { identifier: 'nobody@example.com', password: 'wrong password' } }), 400],
        ['users without a token', () => t.inject({ url: at(p, '/api/users'), headers: { origin: APP } }), 403],
        ['a missing file', () => t.inject({ url: at(p, '/uploads/missing.png'), headers: { origin: APP } }), 404],
        ['a wrong token', () => t.inject({ url: at(p, '/api/tags'), headers: { origin: APP, authorization: 'Bearer nope' } }), 401],
        ['an unknown route', () => t.inject({ url: at(p, '/api/nothing-here'), headers: { origin: APP } }), 404],
        ['a validation error', () => t.inject({ method: 'POST', url: at(p, '/api/tags'), headers: { origin: APP, authorization: `Bearer ${token}` }, payload: { data: {} } }), 400],
      ];
      for (const [what, send, status] of cases) {
        const res = await send();
        assert.equal(res.statusCode, status, `${what}: ${res.body}`);
        assertAllowed(res, APP, what);
        assertSecurityHeaders(res, what);
      }
    });

    it('requests without Origin (servers, curl) get no CORS headers', async () => {
      const res = await t.inject({ url: at(p, '/api/tags') });
      assert.equal(res.statusCode, 200);
      assertNoCors(res, 'no origin');
      assertSecurityHeaders(res, 'no origin');
    });

    it('an unknown project: 404 without allow headers', async () => {
      const res = await preflight(t, '/p/no-such-project/api/tags', APP);
      assert.equal(res.statusCode, 404);
      assertNoCors(res, 'unknown project');
    });
  });

  describe('settings', () => {
    it('GET answers the defaults', async () => {
      const res = await p.admin.get(`/v1/projects/${p.slug}/settings/cors`);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { cors: { origins: ['*'], credentials: true, maxAge: 31536000 } });
    });

    it('invalid settings are refused with a 400 naming each bad origin and key; nothing changes', async () => {
      const res = await putCors(p, { origins: [APP, 'https://app.example.com/', 'app.example.com', 'ftp://x.example', 42], maxAge: -1, credentials: 'yes', nope: 1 });
      assert.equal(res.statusCode, 400);
      const error = res.json().error;
      assert.equal(error.name, 'ValidationError');
      assert.equal(error.message, '7 errors occurred');
      assert.deepEqual(error.details.errors.map((e: { path: string[] }) => e.path.join('.')),
        ['origins.1', 'origins.2', 'origins.3', 'origins.4', 'maxAge', 'credentials', 'nope']);
      assert.match(error.details.errors[0].message, /"https:\/\/app.example.com\/" is not an origin/);
      for (const body of [{ origins: [] }, { origins: '*' }, { origins: new Array(101).fill(APP) }, null, [], 42]) {
        const bad = await putCors(p, body);
        assert.equal(bad.statusCode, 400, JSON.stringify(body));
        assert.equal(bad.json().error.name, 'ValidationError');
      }
      assert.deepEqual((await p.admin.get(`/v1/projects/${p.slug}/settings/cors`)).json().cors.origins, ['*']);
    });

    it('a list of origins: listed origins allowed, others get no allow headers and a 404 preflight', async () => {
      const res = await putCors(p, { origins: [APP], credentials: false, maxAge: 600 });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { cors: { origins: [APP], credentials: false, maxAge: 600 } });

      const ok = await preflight(t, at(p, '/api/tags'), APP);
      assert.equal(ok.statusCode, 204);
      assertAllowed(ok, APP, 'listed');
      assert.equal(ok.headers['access-control-allow-credentials'], undefined);
      assert.equal(ok.headers['access-control-max-age'], '600');

      const refused = await preflight(t, at(p, '/api/tags'), OTHER);
      assert.equal(refused.statusCode, 404);
      assertNoCors(refused, 'refused preflight');
      const actual = await t.inject({ url: at(p, '/api/tags'), headers: { origin: OTHER } });
      assert.equal(actual.statusCode, 200, 'the server still answers; the browser blocks the page from reading it');
      assertNoCors(actual, 'refused actual request');
      // a prefix or suffix of a listed origin is another origin
      for (const origin of ['https://app.example.com.evil.example', 'http://app.example.com', 'https://app.example.co', 'null']) {
        assertNoCors(await t.inject({ url: at(p, '/api/tags'), headers: { origin } }), origin);
      }
    });

    it('changes are live on a second gateway at once', async () => {
      // the second gateway has served the project already (its registry entry is cached)
      assertAllowed(await second.inject({ url: at(p, '/api/tags'), headers: { origin: APP } }), APP, 'before');
      assert.equal((await putCors(p, { origins: [OTHER] })).statusCode, 200);
      const deadline = Date.now() + 1000;
      let res: LightMyRequestResponse;
      do {
        res = await second.inject({ url: at(p, '/api/tags'), headers: { origin: OTHER } });
      } while (res.headers['access-control-allow-origin'] !== OTHER && Date.now() < deadline && (await new Promise((r) => setTimeout(r, 20)), true));
      assertAllowed(res, OTHER, 'after, on the second gateway');
      assertNoCors(await second.inject({ url: at(p, '/api/tags'), headers: { origin: APP } }), 'the old origin, on the second gateway');
    });

    it('one project\'s settings never apply to another', async () => {
      // p allows only OTHER now; q keeps the default (any origin)
      assertAllowed(await t.inject({ url: at(q, '/api/tags'), headers: { origin: APP } }), APP, 'q');
      assert.deepEqual((await q.admin.get(`/v1/projects/${q.slug}/settings/cors`)).json().cors.origins, ['*']);
    });

    it("another account can neither read nor change a project's settings", async () => {
      const stranger = as(t, await signup(t));
      assert.equal((await stranger.get(`/v1/projects/${p.slug}/settings/cors`)).statusCode, 404);
      assert.equal((await stranger.put(`/v1/projects/${p.slug}/settings/cors`, { origins: ['*'] })).statusCode, 404);
      assert.equal((await t.inject({ method: 'PUT', url: `/v1/projects/${p.slug}/settings/cors`, payload: { origins: ['*'] } })).statusCode, 401);
      assert.deepEqual((await p.admin.get(`/v1/projects/${p.slug}/settings/cors`)).json().cors.origins, [OTHER]);
    });
  });

  describe('management API', () => {
    it("the dashboard's origins are allowed, without credentials", async () => {
      const res = await preflight(t, '/v1/projects', DASHBOARD);
      assert.equal(res.statusCode, 204);
      assertAllowed(res, DASHBOARD, 'dashboard preflight');
      assert.equal(res.headers['access-control-allow-credentials'], undefined);
      const actual = await t.inject({ url: '/v1/projects', headers: { origin: DASHBOARD } });
      assert.equal(actual.statusCode, 401);
      assertAllowed(actual, DASHBOARD, 'dashboard 401');
      assertSecurityHeaders(actual, 'management');
    });

    it('any other origin is refused, even one a project allows', async () => {
      for (const origin of [APP, OTHER]) {
        const res = await preflight(t, '/v1/auth/login', origin);
        assert.equal(res.statusCode, 404);
        assertNoCors(res, origin);
        assertNoCors(await t.inject({ method: 'POST', url: '/v1/auth/login', headers: { origin }, payload: {} }), origin);
      }
    });

    it('health checks allow no origin', async () => {
      assertNoCors(await t.inject({ url: '/healthz', headers: { origin: APP } }), 'healthz');
    });
  });

  describe('security headers', () => {
    it('HSTS only on answers served over HTTPS (behind a trusted proxy)', async () => {
      const res = await t.inject({ url: at(q, '/api/tags'), headers: { 'x-forwarded-proto': 'https' } });
      assert.equal(res.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains');
      assert.equal((await t.inject({ url: at(q, '/api/tags') })).headers['strict-transport-security'], undefined);
    });

    it('uploaded files keep their sandboxing CSP', async () => {
      const boundary = 'CorsTestBoundary';
      const payload = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`;
      const up = await t.inject({ method: 'POST', url: at(q, '/api/upload'), payload,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${await q.token('full-access')}` } });
      assert.equal(up.statusCode, 201, up.body);
      const file = await t.inject({ url: `/p/${q.slug}${up.json()[0].url}`, headers: { origin: APP } });
      assert.equal(file.statusCode, 200);
      assert.equal(file.body, 'hello');
      assert.equal(file.headers['content-security-policy'], "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox");
      assertAllowed(file, APP, 'file');
      assertSecurityHeaders(file, 'file');
    });
  });
});
