import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, TEST_BASE_DOMAIN, type TestApp } from '../helpers/app.ts';
import { insertProject } from '../helpers/fixtures.ts';

const notFound = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };

describe('gateway: health, envelope, tenant routing', () => {
  let t: TestApp;
  let slug: string;
  before(async () => {
    t = await startTestApp();
    ({ slug } = await insertProject(t, 'acme-routing', ['en', 'fr']));
  });
  after(async () => t.close());

  it('answers /healthz and /readyz with Postgres and Redis status', async () => {
    const live = await t.inject({ url: '/healthz' });
    assert.equal(live.statusCode, 200);
    assert.deepEqual(live.json(), { status: 'ok' });
    const ready = await t.inject({ url: '/readyz' });
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.json(), { status: 'ok', postgres: 'ok', redis: 'ok' });
  });

  it('echoes a sane x-request-id and generates one otherwise', async () => {
    const given = await t.inject({ url: '/healthz', headers: { 'x-request-id': 'req-123' } });
    assert.equal(given.headers['x-request-id'], 'req-123');
    const hostile = await t.inject({ url: '/healthz', headers: { 'x-request-id': 'x'.repeat(500) } });
    assert.match(String(hostile.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });

  it('answers unknown API routes with the 404 envelope; other pages are the dashboard\'s', async () => {
    for (const request of [{ url: '/v1/nope' }, { url: '/api/nope' }, { url: '/graphql' }, { method: 'POST' as const, url: '/nope' }, { url: '/nope', headers: { host: `nope.${TEST_BASE_DOMAIN}` } }]) {
      const res = await t.inject(request);
      assert.equal(res.statusCode, 404, JSON.stringify(request));
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.deepEqual(res.json(), notFound);
    }
    const page = await t.inject({ url: '/nope' });
    assert.match(String(page.headers['content-type']), /^text\/html/);
  });

  it('resolves a project by /p/{slug} prefix', async () => {
    const res = await t.inject({ url: `/p/${slug}/api/i18n/locales` });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(body.map((l: { code: string; isDefault: boolean }) => [l.code, l.isDefault]), [['en', true], ['fr', false]]);
    assert.match(body[0].documentId, /^[a-z][a-z0-9]{23}$/);
  });

  it('resolves a project by {slug}.{BASE_DOMAIN} host, with or without port', async () => {
    for (const host of [`${slug}.${TEST_BASE_DOMAIN}`, `${slug}.${TEST_BASE_DOMAIN}:1337`, `${slug.toUpperCase()}.${TEST_BASE_DOMAIN}`]) {
      const res = await t.inject({ url: '/api/i18n/locales', headers: { host } });
      assert.equal(res.statusCode, 200, host);
      assert.equal(res.json().length, 2);
    }
  });

  it('answers 404 NotFoundError for unknown slugs by prefix and host', async () => {
    const cases = [
      { url: '/p/nope-nope/api/i18n/locales' },
      { url: '/api/i18n/locales', headers: { host: `nope-nope.${TEST_BASE_DOMAIN}` } },
      { url: `/p/${encodeURIComponent("x'; DROP SCHEMA platform; --")}/api/i18n/locales` },
      { url: `/p/${encodeURIComponent('ünï€ødé')}/api/i18n/locales` },
      { url: '/api/i18n/locales', headers: { host: `a.b.${TEST_BASE_DOMAIN}` } },
    ];
    for (const c of cases) {
      const res = await t.inject(c);
      assert.equal(res.statusCode, 404, JSON.stringify(c).slice(0, 100));
      assert.deepEqual(res.json(), notFound);
    }
    const stillThere = await t.inject({ url: `/p/${slug}/api/i18n/locales` });
    assert.equal(stillThere.statusCode, 200);
  });

  it('answers an over-long path parameter with 414 in the envelope', async () => {
    const res = await t.inject({ url: `/p/${'a'.repeat(10_000)}/api/i18n/locales` });
    assert.equal(res.statusCode, 414);
    assert.deepEqual(res.json(), { data: null, error: { status: 414, name: 'URITooLongError', message: 'URI Too Long', details: {} } });
  });

  it('answers unknown routes inside a known project with 404', async () => {
    const res = await t.inject({ url: `/p/${slug}/api/nothing-here` });
    assert.equal(res.statusCode, 404);
    assert.deepEqual(res.json(), notFound);
  });

  it('does not treat the bare base domain as a tenant', async () => {
    const res = await t.inject({ url: '/healthz', headers: { host: TEST_BASE_DOMAIN } });
    assert.equal(res.statusCode, 200);
  });
});
