import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { deriveKey } from '@cms/auth';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { as, count, signup } from '../helpers/management.ts';

const envelope = (status: number, name: string, message: string, details: object = {}) => ({ data: null, error: { status, name, message, details } });

describe('management API: accounts', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp(); });
  after(async () => t?.close());

  it('signs up: 201 {token, account}; only an argon2 hash is stored', async () => {
    const res = await t.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email: 'Ada@Example.com', password: 'correct horse', name: 'Ada' } });
    assert.equal(res.statusCode, 201);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), ['account', 'token']);
    assert.deepEqual(body.account, { id: body.account.id, email: 'Ada@Example.com', name: 'Ada', emailVerified: false, twoFactorEnabled: false });
    assert.equal(typeof body.token, 'string');
    const hash = await t.platform.db.pool.oneFirst(compiledQuery({ text: 'SELECT password_hash FROM platform.accounts WHERE id = $1', values: [body.account.id] }));
    assert.match(String(hash), /^\$argon2id\$/);
    assert.ok(!String(hash).includes('correct horse'));
  });

  it('logs in (e-mail case-insensitive) and answers /me', async () => {
    const login = await t.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'ada@example.com', password: 'correct horse' } });
    assert.equal(login.statusCode, 200);
    assert.deepEqual(Object.keys(login.json()).sort(), ['account', 'token']);
    assert.deepEqual(login.json().account, { id: login.json().account.id, email: 'Ada@Example.com', name: 'Ada', emailVerified: false, twoFactorEnabled: false });
    const me = await as(t, login.json().token).get('/v1/auth/me');
    assert.equal(me.statusCode, 200);
    assert.deepEqual(me.json(), { account: login.json().account });
  });

  it('refuses wrong credentials with 401', async () => {
    for (const payload of [{ email: 'ada@example.com', password: 'wrong password' }, { email: 'nobody@example.com', password: 'correct horse' }]) {
      const res = await t.inject({ method: 'POST', url: '/v1/auth/login', payload });
      assert.equal(res.statusCode, 401);
      assert.deepEqual(res.json(), envelope(401, 'UnauthorizedError', 'Invalid email or password'));
    }
  });

  it('refuses short passwords, malformed and duplicate e-mails with 400 ValidationError, writing nothing', async () => {
    const before = await count(t, 'accounts');
    const cases: [object, string[]][] = [
      [{ email: 'short@example.com', password: 'seven77' }, ['password']],
      [{ email: 'not-an-email', password: 'long enough' }, ['email']],
      [{ email: 'a@b', password: 'long enough' }, ['email']],
      [{ email: 'ADA@example.com', password: 'long enough' }, ['email']],
      [{ email: "x'); DROP TABLE platform.accounts; --@example.com", password: 'long enough' }, ['email']],
    ];
    for (const [payload, path] of cases) {
      const res = await t.inject({ method: 'POST', url: '/v1/auth/signup', payload });
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      assert.equal(res.json().error.name, 'ValidationError');
      assert.deepEqual(res.json().error.details.errors.map((e: { path: string[] }) => e.path), [path]);
    }
    assert.equal(await count(t, 'accounts'), before);
  });

  it('refuses over-long passwords, names and e-mails, writing nothing', async () => {
    const before = await count(t, 'accounts');
    const cases: [object, string[]][] = [
      [{ email: 'long@example.com', password: 'p'.repeat(201) }, ['password']],
      [{ email: 'long@example.com', password: 'p'.repeat(10_000) }, ['password']],
      [{ email: 'long@example.com', password: 'long enough', name: 'n'.repeat(201) }, ['name']],
      [{ email: 'long@example.com', password: 'long enough', name: 'n'.repeat(10_000) }, ['name']],
      [{ email: `${'e'.repeat(10_000)}@example.com`, password: 'long enough' }, ['email']],
      [{ email: 'ünï@exämple.com', password: 'long enough' }, ['email']],
    ];
    for (const [payload, path] of cases) {
      const res = await t.inject({ method: 'POST', url: '/v1/auth/signup', payload });
      assert.equal(res.statusCode, 400, JSON.stringify(payload).slice(0, 80));
      assert.equal(res.json().error.name, 'ValidationError');
      assert.deepEqual(res.json().error.details.errors.map((e: { path: string[] }) => e.path), [path]);
    }
    // The limits themselves are accepted.
    const edge = await t.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email: 'edge@example.com', password: 'p'.repeat(200), name: 'n'.repeat(200) } });
    assert.equal(edge.statusCode, 201);
    assert.equal(await count(t, 'accounts'), before + 1);
    const eight = await t.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email: 'eight@example.com', password: '12345678' } });
    assert.equal(eight.statusCode, 201);
    assert.deepEqual(eight.json().account, { id: eight.json().account.id, email: 'eight@example.com', name: null, emailVerified: false, twoFactorEnabled: false });
  });

  it('refuses wrong types, unknown and missing keys with paths', async () => {
    const wrongType = await t.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email: 42, password: ['x'] } });
    assert.equal(wrongType.statusCode, 400);
    assert.deepEqual(wrongType.json().error.details.errors.map((e: { path: string[] }) => e.path), [['email'], ['password']]);
    const unknown = await t.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email: 'u@example.com', password: 'long enough', admin: true } });
    assert.equal(unknown.statusCode, 400);
    assert.deepEqual(unknown.json().error.details.errors[0].path, ['admin']);
    const missing = await t.inject({ method: 'POST', url: '/v1/auth/login', payload: {} });
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.json().error.message, '2 errors occurred');
  });

  it('answers malformed JSON with 400 SyntaxError and huge bodies with 413', async () => {
    const bad = await t.inject({ method: 'POST', url: '/v1/auth/signup', headers: { 'content-type': 'application/json' }, payload: '{"email": ' });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error.name, 'SyntaxError');
    assert.deepEqual(bad.json().error.details, {});
    const huge = await t.inject({ method: 'POST', url: '/v1/auth/signup', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email: 'x'.repeat(1_100_000) }) });
    assert.equal(huge.statusCode, 413);
    assert.deepEqual(huge.json(), envelope(413, 'PayloadTooLargeError', 'request entity too large'));
    const deep = await t.inject({ method: 'POST', url: '/v1/auth/signup', headers: { 'content-type': 'application/json' }, payload: '['.repeat(100_000) + ']'.repeat(100_000) });
    assert.equal(deep.statusCode, 400);
  });

  it('answers 401 without, with a malformed or a forged token', async () => {
    const session = await signup(t);
    const forged = session.token.slice(0, -4) + (session.token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: `Basic ${session.token}` }, { authorization: `Bearer ${forged}` }]) {
      const res = await t.inject({ url: '/v1/auth/me', headers });
      assert.equal(res.statusCode, 401, JSON.stringify(headers));
      assert.deepEqual(res.json(), envelope(401, 'UnauthorizedError', 'Missing or invalid credentials'));
    }
    const projects = await t.inject({ url: '/v1/projects' });
    assert.equal(projects.statusCode, 401);
  });

  it('answers 401 to session tokens that are unknown, forged, expired or revoked; only a keyed hash is stored', async () => {
    const session = await signup(t);
    assert.match(session.token, /^cms_s_[A-Za-z0-9_-]{43}$/);
    assert.equal((await as(t, session.token).get('/v1/auth/me')).statusCode, 200);
    const rows = await t.platform.db.pool.any(compiledQuery({ text: 'SELECT token_hash, expires_at - now() > interval \'6 days\' AS fresh FROM platform.sessions WHERE account_id = $1', values: [session.account.id] }));
    assert.equal(rows.length, 1);
    assert.equal((rows[0] as { fresh: boolean }).fresh, true);
    assert.ok(!String((rows[0] as { token_hash: string }).token_hash).includes(session.token.slice(6)));
    const forged = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(String(session.account.id)).setAudience('management')
      .setIssuedAt().setExpirationTime('1h').sign(deriveKey(t.env.APP_SECRET!, 'session-token'));
    for (const token of ['cms_s_' + 'x'.repeat(43), forged, session.token + 'x', 'cms_s_']) {
      const res = await as(t, token).get('/v1/auth/me');
      assert.equal(res.statusCode, 401);
      assert.deepEqual(res.json(), envelope(401, 'UnauthorizedError', 'Missing or invalid credentials'));
    }
    // Sessions end 7 days after their last use.
    await t.platform.db.pool.query(compiledQuery({ text: 'UPDATE platform.sessions SET expires_at = now() - interval \'1 second\' WHERE account_id = $1', values: [session.account.id] }));
    assert.equal((await as(t, session.token).get('/v1/auth/me')).statusCode, 401);
  });

  it('answers 401 before reading the body: no token with a bad, missing or huge body is still 401, nothing written', async () => {
    const before = await count(t, 'projects');
    const attempts = [
      t.inject({ method: 'POST', url: '/v1/projects' }),
      t.inject({ method: 'POST', url: '/v1/projects', payload: { name: 'x'.repeat(10_000) } }),
      t.inject({ method: 'POST', url: '/v1/projects', headers: { 'content-type': 'application/json' }, payload: '{"name": ' }),
      t.inject({ method: 'POST', url: '/v1/projects', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'x'.repeat(1_100_000) }) }),
      t.inject({ method: 'PUT', url: '/v1/projects/whatever/schema', payload: { nope: 1 } }),
      t.inject({ method: 'POST', url: '/v1/projects/whatever/locales' }),
      t.inject({ method: 'POST', url: '/v1/projects/whatever/api-tokens', headers: { authorization: 'Bearer nope' }, payload: {} }),
    ];
    for (const res of await Promise.all(attempts)) {
      assert.equal(res.statusCode, 401, res.body.slice(0, 200));
      assert.deepEqual(res.json(), envelope(401, 'UnauthorizedError', 'Missing or invalid credentials'));
    }
    assert.equal(await count(t, 'projects'), before);
  });
});
