// Two-factor sign-in of platform accounts (docs/two-factor.md): setup, enable (recovery codes once),
// login's second step, replay refusal, single-use recovery codes, disable, wrong-code limits, the
// project rule "members must use two-factor", and that no account reaches another's.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { envelope, fieldError, notFound } from '../helpers/envelope.ts';
import { addMember, as, count, createProject, PASSWORD, signup, type Session } from '../helpers/management.ts';
import { nextCode, wrongCode } from '../helpers/two-factor.ts';

const CODE_NEEDED = envelope(401, 'TwoFactorRequired', 'Enter the code from your authenticator app, or a recovery code');
const CODE_REFUSED = envelope(401, 'TwoFactorRequired', 'The code is not correct or was already used');
const SETUP_REQUIRED = envelope(403, 'TwoFactorSetupRequired', 'This project requires two-factor authentication: turn it on for your account to continue');
const WRONG_CODE = fieldError(['code'], 'The code is not correct');
const RECOVERY_CODE = /^[a-hj-km-np-z2-9]{5}-[a-hj-km-np-z2-9]{5}$/;

describe('management API: two-factor sign-in', () => {
  let t: TestApp;
  const login = (email: string, password = PASSWORD, code?: string) =>
    t.inject({ method: 'POST', url: '/v1/auth/login', payload: code === undefined ? { email, password } : { email, password, code } });
  const row = async (accountId: number) => (await t.platform.db.pool.maybeOne(compiledQuery({
    text: 'SELECT secret, pending_secret, enabled_at IS NOT NULL AS enabled FROM platform.account_two_factor WHERE account_id = $1', values: [accountId],
  }))) as { secret: string | null; pending_secret: string | null; enabled: boolean } | null;
  const codeRows = async (accountId: number) => (await t.platform.db.pool.any(compiledQuery({
    text: 'SELECT code_hash, used_at IS NOT NULL AS used FROM platform.account_recovery_codes WHERE account_id = $1 ORDER BY code_hash', values: [accountId],
  }))) as unknown as Array<{ code_hash: string; used: boolean }>;

  /** The account's own audit entries about two-factor (docs/audit-log.md), oldest first. */
  const audited = async (accountId: number) => (await t.platform.db.pool.any(compiledQuery({
    text: "SELECT action, payload FROM platform.audit_logs WHERE account_id = $1 AND project_id IS NULL AND action LIKE 'account.2fa.%' ORDER BY id",
    values: [accountId],
  }))) as unknown as Array<{ action: string; payload: Record<string, unknown> }>;

  /** A new account with two-factor on: its secret and recovery codes. */
  async function withTwoFactor(): Promise<{ session: Session; secret: string; recoveryCodes: string[] }> {
    const session = await signup(t);
    const setup = await as(t, session).post('/v1/auth/2fa/setup');
    assert.equal(setup.statusCode, 200, setup.body);
    const { secret } = setup.json();
    const enabled = await as(t, session).post('/v1/auth/2fa/enable', { code: await nextCode(secret) });
    assert.equal(enabled.statusCode, 200, enabled.body);
    return { session, secret, recoveryCodes: enabled.json().recoveryCodes };
  }

  // Sign-in lockouts (docs/sessions.md) are not what this file tests: out of the way.
  before(async () => { t = await startTestApp({ env: { AUTH_LOCKOUT_THRESHOLD: '100', AUTH_LOCKOUT_IP_THRESHOLD: '1000' } }); });
  after(async () => t?.close());

  it('setup answers a new secret and its otpauth URL; the secret is stored encrypted, pending', async () => {
    const session = await signup(t);
    const res = await as(t, session).post('/v1/auth/2fa/setup');
    assert.equal(res.statusCode, 200);
    const { secret, otpauthUrl } = res.json();
    assert.deepEqual(Object.keys(res.json()).sort(), ['otpauthUrl', 'secret']);
    assert.match(secret, /^[A-Z2-7]{32}$/);
    const url = new URL(otpauthUrl);
    assert.equal(url.protocol, 'otpauth:');
    assert.equal(url.host, 'totp');
    assert.equal(decodeURIComponent(url.pathname), `/Content Platform:${session.account.email}`);
    assert.equal(url.searchParams.get('secret'), secret);
    assert.equal(url.searchParams.get('issuer'), 'Content Platform');
    for (const [key, value] of [['algorithm', 'SHA1'], ['digits', '6'], ['period', '30']]) {
      assert.ok([null, value].includes(url.searchParams.get(key!)), key);
    }
    const stored = await row(session.account.id);
    assert.equal(stored?.secret, null);
    assert.equal(stored?.enabled, false);
    assert.match(stored!.pending_secret!, /^v1\./);
    assert.ok(!stored!.pending_secret!.includes(secret));
    assert.deepEqual((await as(t, session).get('/v1/auth/me')).json().account.twoFactorEnabled, false);
    assert.deepEqual((await as(t, session).get('/v1/auth/2fa')).json(), { enabled: false, recoveryCodesLeft: 0 });
    // Still off: login needs no code.
    assert.equal((await login(session.account.email)).statusCode, 200);
  });

  it('enable: a wrong code is 400 on `code`; the right one turns it on and answers 10 recovery codes, stored hashed', async () => {
    const session = await signup(t);
    const noSetup = await as(t, session).post('/v1/auth/2fa/enable', { code: '123456' });
    assert.equal(noSetup.statusCode, 400);
    assert.deepEqual(noSetup.json(), envelope(400, 'ApplicationError', 'Start with the setup: there is no authenticator waiting for confirmation'));
    // A second setup replaces the first: only the newest secret's codes enable.
    const first = (await as(t, session).post('/v1/auth/2fa/setup')).json().secret;
    const { secret } = (await as(t, session).post('/v1/auth/2fa/setup')).json();
    assert.notEqual(first, secret);
    const stale = await as(t, session).post('/v1/auth/2fa/enable', { code: await nextCode(first) });
    assert.deepEqual([stale.statusCode, stale.json()], [400, WRONG_CODE]);
    const wrong = await as(t, session).post('/v1/auth/2fa/enable', { code: await wrongCode(secret) });
    assert.deepEqual([wrong.statusCode, wrong.json()], [400, WRONG_CODE]);
    assert.equal((await row(session.account.id))?.enabled, false);

    const res = await as(t, session).post('/v1/auth/2fa/enable', { code: await nextCode(secret) });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(Object.keys(res.json()), ['recoveryCodes']);
    const { recoveryCodes } = res.json() as { recoveryCodes: string[] };
    assert.equal(recoveryCodes.length, 10);
    assert.equal(new Set(recoveryCodes).size, 10);
    for (const code of recoveryCodes) assert.match(code, RECOVERY_CODE);
    const stored = await row(session.account.id);
    assert.deepEqual([stored?.enabled, stored?.pending_secret], [true, null]);
    assert.match(stored!.secret!, /^v1\./);
    assert.ok(!stored!.secret!.includes(secret));
    const hashes = await codeRows(session.account.id);
    assert.equal(hashes.length, 10);
    for (const h of hashes) {
      assert.match(h.code_hash, /^[0-9a-f]{64}$/);
      assert.ok(!recoveryCodes.some((c) => h.code_hash.includes(c.replace('-', ''))));
    }
    assert.equal((await as(t, session).get('/v1/auth/me')).json().account.twoFactorEnabled, true);
    assert.deepEqual(await audited(session.account.id), [{ action: 'account.2fa.enable', payload: {} }]);
  });

  it('never returns the secret again: setup is refused (409) while it is on, and no route shows it', async () => {
    const { session, secret } = await withTwoFactor();
    const again = await as(t, session).post('/v1/auth/2fa/setup');
    assert.deepEqual([again.statusCode, again.json()],
      [409, envelope(409, 'ApplicationError', 'Two-factor authentication is already on; turn it off first to set up a new authenticator')]);
    const enableAgain = await as(t, session).post('/v1/auth/2fa/enable', { code: '123456' });
    assert.deepEqual([enableAgain.statusCode, enableAgain.json()], [409, envelope(409, 'ApplicationError', 'Two-factor authentication is already on')]);
    for (const url of ['/v1/auth/2fa', '/v1/auth/me', '/v1/auth/session', '/v1/auth/sessions']) {
      const res = await as(t, session).get(url);
      assert.equal(res.statusCode, 200, url);
      assert.ok(!res.body.includes(secret), url);
    }
    assert.deepEqual((await as(t, session).get('/v1/auth/2fa')).json(), { enabled: true, recoveryCodesLeft: 10 });
  });

  it('login: 401 TwoFactorRequired until a right code; a wrong password stays a plain 401 whatever the code', async () => {
    const { session, secret } = await withTwoFactor();
    const email = session.account.email;
    const sessions = await count(t, 'sessions');
    const badPassword = envelope(401, 'UnauthorizedError', 'Invalid email or password');
    for (const code of [undefined, await wrongCode(secret)]) {
      const res = await login(email, 'not the password', code);
      assert.deepEqual([res.statusCode, res.json()], [401, badPassword]);
    }
    const noCode = await login(email);
    assert.deepEqual([noCode.statusCode, noCode.json()], [401, CODE_NEEDED]);
    const empty = await login(email, PASSWORD, '');
    assert.deepEqual([empty.statusCode, empty.json()], [401, CODE_NEEDED]);
    const wrong = await login(email, PASSWORD, await wrongCode(secret));
    assert.deepEqual([wrong.statusCode, wrong.json()], [401, CODE_REFUSED]);
    assert.equal(await count(t, 'sessions'), sessions);

    const code = await nextCode(secret);
    const ok = await login(email, PASSWORD, code);
    assert.equal(ok.statusCode, 200, ok.body);
    assert.deepEqual(ok.json().account, { ...session.account, twoFactorEnabled: true });
    assert.equal((await as(t, ok.json().token).get('/v1/auth/me')).statusCode, 200);
    // The same code again (a replay, even within its 30 s) is refused.
    const replay = await login(email, PASSWORD, code);
    assert.deepEqual([replay.statusCode, replay.json()], [401, CODE_REFUSED]);
    assert.equal(await count(t, 'sessions'), sessions + 1);
  });

  it('a recovery code signs in once, in any case and with or without its dash', async () => {
    const { session, recoveryCodes } = await withTwoFactor();
    const email = session.account.email;
    const first = await login(email, PASSWORD, recoveryCodes[0]);
    assert.equal(first.statusCode, 200, first.body);
    const again = await login(email, PASSWORD, recoveryCodes[0]);
    assert.deepEqual([again.statusCode, again.json()], [401, CODE_REFUSED]);
    const loose = await login(email, PASSWORD, ` ${recoveryCodes[1]!.replace('-', '').toUpperCase()} `);
    assert.equal(loose.statusCode, 200, loose.body);
    assert.deepEqual((await codeRows(session.account.id)).filter((r) => r.used).length, 2);
    assert.deepEqual((await as(t, session).get('/v1/auth/2fa')).json(), { enabled: true, recoveryCodesLeft: 8 });
    assert.deepEqual(await audited(session.account.id), [
      { action: 'account.2fa.enable', payload: {} },
      { action: 'account.2fa.recovery-code.use', payload: { for: 'sign-in', remaining: 9 } },
      { action: 'account.2fa.recovery-code.use', payload: { for: 'sign-in', remaining: 8 } },
    ]);
  });

  it('disable needs a code (TOTP or recovery); wrong is 400; after it login needs none and nothing is kept', async () => {
    const a = await withTwoFactor();
    const wrong = await as(t, a.session).post('/v1/auth/2fa/disable', { code: await wrongCode(a.secret) });
    assert.deepEqual([wrong.statusCode, wrong.json()], [400, WRONG_CODE]);
    const missing = await as(t, a.session).post('/v1/auth/2fa/disable', {});
    assert.deepEqual([missing.statusCode, missing.json()], [400, fieldError(['code'], 'code is a required field')]);
    const off = await as(t, a.session).post('/v1/auth/2fa/disable', { code: await nextCode(a.secret) });
    assert.deepEqual([off.statusCode, off.json()], [200, { twoFactorEnabled: false }]);
    assert.equal(await row(a.session.account.id), null);
    assert.deepEqual(await codeRows(a.session.account.id), []);
    assert.equal((await login(a.session.account.email)).statusCode, 200);
    const twice = await as(t, a.session).post('/v1/auth/2fa/disable', { code: '123456' });
    assert.deepEqual([twice.statusCode, twice.json()], [400, envelope(400, 'ApplicationError', 'Two-factor authentication is not on for this account')]);

    const b = await withTwoFactor();
    const byRecovery = await as(t, b.session).post('/v1/auth/2fa/disable', { code: b.recoveryCodes[9] });
    assert.equal(byRecovery.statusCode, 200, byRecovery.body);
    assert.equal((await as(t, b.session).get('/v1/auth/me')).json().account.twoFactorEnabled, false);
    assert.deepEqual(await audited(a.session.account.id), [{ action: 'account.2fa.enable', payload: {} }, { action: 'account.2fa.disable', payload: { method: 'totp' } }]);
    assert.deepEqual(await audited(b.session.account.id), [
      { action: 'account.2fa.enable', payload: {} },
      { action: 'account.2fa.recovery-code.use', payload: { for: 'disable', remaining: 0 } },
      { action: 'account.2fa.disable', payload: { method: 'recovery-code' } },
    ]);
    // The account's own log shows them (GET /v1/auth/audit-logs).
    const log = await as(t, b.session).get('/v1/auth/audit-logs?pageSize=100');
    assert.equal(log.statusCode, 200, log.body);
    const actions = log.json().data.map((e: { action: string }) => e.action).filter((a: string) => a.startsWith('account.2fa.'));
    assert.deepEqual(actions, ['account.2fa.disable', 'account.2fa.recovery-code.use', 'account.2fa.enable']);
  });

  it('validates bodies: no 500 on bad input, every error in the envelope', async () => {
    const session = await signup(t);
    const cases: Array<[string, unknown]> = [
      ['/v1/auth/2fa/enable', { code: 123456 }],
      ['/v1/auth/2fa/enable', { code: 'x'.repeat(65) }],
      ['/v1/auth/2fa/enable', { code: '123456', extra: 1 }],
      ['/v1/auth/2fa/disable', []],
    ];
    for (const [url, payload] of cases) {
      const res = await as(t, session).post(url, payload);
      assert.equal(res.statusCode, 400, `${url} ${JSON.stringify(payload)}`);
      assert.equal(res.json().error.name, 'ValidationError');
      assert.deepEqual(Object.keys(res.json()), ['data', 'error']);
    }
    const tooLong = await login(session.account.email, PASSWORD, '1'.repeat(65));
    assert.equal(tooLong.statusCode, 400);
    assert.equal(tooLong.json().error.name, 'ValidationError');
    for (const url of ['/v1/auth/2fa', '/v1/auth/2fa/setup', '/v1/auth/2fa/enable', '/v1/auth/2fa/disable']) {
      const res = await t.inject({ method: url === '/v1/auth/2fa' ? 'GET' : 'POST', url, payload: url === '/v1/auth/2fa' ? undefined : { code: '123456' } });
      assert.deepEqual([res.statusCode, res.json()], [401, envelope(401, 'UnauthorizedError', 'Missing or invalid credentials')], url);
    }
  });

  it('wrong codes are limited per account: past AUTH_RATE_LIMIT_MAX, 429 even for a right code', async () => {
    const session = await signup(t);
    const { secret } = (await as(t, session).post('/v1/auth/2fa/setup')).json();
    const max = t.platform.config.limits.authAttempts.max;
    for (let i = 0; i < max; i++) {
      assert.equal((await as(t, session).post('/v1/auth/2fa/enable', { code: await wrongCode(secret) })).statusCode, 400);
    }
    const limited = await as(t, session).post('/v1/auth/2fa/enable', { code: await nextCode(secret) });
    assert.equal(limited.statusCode, 429);
    assert.deepEqual(limited.json(), envelope(429, 'RateLimitError', 'Too many requests, please try again later.'));
    assert.equal((await row(session.account.id))?.enabled, false);
    // Another account's budget is its own.
    const other = await withTwoFactor();
    assert.equal(other.recoveryCodes.length, 10);
  });

  it('another account never reaches yours: its calls act on its own two-factor only', async () => {
    const mine = await withTwoFactor();
    const intruder = await signup(t);
    const before = { row: await row(mine.session.account.id), codes: await codeRows(mine.session.account.id) };
    // My codes mean nothing to its account (two-factor off there), and never turn mine off.
    const disable = await as(t, intruder).post('/v1/auth/2fa/disable', { code: mine.recoveryCodes[0] });
    assert.deepEqual([disable.statusCode, disable.json()], [400, envelope(400, 'ApplicationError', 'Two-factor authentication is not on for this account')]);
    const setup = await as(t, intruder).post('/v1/auth/2fa/setup');
    assert.equal(setup.statusCode, 200);
    assert.notEqual(setup.json().secret, mine.secret);
    assert.ok(setup.json().otpauthUrl.includes(encodeURIComponent(intruder.account.email)));
    const enable = await as(t, intruder).post('/v1/auth/2fa/enable', { code: await nextCode(mine.secret) });
    assert.deepEqual([enable.statusCode, enable.json()], [400, WRONG_CODE]);
    assert.deepEqual((await as(t, intruder).get('/v1/auth/2fa')).json(), { enabled: false, recoveryCodesLeft: 0 });
    assert.deepEqual({ row: await row(mine.session.account.id), codes: await codeRows(mine.session.account.id) }, before);
    // Its recovery codes do not sign me in, nor mine it.
    const theirs = await withTwoFactor();
    const cross = await login(mine.session.account.email, PASSWORD, theirs.recoveryCodes[0]);
    assert.deepEqual([cross.statusCode, cross.json()], [401, CODE_REFUSED]);
    assert.equal((await login(theirs.session.account.email, PASSWORD, mine.recoveryCodes[0])).statusCode, 401);
  });

  describe('the project rule "members must use two-factor"', () => {
    let owner: { session: Session; secret: string };
    let editor: Session;
    let outsider: Session;
    let project: { id: number; slug: string };
    let other: { id: number; slug: string };
    const base = () => `/v1/projects/${project.slug}`;

    before(async () => {
      owner = { session: await signup(t), secret: '' };
      editor = await signup(t);
      outsider = await signup(t);
      project = await createProject(t, owner.session, { name: 'Secured' });
      other = await createProject(t, editor, { name: 'Open' });
      await addMember(t, project.id, editor, 'editor');
    });

    it('is off by default; only owners change it, and only with two-factor on themselves', async () => {
      assert.deepEqual((await as(t, editor).get(`${base()}/settings/security`)).json(), { security: { requireTwoFactor: false } });
      const byEditor = await as(t, editor).put(`${base()}/settings/security`, { requireTwoFactor: true });
      assert.deepEqual([byEditor.statusCode, byEditor.json()], [403, envelope(403, 'ForbiddenError', 'Only the owners of this project can do this (your role: editor)')]);
      const withoutOwn = await as(t, owner.session).put(`${base()}/settings/security`, { requireTwoFactor: true });
      assert.deepEqual([withoutOwn.statusCode, withoutOwn.json()],
        [403, envelope(403, 'TwoFactorSetupRequired', 'Turn on two-factor authentication for your own account before requiring it of the members')]);
      for (const payload of [{}, { requireTwoFactor: 'yes' }, { requireTwoFactor: true, other: 1 }]) {
        const bad = await as(t, owner.session).put(`${base()}/settings/security`, payload);
        assert.equal(bad.statusCode, 400, JSON.stringify(payload));
        assert.equal(bad.json().error.name, 'ValidationError');
      }
      // Another account: the project does not exist for it.
      for (const res of [await as(t, outsider).get(`${base()}/settings/security`), await as(t, outsider).put(`${base()}/settings/security`, { requireTwoFactor: true })]) {
        assert.deepEqual([res.statusCode, res.json()], [404, notFound()]);
      }
      const { secret } = (await as(t, owner.session).post('/v1/auth/2fa/setup')).json();
      owner.secret = secret;
      assert.equal((await as(t, owner.session).post('/v1/auth/2fa/enable', { code: await nextCode(secret) })).statusCode, 200);
      const on = await as(t, owner.session).put(`${base()}/settings/security`, { requireTwoFactor: true });
      assert.deepEqual([on.statusCode, on.json()], [200, { security: { requireTwoFactor: true } }]);
      const stored = await t.platform.db.pool.oneFirst(compiledQuery({ text: "SELECT settings->'security' FROM platform.projects WHERE id = $1", values: [project.id] }));
      assert.deepEqual(stored, { requireTwoFactor: true });
    });

    it('members without two-factor get 403 TwoFactorSetupRequired on the project, 200 once they turn it on', async () => {
      for (const url of [base(), `${base()}/schema`, `${base()}/settings/security`, `${base()}/members`]) {
        const res = await as(t, editor).get(url);
        assert.deepEqual([res.statusCode, res.json()], [403, SETUP_REQUIRED], url);
      }
      const write = await as(t, editor).put(`${base()}/settings/graphql`, { maxLimit: 50 });
      assert.deepEqual([write.statusCode, write.json()], [403, SETUP_REQUIRED]);
      // Its other projects and its account are not affected; the list still shows the project.
      assert.equal((await as(t, editor).get(`/v1/projects/${other.slug}`)).statusCode, 200);
      assert.deepEqual((await as(t, editor).get('/v1/projects')).json().projects.map((p: { slug: string }) => p.slug).sort(), [other.slug, project.slug].sort());
      // The owner (two-factor on) works as before; an outsider still sees nothing.
      assert.equal((await as(t, owner.session).get(base())).statusCode, 200);
      assert.deepEqual((await as(t, outsider).get(base())).json(), notFound());

      const { secret } = (await as(t, editor).post('/v1/auth/2fa/setup')).json();
      assert.equal((await as(t, editor).post('/v1/auth/2fa/enable', { code: await nextCode(secret) })).statusCode, 200);
      assert.equal((await as(t, editor).get(base())).statusCode, 200);
      assert.deepEqual((await as(t, editor).get(`${base()}/settings/security`)).json(), { security: { requireTwoFactor: true } });

      // Turning it off again (with a code) blocks it again; the owner lifting the rule frees it.
      assert.equal((await as(t, editor).post('/v1/auth/2fa/disable', { code: await nextCode(secret) })).statusCode, 200);
      assert.deepEqual((await as(t, editor).get(base())).json(), SETUP_REQUIRED);
      const offRule = await as(t, owner.session).put(`${base()}/settings/security`, { requireTwoFactor: false });
      assert.deepEqual([offRule.statusCode, offRule.json()], [200, { security: { requireTwoFactor: false } }]);
      assert.equal((await as(t, editor).get(base())).statusCode, 200);
    });
  });
});
