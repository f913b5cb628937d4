// Rate limits: brute-force limits of the users-permissions auth routes (per route, client IP
// and identifier, and per client IP), shared by instances through Redis, and each plan's
// requests per second and per month on project APIs (PLAN_LIMITS), answered with 429 and
// Retry-After in the error envelope.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { blogRawModel } from '../fixtures/index.ts';

type Json = Record<string, any>;

const TOO_MANY = { data: null, error: { status: 429, name: 'RateLimitError', message: 'Too many requests, please try again later.', details: {} } };
const INVALID_LOGIN = { data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid identifier or password', details: {} } };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const post = (t: TestApp, slug: string, url: string, payload: Json, opts: { ip?: string; headers?: Record<string, string> } = {}) =>
  t.inject({ method: 'POST', url: `/p/${slug}${url}`, payload, remoteAddress: opts.ip ?? '127.0.0.1', headers: opts.headers });

function assertTooMany(res: LightMyRequestResponse, maxRetryAfter: number): void {
  assert.deepEqual([res.statusCode, res.json()], [429, TOO_MANY]);
  const retryAfter = Number(res.headers['retry-after']);
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= maxRetryAfter, `retry-after ${res.headers['retry-after']}`);
}

describe('auth route limits (defaults: 10 attempts a minute per route, IP and identifier)', () => {
  let t: TestApp;
  let peer: TestApp;
  let p: ContentProject;
  let q: ContentProject;
  const login = (identifier: string, password: string, ip?: string, project = p, app = t) =>
    post(app, project.slug, '/api/auth/local', { identifier, password }, { ip });

  before(async () => {
    t = await startTestApp();
    // A second instance of the same deployment (same database, Redis and secret).
    peer = await startTestApp({ share: t });
    p = await setupContentProject(t, blogRawModel());
    q = await setupContentProject(t, blogRawModel());
    for (const project of [p, q]) {
      const res = await post(t, project.slug, '/api/auth/local/register', { username: 'victim', email: 'victim@example.com', password: 'right password' }, { ip: '10.9.9.9' });
      assert.equal(res.statusCode, 200, res.body);
    }
  });
  after(async () => {
    await peer?.close();
    await t?.close();
  });

  it('locks an identifier out from one IP after 10 attempts, even with the right password', async () => {
    for (let i = 0; i < 10; i++) assert.deepEqual((await login('victim@example.com', `guess ${i}`, '10.0.0.1')).json(), INVALID_LOGIN);
    assertTooMany(await login('victim@example.com', 'guess 10', '10.0.0.1'), 60);
    assertTooMany(await login('victim@example.com', 'right password', '10.0.0.1'), 60);
    // The identifier is matched case- and space-insensitively: no way around by spelling.
    assertTooMany(await login(' VICTIM@example.com ', 'right password', '10.0.0.1'), 60);
    // Another IP, another project, and another account are not locked out.
    assert.equal((await login('victim@example.com', 'right password', '10.0.0.2')).statusCode, 200);
    assert.equal((await login('victim@example.com', 'right password', '10.0.0.1', q)).statusCode, 200);
    assert.deepEqual((await login('someone@example.com', 'nope', '10.0.0.1')).json(), INVALID_LOGIN);
  });

  it('counts attempts made through every instance together (Redis)', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await login('victim', `guess ${i}`, '10.0.1.1', p, i % 2 ? peer : t);
      assert.equal(res.statusCode, 400);
    }
    assertTooMany(await login('victim', 'right password', '10.0.1.1', p, peer), 60);
    assertTooMany(await login('victim', 'right password', '10.0.1.1', p, t), 60);
  });

  it('limits each auth route on its own', async () => {
    const ip = '10.0.2.1';
    for (let i = 0; i < 10; i++) {
      const res = await post(t, p.slug, '/api/auth/forgot-password', { email: 'victim@example.com' }, { ip });
      assert.deepEqual([res.statusCode, res.json()], [200, { ok: true }]);
    }
    assertTooMany(await post(t, p.slug, '/api/auth/forgot-password', { email: 'victim@example.com' }, { ip }), 60);
    assert.equal((await login('victim@example.com', 'right password', ip)).statusCode, 200);
    for (let i = 0; i < 10; i++) {
      const res = await post(t, p.slug, '/api/auth/reset-password', { code: `c${i}`, password: 'abcdefg', passwordConfirmation: 'abcdefg' }, { ip });
      assert.equal(res.statusCode, 400);
    }
    assertTooMany(await post(t, p.slug, '/api/auth/reset-password', { code: 'x', password: 'abcdefg', passwordConfirmation: 'abcdefg' }, { ip }), 60);
    for (let i = 0; i < 10; i++) {
      const res = await t.inject({ method: 'GET', url: `/p/${p.slug}/api/auth/email-confirmation?confirmation=bad${i}`, remoteAddress: ip });
      assert.equal(res.statusCode, 400);
    }
    assertTooMany(await t.inject({ method: 'GET', url: `/p/${p.slug}/api/auth/email-confirmation?confirmation=bad`, remoteAddress: ip }), 60);
  });

  it('registration is limited per e-mail and IP', async () => {
    const ip = '10.0.3.1';
    for (let i = 0; i < 10; i++) {
      const res = await post(t, p.slug, '/api/auth/local/register', { username: `reg${i}`, email: 'taken@example.com', password: 'secret123' }, { ip });
      assert.equal(res.statusCode, i === 0 ? 200 : 400, res.body);
    }
    assertTooMany(await post(t, p.slug, '/api/auth/local/register', { username: 'reg10', email: 'taken@example.com', password: 'secret123' }, { ip }), 60);
    const other = await post(t, p.slug, '/api/auth/local/register', { username: 'fresh', email: 'fresh@example.com', password: 'secret123' }, { ip });
    assert.equal(other.statusCode, 200, other.body);
  });

  it('a client cannot choose its IP with X-Forwarded-For unless the proxy is trusted', async () => {
    for (let i = 0; i < 10; i++) await login('victim', `guess ${i}`, '10.0.4.1');
    const spoofed = await login('victim', 'right password', '10.0.4.1');
    assertTooMany(spoofed, 60);
    const again = await post(t, p.slug, '/api/auth/local', { identifier: 'victim', password: 'right password' }, { ip: '10.0.4.1', headers: { 'x-forwarded-for': '203.0.113.7' } });
    assertTooMany(again, 60);
  });

  it('refuses before reading malformed bodies too, and never with a 500', async () => {
    const ip = '10.0.5.1';
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await t.inject({ method: 'POST', url: `/p/${p.slug}/api/auth/local`, payload: '[1,2]', headers: { 'content-type': 'application/json' }, remoteAddress: ip });
      statuses.push(res.statusCode);
    }
    assert.deepEqual(statuses, [...Array(10).fill(400), 429, 429]);
  });
});

