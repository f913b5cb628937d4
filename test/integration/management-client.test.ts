// The typed client of the management API (@cms/management-api, issue 40): the committed document
// and types are what the routes make now (else: run `make client`), the document made without a
// database is the one a gateway serves, and the client authenticates as the CLI and the dashboard do.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { createManagementClient } from '@cms/management-api';
import { CLIENT_FILES, generateClient, sortKeys } from '../../scripts/management-client.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const STALE = 'the committed client is stale: run make client';

/** A fetch answered by the test gateway's `inject` (no socket). */
function injectFetch(t: TestApp) {
  return async (request: Request): Promise<Response> => {
    const { pathname, search } = new URL(request.url);
    const body = await request.text();
    const res = await t.inject({
      method: request.method as 'GET', url: pathname + search, headers: Object.fromEntries(request.headers), ...(body ? { payload: body } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers.set(name, String(value));
    return new Response(res.statusCode === 204 || res.body === '' ? null : res.body, { status: res.statusCode, headers });
  };
}

describe('the management API client', () => {
  it('is committed as the routes make it (no database)', async () => {
    const made = await generateClient();
    assert.equal(await readFile(CLIENT_FILES.document, 'utf8'), made.document, `${STALE} (src/generated/openapi.json differs)`);
    assert.equal(await readFile(CLIENT_FILES.types, 'utf8'), made.types, `${STALE} (src/generated/v1.ts differs)`);
  });

  describe('against a gateway', () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp();
    });
    after(async () => {
      await t?.close();
    });

    it('has the document the gateway serves', async () => {
      const res = await t.inject({ method: 'GET', url: '/v1/openapi.json' });
      assert.equal(res.statusCode, 200);
      const committed = JSON.parse(await readFile(CLIENT_FILES.document, 'utf8')) as unknown;
      assert.deepEqual(sortKeys(res.json()), committed, STALE);
    });

    it('calls with the session token, answers typed data and the error envelope', async () => {
      const anonymous = createManagementClient('http://gateway.test', { fetch: injectFetch(t) });
      const email = `client-${process.pid}@example.com`;
      const signedUp = await anonymous.POST('/v1/auth/signup', { body: { email, password: 'a long password' } });
      assert.equal(signedUp.response.status, 201);
      const token = signedUp.data!.token;

      const api = createManagementClient('http://gateway.test/', { token, fetch: injectFetch(t) });
      const me = await api.GET('/v1/auth/me');
      assert.equal(me.data?.account.email, email);
      const created = await api.POST('/v1/projects', { body: { name: 'Typed client' } });
      assert.equal(created.response.status, 201);
      const slug = created.data!.project.slug;
      const got = await api.GET('/v1/projects/{slug}', { params: { path: { slug } } });
      assert.equal(got.data?.project.name, 'Typed client');

      const missing = await api.GET('/v1/projects/{slug}', { params: { path: { slug: 'no-such-project' } } });
      assert.equal(missing.response.status, 404);
      assert.equal(missing.data, undefined);
      assert.equal(missing.error?.error.status, 404);
      assert.equal((await anonymous.GET('/v1/auth/me')).response.status, 401);
    });
  });

  it('sends the CSRF token on changes only, and the cookie when asked to', async () => {
    const seen: Request[] = [];
    const api = createManagementClient('http://dashboard.test', {
      credentials: 'same-origin',
      csrfToken: () => 'the-csrf-token',
      fetch: async (request) => {
        seen.push(request);
        return new Response(null, { status: 204 });
      },
    });
    await api.GET('/v1/auth/sessions');
    await api.DELETE('/v1/auth/sessions/{id}', { params: { path: { id: 7 } } });
    assert.deepEqual(seen.map((r) => [r.method, new URL(r.url).pathname, r.headers.get('x-csrf-token'), r.credentials]), [
      ['GET', '/v1/auth/sessions', null, 'same-origin'],
      ['DELETE', '/v1/auth/sessions/7', 'the-csrf-token', 'same-origin'],
    ]);
    assert.equal(seen[0]!.headers.get('authorization'), null);
    assert.equal(seen[0]!.headers.get('accept'), 'application/json');
  });
});
