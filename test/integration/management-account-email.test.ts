// Accounts' e-mail flows through a real SMTP server: the verification link mailed at signup (and
// on request), forgotten password → reset link → new password (answering the same for unknown
// addresses), and deleting an account with the projects only it owned.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { blogRawModel } from '../fixtures/index.ts';
import { as, count, createProject, setCookies, signup, type Session } from '../helpers/management.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

type Json = Record<string, any>;
const envelope = (status: number, name: string, message: string, details: Json = {}) => ({ data: null, error: { status, name, message, details } });
const INVALID_LINK = envelope(400, 'ValidationError', 'This link is invalid or has expired', {
  errors: [{ path: ['token'], message: 'This link is invalid or has expired', name: 'ValidationError' }],
});
const paths = (res: LightMyRequestResponse) => res.json().error.details.errors.map((e: { path: string[] }) => e.path);

describe('management API: account e-mails (verification, password reset) and account deletion', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let n = 0;

  before(async () => {
    smtp = await startSmtp();
    t = await startTestApp({ env: { SMTP_URL: smtp.url, EMAIL_FROM: 'accounts@platform.test' } });
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  const address = (label: string) => `${label}-${++n}@mail.test`;
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) => t.inject({ method: 'POST', url, payload: payload as object, headers });
  const linkToken = async (to: string, subject: string, page: string) => {
    const mail = await smtp.next(to, 10_000, subject);
    assert.equal(mail.from, 'accounts@platform.test');
    assert.match(mail.raw, /Content-Type: text\/plain/i);
    assert.match(mail.raw, /Content-Type: text\/html/i);
    const link = new RegExp(`http://localhost:80/${page}\\?token=(cms_a_[A-Za-z0-9_-]{43})`).exec(mail.text);
    assert.ok(link, mail.text);
    return link[1]!;
  };
  const verifyLink = (to: string) => linkToken(to, 'Verify your e-mail', 'verify-email');
  const resetLink = (to: string) => linkToken(to, 'Reset your password', 'reset-password');
  const tokenRow = async (accountId: number, purpose: string) =>
    (await t.platform.db.pool.any(compiledQuery({
      text: `SELECT token_hash, used_at IS NOT NULL AS used, extract(epoch FROM expires_at - created_at)::int AS lifetime
             FROM platform.account_tokens WHERE account_id = $1 AND purpose = $2 ORDER BY id`,
      values: [accountId, purpose],
    }))) as unknown as Array<{ token_hash: string; used: boolean; lifetime: number }>;
  const login = async (email: string, password = 'a long password') => post('/v1/auth/login', { email, password });

  it('signup mails a verification link; it verifies the address once', async () => {
    const email = address('ann');
    const session = await signup(t, email);
    assert.deepEqual(session.account, { id: session.account.id, email, name: null, emailVerified: false, twoFactorEnabled: false });
    const token = await verifyLink(email);
    // Only a keyed hash is stored; the link lives 24 hours.
    const [row] = await tokenRow(session.account.id, 'verify-email');
    assert.match(row!.token_hash, /^[0-9a-f]{64}$/);
    assert.ok(!row!.token_hash.includes(token.slice(6)));
    assert.deepEqual([row!.used, row!.lifetime], [false, 24 * 3600]);

    // No session needed: the link is opened from the mailbox.
    const verified = await post('/v1/auth/verify-email', { token });
    assert.equal(verified.statusCode, 200, verified.body);
    assert.deepEqual(verified.json(), { account: { ...session.account, emailVerified: true } });
    assert.equal((await tokenRow(session.account.id, 'verify-email'))[0]!.used, true);
    const again = await post('/v1/auth/verify-email', { token });
    assert.deepEqual([again.statusCode, again.json()], [400, INVALID_LINK]);
    assert.deepEqual((await as(t, session).get('/v1/auth/me')).json(), { account: { ...session.account, emailVerified: true } });
    assert.equal((await login(email)).json().account.emailVerified, true);
    assert.equal((await t.inject({ url: '/v1/auth/session', headers: { authorization: `Bearer ${session.token}` } })).json().account.emailVerified, true);
  });

  it('refuses unknown, malformed and expired verification tokens alike', async () => {
    const email = address('exp');
    const session = await signup(t, email);
    const token = await verifyLink(email);
    await t.platform.db.pool.query(compiledQuery({ text: "UPDATE platform.account_tokens SET expires_at = now() - interval '1 second' WHERE account_id = $1", values: [session.account.id] }));
    for (const bad of [token, '', 'nope', `cms_a_${'A'.repeat(43)}`, `${token}x`, token.replace(/^cms_a_/, 'cms_s_')]) {
      const res = await post('/v1/auth/verify-email', { token: bad });
      assert.deepEqual([res.statusCode, res.json()], [400, INVALID_LINK], bad);
    }
    for (const [body, expected] of [[{}, [['token']]], [{ token: 1 }, [['token']]], [{ token: 'x'.repeat(201) }, [['token']]], [{ token: 'x', more: 1 }, [['more']]]] as const) {
      const res = await post('/v1/auth/verify-email', body);
      assert.deepEqual([res.statusCode, paths(res)], [400, expected]);
    }
    assert.equal((await as(t, session).get('/v1/auth/me')).json().account.emailVerified, false);
  });

  it('verify-email/send mails a new link at most once a minute, nothing once verified; needs a session and CSRF', async () => {
    const email = address('ben');
    const session = await signup(t, email);
    const first = await verifyLink(email);
    const sent = await as(t, session).post('/v1/auth/verify-email/send');
    assert.deepEqual([sent.statusCode, sent.body], [204, '']);
    const second = await verifyLink(email);
    assert.notEqual(second, first);
    const tooSoon = await as(t, session).post('/v1/auth/verify-email/send');
    assert.deepEqual([tooSoon.statusCode, tooSoon.json()], [429, envelope(429, 'RateLimitError', 'Too many requests, please try again later.')]);
    assert.ok(Number(tooSoon.headers['retry-after']) >= 1 && Number(tooSoon.headers['retry-after']) <= 60);
    assert.equal((await post('/v1/auth/verify-email/send', undefined)).statusCode, 401);
    const cookie = await t.inject({ method: 'POST', url: '/v1/auth/verify-email/send', headers: { cookie: `cms_session=${session.token}` } });
    assert.deepEqual([cookie.statusCode, cookie.json().error.name], [403, 'ForbiddenError']);
    // Using the newest link spends the older ones too.
    assert.equal((await post('/v1/auth/verify-email', { token: second })).statusCode, 200);
    assert.deepEqual((await post('/v1/auth/verify-email', { token: first })).json(), INVALID_LINK);

    // A verified account asking again gets 204 and no mail.
    const verifiedEmail = address('verified');
    const verified = await signup(t, verifiedEmail);
    assert.equal((await post('/v1/auth/verify-email', { token: await verifyLink(verifiedEmail) })).statusCode, 200);
    const mailsBefore = smtp.mails.length;
    assert.equal((await as(t, verified).post('/v1/auth/verify-email/send')).statusCode, 204);
    await t.platform.background.drain();
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(smtp.mails.slice(mailsBefore).filter((m) => m.to.includes(verifiedEmail)).length, 0);
    assert.equal((await tokenRow(verified.account.id, 'verify-email')).length, 1);
  });

  it('forgot-password answers known and unknown addresses identically; the mailed link resets once and ends every session', async () => {
    const email = address('cat');
    const cat = await signup(t, email);
    await verifyLink(email);
    const other = (await login(email)).json().token as string;
    const unknownEmail = address('nobody');
    const forgot = (address: string) => post('/v1/auth/forgot-password', { email: address });
    const shape = (res: LightMyRequestResponse) => {
      const { date: _date, 'x-request-id': _id, ...headers } = res.headers;
      return { status: res.statusCode, body: res.body, headers };
    };
    const unknown = await forgot(unknownEmail);
    const known = await forgot(email.toUpperCase());
    assert.equal(known.statusCode, 204);
    assert.equal(known.body, '');
    assert.deepEqual(shape(unknown), shape(known));

    const token = await resetLink(email);
    await t.platform.background.drain();
    assert.equal(smtp.mails.filter((m) => m.to.includes(unknownEmail)).length, 0);
    assert.equal(await t.platform.db.pool.oneFirst(compiledQuery({ text: 'SELECT count(*)::int FROM platform.account_tokens t JOIN platform.accounts a ON a.id = t.account_id WHERE lower(a.email) = lower($1)', values: [unknownEmail] })), 0);
    const [row] = await tokenRow(cat.account.id, 'reset-password');
    assert.deepEqual([row!.used, row!.lifetime], [false, 3600]);
    assert.ok(!row!.token_hash.includes(token.slice(6)));

    // A refused password leaves the link unspent.
    const short = await post('/v1/auth/reset-password', { token, password: 'short' });
    assert.deepEqual([short.statusCode, paths(short)], [400, [['password']]]);
    assert.equal((await tokenRow(cat.account.id, 'reset-password'))[0]!.used, false);
    assert.equal((await as(t, cat).get('/v1/auth/me')).statusCode, 200);

    const reset = await post('/v1/auth/reset-password', { token, password: 'a brand new password' });
    assert.deepEqual([reset.statusCode, reset.body], [204, '']);
    for (const session of [cat.token, other]) assert.equal((await as(t, session).get('/v1/auth/me')).statusCode, 401);
    assert.equal(await t.platform.db.pool.oneFirst(compiledQuery({ text: 'SELECT count(*)::int FROM platform.sessions WHERE account_id = $1', values: [cat.account.id] })), 0);
    assert.equal((await login(email)).statusCode, 401);
    const fresh = await login(email, 'a brand new password');
    assert.equal(fresh.statusCode, 200);
    // The link proved access to the mailbox: the address is verified.
    assert.equal(fresh.json().account.emailVerified, true);
    const again = await post('/v1/auth/reset-password', { token, password: 'yet another password' });
    assert.deepEqual([again.statusCode, again.json()], [400, INVALID_LINK]);
    assert.equal((await login(email, 'a brand new password')).statusCode, 200);
  });

  it('refuses expired, unknown and wrong-purpose reset tokens, and malformed bodies', async () => {
    const email = address('dot');
    const dot = await signup(t, email);
    const verifyToken = await verifyLink(email);
    assert.equal((await post('/v1/auth/forgot-password', { email })).statusCode, 204);
    const token = await resetLink(email);
    await t.platform.db.pool.query(compiledQuery({ text: "UPDATE platform.account_tokens SET expires_at = now() - interval '1 second' WHERE account_id = $1 AND purpose = 'reset-password'", values: [dot.account.id] }));
    for (const bad of [token, verifyToken, 'nope', `cms_a_${'B'.repeat(43)}`]) {
      const res = await post('/v1/auth/reset-password', { token: bad, password: 'a brand new password' });
      assert.deepEqual([res.statusCode, res.json()], [400, INVALID_LINK], bad);
    }
    // The verification token was not spent by its use as a reset token.
    assert.equal((await post('/v1/auth/verify-email', { token: verifyToken })).statusCode, 200);
    assert.equal((await login(email)).statusCode, 200);
    for (const [url, body, expected] of [
      ['/v1/auth/forgot-password', { email: 'not-an-email' }, [['email']]],
      ['/v1/auth/forgot-password', { email: 'a@b' }, [['email']]],
      ['/v1/auth/forgot-password', {}, [['email']]],
      ['/v1/auth/forgot-password', { email: `${'e'.repeat(300)}@example.com` }, [['email']]],
      ['/v1/auth/forgot-password', { email, more: 1 }, [['more']]],
      ['/v1/auth/reset-password', { token: 'x' }, [['password']]],
      ['/v1/auth/reset-password', { password: 'a long password' }, [['token']]],
      ['/v1/auth/reset-password', { token: 'x', password: 'p'.repeat(201) }, [['password']]],
    ] as const) {
      const res = await post(url, body);
      assert.deepEqual([res.statusCode, res.json().error.name, paths(res)], [400, 'ValidationError', expected], JSON.stringify(body).slice(0, 80));
    }
  });

  it('limits forgot-password per address whatever the IP, the same for unknown addresses', async () => {
    const limited = await startTestApp({ share: t, env: { AUTH_RATE_LIMIT_MAX: '2' } });
    try {
      const email = address('limited');
      await signup(t, email);
      for (const target of [email, address('limited-unknown')]) {
        const codes = [];
        for (let i = 0; i < 3; i++) {
          const res = await limited.inject({ method: 'POST', url: '/v1/auth/forgot-password', payload: { email: target }, remoteAddress: `10.0.0.${i + 1}` });
          codes.push(res.statusCode);
          if (res.statusCode === 429) assert.deepEqual(res.json(), envelope(429, 'RateLimitError', 'Too many requests, please try again later.'));
        }
        assert.deepEqual(codes, [204, 204, 429]);
      }
      await limited.platform.background.drain();
    } finally {
      await limited.close();
    }
  });

  it('limits signups per client IP (each one mails a link); other clients still sign up', async () => {
    const limited = await startTestApp({ share: t, env: { AUTH_IP_RATE_LIMIT_MAX: '2', TRUST_PROXY: '1' } });
    try {
      const signupFrom = (ip: string, email: string) => limited.inject({
        method: 'POST', url: '/v1/auth/signup', payload: { email, password: 'a long password' }, headers: { 'x-forwarded-for': ip },
      });
      const codes = [];
      for (let i = 0; i < 3; i++) codes.push((await signupFrom('203.0.113.7', address(`ip-limited-${i}`))).statusCode);
      assert.deepEqual(codes, [201, 201, 429]);
      const refused = await signupFrom('203.0.113.7', address('ip-limited-3'));
      assert.deepEqual([refused.statusCode, refused.json()], [429, envelope(429, 'RateLimitError', 'Too many requests, please try again later.')]);
      assert.ok(Number(refused.headers['retry-after']) >= 1);
      // The refused addresses got no account.
      const [{ n }] = (await t.db.pool.query(compiledQuery({ text: 'SELECT count(*)::int AS n FROM platform.accounts WHERE email = ANY($1)', values: [[address('ip-limited-2'), address('ip-limited-3')]] }))).rows as { n: number }[];
      assert.equal(n, 0);
      assert.equal((await signupFrom('198.51.100.9', address('ip-other'))).statusCode, 201);
      await limited.platform.background.drain();
    } finally {
      await limited.close();
    }
  });

  describe('deleting an account', () => {
    let dan: Session;
    let eve: Session;
    let solo: { id: number; slug: string };
    let shared: { id: number; slug: string };
    let evesOwn: { id: number; slug: string };
    let soloKey: string;
    const schemaExists = async (id: number) =>
      Boolean(await t.platform.db.pool.maybeOneFirst(compiledQuery({ text: 'SELECT 1 FROM pg_namespace WHERE nspname = $1', values: [`t_${id}`] })));
    const invite = async (by: Session, project: { slug: string }, who: Session, role: string, name: string) => {
      assert.equal((await as(t, by).post(`/v1/projects/${project.slug}/invitations`, { email: who.account.email, role })).statusCode, 201);
      const mail = await smtp.next(who.account.email, 10_000, `You are invited to ${name}`);
      const token = /invitations\/accept\?token=(cms_i_[A-Za-z0-9_-]{43})/.exec(mail.text)![1];
      assert.equal((await as(t, who).post('/v1/invitations/accept', { token })).statusCode, 200);
    };

    before(async () => {
      dan = await signup(t, address('dan'));
      eve = await signup(t, address('eve'));
      solo = await createProject(t, dan, { name: 'Dan Solo' });
      shared = await createProject(t, dan, { name: 'Dan And Eve' });
      evesOwn = await createProject(t, eve, { name: 'Eve Own' });
      assert.equal((await as(t, dan).put(`/v1/projects/${solo.slug}/schema`, blogRawModel())).statusCode, 200);
      soloKey = (await as(t, dan).post(`/v1/projects/${solo.slug}/api-tokens`, { name: 'k', type: 'read-only' })).json().accessKey;
      assert.equal((await t.inject({ url: `/p/${solo.slug}/api/posts`, headers: { authorization: `Bearer ${soloKey}` } })).statusCode, 200);
      await invite(dan, shared, eve, 'owner', 'Dan And Eve');
      await invite(eve, evesOwn, dan, 'editor', 'Eve Own');
      // A pending invitation sent by Dan outlives him.
      assert.equal((await as(t, dan).post(`/v1/projects/${shared.slug}/invitations`, { email: 'later@mail.test', role: 'viewer' })).statusCode, 201);
    });

    it('needs the password (400 on password), a session and, with the cookie, the CSRF token', async () => {
      const del = (payload: unknown, headers: Record<string, string>) => t.inject({ method: 'DELETE', url: '/v1/auth/account', payload: payload as object, headers });
      const wrong = await del({ password: 'not my password' }, { authorization: `Bearer ${dan.token}` });
      assert.deepEqual([wrong.statusCode, wrong.json()], [400, envelope(400, 'ValidationError', 'The password is not correct', {
        errors: [{ path: ['password'], message: 'The password is not correct', name: 'ValidationError' }],
      })]);
      assert.deepEqual(paths(await del({}, { authorization: `Bearer ${dan.token}` })), [['password']]);
      assert.equal((await del({ password: 'a long password' }, {})).statusCode, 401);
      const noCsrf = await del({ password: 'a long password' }, { cookie: `cms_session=${dan.token}` });
      assert.deepEqual([noCsrf.statusCode, noCsrf.json().error.name], [403, 'ForbiddenError']);
      assert.equal((await as(t, dan).get('/v1/auth/me')).statusCode, 200);
      assert.ok(await schemaExists(solo.id));
    });

    it('deletes the account, its sessions and memberships, and the projects only it owned; shared ones stay', async () => {
      const loginRes = await login(dan.account.email);
      const cookies = setCookies(loginRes);
      const session = cookies.cms_session!.value;
      const csrf = cookies.cms_csrf!.value;
      assert.ok(await t.platform.db.pool.oneFirst(compiledQuery({ text: 'SELECT count(*)::int FROM platform.account_tokens WHERE account_id = $1', values: [dan.account.id] })));
      const res = await t.inject({
        method: 'DELETE', url: '/v1/auth/account', payload: { password: 'a long password' },
        headers: { cookie: `cms_session=${session}; cms_csrf=${csrf}`, 'x-csrf-token': csrf },
      });
      assert.deepEqual([res.statusCode, res.body], [204, '']);
      const cleared = setCookies(res);
      for (const name of ['cms_session', 'cms_csrf']) {
        assert.equal(cleared[name]!.value, '');
        assert.ok(cleared[name]!.attrs.some((a) => a.startsWith('expires=thu, 01 jan 1970')), name);
      }

      // The account and everything hanging from it.
      for (const token of [dan.token, session]) assert.equal((await as(t, token).get('/v1/auth/me')).statusCode, 401);
      assert.equal((await login(dan.account.email)).statusCode, 401);
      for (const table of ['sessions', 'project_members', 'account_tokens']) {
        assert.equal(await t.platform.db.pool.oneFirst(compiledQuery({ text: `SELECT count(*)::int FROM platform.${table} WHERE account_id = $1`, values: [dan.account.id] })), 0, table);
      }
      assert.equal(await t.platform.db.pool.maybeOneFirst(compiledQuery({ text: 'SELECT id FROM platform.accounts WHERE id = $1', values: [dan.account.id] })), null);

      // The project only Dan owned is gone, schema, tokens and all.
      assert.equal(await schemaExists(solo.id), false);
      for (const table of ['projects', 'api_tokens', 'schema_versions', 'locales', 'roles']) {
        const column = table === 'projects' ? 'id' : 'project_id';
        assert.equal(await t.platform.db.pool.oneFirst(compiledQuery({ text: `SELECT count(*)::int FROM platform.${table} WHERE ${column} = $1`, values: [solo.id] })), 0, table);
      }
      assert.equal((await t.inject({ url: `/p/${solo.slug}/api/posts`, headers: { authorization: `Bearer ${soloKey}` } })).statusCode, 404);

      // The project Dan shared with another owner stays, now Eve's; Eve's own project loses its editor.
      assert.ok(await schemaExists(shared.id));
      const sharedJson = await as(t, eve).get(`/v1/projects/${shared.slug}`);
      assert.deepEqual([sharedJson.statusCode, sharedJson.json().project.role], [200, 'owner']);
      assert.equal(await t.platform.db.pool.oneFirst(compiledQuery({ text: 'SELECT account_id FROM platform.projects WHERE id = $1', values: [shared.id] })), eve.account.id);
      const team = (await as(t, eve).get(`/v1/projects/${shared.slug}/members`)).json();
      assert.deepEqual(team.members.map((m: Json) => [m.accountId, m.role]), [[eve.account.id, 'owner']]);
      assert.deepEqual(team.invitations.map((i: Json) => i.email), ['later@mail.test']);
      assert.equal(await t.platform.db.pool.oneFirst(compiledQuery({ text: "SELECT invited_by FROM platform.project_invitations WHERE email = 'later@mail.test'", values: [] })), null);
      assert.deepEqual((await as(t, eve).get(`/v1/projects/${evesOwn.slug}/members`)).json().members.map((m: Json) => m.accountId), [eve.account.id]);
      assert.deepEqual((await as(t, eve).get('/v1/projects')).json().projects.map((p: Json) => p.slug), [shared.slug, evesOwn.slug]);
      assert.equal(await count(t, 'projects'), await t.platform.db.pool.oneFirst(compiledQuery({ text: 'SELECT count(DISTINCT project_id)::int FROM platform.project_members', values: [] })));

      // The address is free again.
      const again = await signup(t, dan.account.email);
      assert.notEqual(again.account.id, dan.account.id);
      assert.deepEqual((await as(t, again).get('/v1/projects')).json(), { projects: [] });
    });
  });
});