describe('auth route limits: per client IP, window end, trusted proxy', () => {
  let t: TestApp;
  let p: ContentProject;
  before(async () => {
    // A window long enough for seven password checks on a loaded CI machine (it starts at the first).
    t = await startTestApp({ env: { AUTH_RATE_LIMIT_MAX: '3', AUTH_IP_RATE_LIMIT_MAX: '6', AUTH_RATE_LIMIT_WINDOW_MS: '4000', TRUST_PROXY: '1' } });
    p = await setupContentProject(t, blogRawModel());
  });
  after(async () => {
    await t?.close();
  });

  it('limits one IP across identifiers, and forgets attempts when the window ends', async () => {
    const via = (client: string) => ({ headers: { 'x-forwarded-for': client } });
    const results: number[] = [];
    for (let i = 0; i < 7; i++) results.push((await post(t, p.slug, '/api/auth/local', { identifier: `user${i}`, password: 'x' }, via('198.51.100.1'))).statusCode);
    assert.deepEqual(results, [400, 400, 400, 400, 400, 400, 429]);
    // The trusted proxy's X-Forwarded-For names the client: another client is not limited.
    assert.equal((await post(t, p.slug, '/api/auth/local', { identifier: 'user0', password: 'x' }, via('198.51.100.2'))).statusCode, 400);
    await sleep(4100);
    assert.equal((await post(t, p.slug, '/api/auth/local', { identifier: 'user0', password: 'x' }, via('198.51.100.1'))).statusCode, 400);
  });
});

