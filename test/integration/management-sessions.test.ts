// Account sessions of the management API: the dashboard's HttpOnly cookie with its CSRF token,
// Bearer tokens for automation, logout, the session list, "log out everywhere", password change —
// and that no account can see or end another's sessions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { as, setCookies, signup } from '../helpers/management.ts';

const envelope = (status: number, name: string, message: string) => ({ data: null, error: { status, name, message, details: {} } });

describe('management API: sessions and the dashboard cookie', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp(); });
  after(async () => t?.close());

  const login = async (email: string, password = 'a long password', headers: Record<string, string> = {}) => {
    const res = await t.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password }, headers });
    assert.equal(res.statusCode, 200, res.body);
    const cookies = setCookies(res);
    return { token: res.json().token as string, session: cookies.cms_session!.value, csrf: cookies.cms_csrf!.value, res };
  };
  const withCookie = (session: string, csrf?: string) => ({ cookie: `cms_session=${session}; cms_csrf=${csrf ?? ''}`, ...(csrf ? { 'x-csrf-token': csrf } : {}) });

  it('login sets an HttpOnly SameSite=Strict session cookie on /v1 and a readable CSRF cookie; Secure over HTTPS', async () => {
    const { account } = await signup(t, 'cookie@example.com');
    const { res, token, session } = await login('cookie@example.com');
    const cookies = setCookies(res);
    assert.equal(session, token);
    assert.deepEqual(cookies.cms_session!.attrs.sort(), ['httponly', 'max-age=604800', 'path=/v1', 'samesite=strict']);
    assert.deepEqual(cookies.cms_csrf!.attrs.sort(), ['max-age=604800', 'path=/', 'samesite=strict']);
    assert.match(cookies.cms_csrf!.value, /^[A-Za-z0-9_-]{43}$/);
    // Behind a trusted TLS-terminating proxy both cookies are Secure.
    const proxied = await startTestApp({ share: t, env: { TRUST_PROXY: 'true' } });
    try {
      const https = await proxied.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'cookie@example.com', password: 'a long password' }, headers: { 'x-forwarded-proto': 'https' } });
      const secure = setCookies(https);
      assert.ok(secure.cms_session!.attrs.includes('secure'));
      assert.ok(secure.cms_csrf!.attrs.includes('secure'));
    } finally {
      await proxied.close();
    }
    const me = await t.inject({ method: 'GET', url: '/v1/auth/me', headers: withCookie(session) });
    assert.equal(me.statusCode, 200);
    assert.equal(me.json().account.id, account.id);
    // The body still carries the token for automation; no cookie is needed with Bearer.
    assert.equal((await as(t, token).get('/v1/auth/me')).statusCode, 200);
  });

  it('a cookie-authenticated change needs the x-csrf-token of that session; Bearer needs none', async () => {
    await signup(t, 'csrf@example.com');
    const a = await login('csrf@example.com');
    const b = await login('csrf@example.com');
    const create = (headers: Record<string, string>) => t.inject({ method: 'POST', url: '/v1/projects', payload: { name: 'Csrf' }, headers });
    for (const headers of [withCookie(a.session), { ...withCookie(a.session), 'x-csrf-token': b.csrf }, { ...withCookie(a.session), 'x-csrf-token': 'x' }]) {
      const res = await create(headers);
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().error.name, 'ForbiddenError');
    }
    const projects = await t.inject({ method: 'GET', url: '/v1/projects', headers: withCookie(a.session) });
    assert.deepEqual(projects.json().projects, []);
    assert.equal((await create(withCookie(a.session, a.csrf))).statusCode, 201);
    assert.equal((await create({ authorization: `Bearer ${a.token}` })).statusCode, 201);
  });

  it('lists the account\'s sessions, marks the current one, ends one, and logs out', async () => {
    await signup(t, 'list@example.com');
    const first = await login('list@example.com', 'a long password', { 'user-agent': 'Browser One' });
    const second = await login('list@example.com', 'a long password', { 'user-agent': 'Browser Two' });
    const listed = await as(t, second.token).get('/v1/auth/sessions');
    assert.equal(listed.statusCode, 200);
    const sessions = listed.json().sessions as Array<{ id: number; userAgent: string; current: boolean; createdAt: string; lastUsedAt: string; expiresAt: string }>;
    assert.deepEqual(sessions.map((s) => [s.userAgent, s.current]).filter(([ua]) => ua !== 'lightMyRequest'), [['Browser Two', true], ['Browser One', false]]);
    const one = sessions.find((s) => s.userAgent === 'Browser One')!;
    assert.deepEqual(Object.keys(one).sort(), ['createdAt', 'current', 'device', 'expiresAt', 'id', 'ip', 'lastSeenIp', 'lastUsedAt', 'userAgent']);
    const ended = await t.inject({ method: 'DELETE', url: `/v1/auth/sessions/${one.id}`, headers: withCookie(second.session, second.csrf) });
    assert.equal(ended.statusCode, 204);
    assert.equal((await as(t, first.token).get('/v1/auth/me')).statusCode, 401);
    assert.equal((await as(t, second.token).del(`/v1/auth/sessions/${one.id}`)).statusCode, 404);
    const out = await t.inject({ method: 'POST', url: '/v1/auth/logout', headers: withCookie(second.session, second.csrf) });
    assert.equal(out.statusCode, 204);
    const cleared = setCookies(out);
    assert.equal(cleared.cms_session!.value, '');
    assert.ok(cleared.cms_session!.attrs.some((a) => a.startsWith('expires=thu, 01 jan 1970')));
    assert.deepEqual((await t.inject({ method: 'GET', url: '/v1/auth/me', headers: withCookie(second.session) })).json(), envelope(401, 'UnauthorizedError', 'Missing or invalid credentials'));
  });

  it('"log out everywhere" ends every session of the account and no other account\'s', async () => {
    await signup(t, 'everywhere@example.com');
    const other = await signup(t, 'bystander@example.com');
    const a = await login('everywhere@example.com');
    const b = await login('everywhere@example.com');
    assert.equal((await as(t, a.token).del('/v1/auth/sessions')).statusCode, 204);
    assert.equal((await as(t, a.token).get('/v1/auth/me')).statusCode, 401);
    assert.equal((await as(t, b.token).get('/v1/auth/me')).statusCode, 401);
    assert.equal((await as(t, other.token).get('/v1/auth/me')).statusCode, 200);
  });

  it('no account sees or ends another account\'s sessions', async () => {
    const victim = await signup(t, 'victim@example.com');
    const attacker = await signup(t, 'attacker@example.com');
    const victimSessions = (await as(t, victim.token).get('/v1/auth/sessions')).json().sessions as Array<{ id: number }>;
    const seen = (await as(t, attacker.token).get('/v1/auth/sessions')).json().sessions as Array<{ id: number }>;
    assert.equal(seen.some((s) => victimSessions.some((v) => v.id === s.id)), false);
    for (const s of victimSessions) assert.equal((await as(t, attacker.token).del(`/v1/auth/sessions/${s.id}`)).statusCode, 404);
    for (const id of ['abc', '0', '-1', '99999999999999999999']) assert.equal((await as(t, attacker.token).del(`/v1/auth/sessions/${id}`)).statusCode, 404);
    assert.equal((await as(t, victim.token).get('/v1/auth/me')).statusCode, 200);
  });

  it('changing the password checks the current one and ends the other sessions', async () => {
    await signup(t, 'pw@example.com');
    const a = await login('pw@example.com');
    const b = await login('pw@example.com');
    const wrong = await as(t, a.token).put('/v1/auth/password', { currentPassword: 'nope', password: 'a brand new password' });
    assert.equal(wrong.statusCode, 400);
    assert.deepEqual(wrong.json().error.details.errors.map((e: { path: string[] }) => e.path), [['currentPassword']]);
    const short = await as(t, a.token).put('/v1/auth/password', { currentPassword: 'a long password', password: 'x' });
    assert.equal(short.statusCode, 400);
    assert.equal((await as(t, a.token).put('/v1/auth/password', { currentPassword: 'a long password', password: 'a brand new password' })).statusCode, 204);
    assert.equal((await as(t, a.token).get('/v1/auth/me')).statusCode, 200);
    assert.equal((await as(t, b.token).get('/v1/auth/me')).statusCode, 401);
    assert.equal((await t.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'pw@example.com', password: 'a long password' } })).statusCode, 401);
    await login('pw@example.com', 'a brand new password');
  });
});