describe('plan limits (PLAN_LIMITS=true)', () => {
  let t: TestApp;
  let p: ContentProject;
  const sql = (text: string, values: unknown[] = []) => t.platform.db.pool.query(compiledQuery({ text, values }));
  const burst = async (project: ContentProject, n: number) => {
    // Start at the beginning of a second so the burst falls in one.
    await sleep(1000 - (Date.now() % 1000) + 5);
    return Promise.all(Array.from({ length: n }, () => project.api.get('/api/posts')));
  };
  const usedRequests = async (project: ContentProject) => {
    await t.platform.usage.flush();
    const rows = await sql('SELECT requests FROM platform.usage_counters WHERE project_id = $1', [project.id]);
    return Number((rows.rows[0] as { requests?: string } | undefined)?.requests ?? 0);
  };

  before(async () => {
    t = await startTestApp({ env: { PLAN_LIMITS: 'true' } });
    p = await setupContentProject(t, blogRawModel());
  });
  after(async () => {
    await t?.close();
  });

  it('the free plan serves 50 requests a second and refuses the rest with 429, Retry-After 1', async () => {
    const before = await usedRequests(p);
    const responses = await burst(p, 80);
    const ok = responses.filter((r) => r.statusCode === 200).length;
    const refused = responses.filter((r) => r.statusCode === 429);
    assert.equal(ok + refused.length, 80);
    assert.equal(ok, 50);
    assert.deepEqual(refused[0]!.json(), TOO_MANY);
    assert.equal(refused[0]!.headers['retry-after'], '1');
    // Refused requests are not metered.
    assert.equal(await usedRequests(p) - before, 50);
    // The next second has a fresh allowance.
    assert.equal((await burst(p, 10)).filter((r) => r.statusCode === 200).length, 10);
  });

  it('a larger plan has a larger allowance', async () => {
    const pro = await setupContentProject(t, blogRawModel());
    await sql(`UPDATE platform.projects SET plan = 'pro' WHERE id = $1`, [pro.id]);
    await t.platform.registry.invalidate({ projectId: pro.id, slug: pro.slug, scope: 'project' });
    const responses = await burst(pro, 120);
    assert.deepEqual(responses.map((r) => r.statusCode), Array(120).fill(200));
  });

  it('a project over its monthly requests is refused until the next month', async () => {
    const full = await setupContentProject(t, blogRawModel());
    const month = new Date().toISOString().slice(0, 7);
    await sql(`INSERT INTO platform.usage_counters (project_id, period, requests) VALUES ($1, $2::date, 100000)
               ON CONFLICT (project_id, period) DO UPDATE SET requests = 100000`, [full.id, `${month}-01`]);
    const res = await full.api.get('/api/posts');
    assert.equal(res.statusCode, 429, res.body);
    assert.deepEqual(res.json().error, {
      status: 429, name: 'RateLimitError', message: 'This project has used the 100000 requests a month of its free plan', details: {},
    });
    const now = new Date();
    const untilNextMonth = (Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - now.getTime()) / 1000;
    assert.ok(Math.abs(Number(res.headers['retry-after']) - untilNextMonth) < 5, String(res.headers['retry-after']));
    // GraphQL and upload are project APIs too; other projects are unaffected.
    assert.equal((await full.api.post('/graphql', { query: '{ posts { documentId } }' })).statusCode, 429);
    assert.equal((await full.api.get('/api/upload/files')).statusCode, 429);
    assert.equal((await p.api.get('/api/posts')).statusCode, 200);
  });
});

describe('plan limits are off without billing (the default)', () => {
  let t: TestApp;
  let p: ContentProject;
  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, blogRawModel());
  });
  after(async () => {
    await t?.close();
  });

  it('serves a burst over the free plan rate', async () => {
    const responses = await Promise.all(Array.from({ length: 120 }, () => p.api.get('/api/posts')));
    assert.deepEqual(responses.map((r) => r.statusCode), Array(120).fill(200));
  });
});
