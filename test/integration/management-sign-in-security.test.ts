// Sign-in protection and sessions (docs/sessions.md): failed sign-ins lock the account and the
// client IP with a capped exponential lockout (shortened here by env), a locked sign-in is the same
// 429 whatever the password; sessions show device, IP and last seen IP; a sign-in from a new device
// is mailed once; and a session ended through one gateway process is refused by another at once.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, TEST_REDIS_URL, type TestDatabase } from '../helpers/db.ts';
import { as, PASSWORD, setCookies, signup } from '../helpers/management.ts';
import { call, spawnGateway, type GatewayProcess } from '../helpers/process.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { nextCode, wrongCode } from '../helpers/two-factor.ts';

const LOCKED = { data: null, error: { status: 429, name: 'RateLimitError', message: 'Too many failed sign-ins, please try again later.', details: {} } };
const WRONG = { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Invalid email or password', details: {} } };
const CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0';
const NEW_SIGN_IN = 'New sign-in to your account';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('sign-in lockout, session devices and new-device mails', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  before(async () => {
    smtp = await startSmtp();
    t = await startTestApp({
      env: {
        SMTP_URL: smtp.url, EMAIL_FROM: 'accounts@platform.test',
        AUTH_LOCKOUT_BASE_MS: '1000', AUTH_LOCKOUT_MAX_MS: '4000', AUTH_LOCKOUT_IP_THRESHOLD: '8',
      },
    });
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  let ipCounter = 0;
  /** A client IP of its own for each call, unless given: the per-IP budget stays out of the per-account tests. */
  const login = (email: string, password: string, opts: { ip?: string; ua?: string; cookie?: string } = {}) => t.inject({
    method: 'POST', url: '/v1/auth/login', payload: { email, password }, remoteAddress: opts.ip ?? `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`,
    headers: { ...(opts.ua ? { 'user-agent': opts.ua } : {}), ...(opts.cookie ? { cookie: opts.cookie } : {}) },
  });
  const answer = (res: Awaited<ReturnType<typeof login>>) => [res.statusCode, res.json(), res.headers['retry-after']];
  /** Fails `n` times, each 401. */
  async function fail(email: string, n: number, ip?: string) {
    for (let i = 0; i < n; i++) assert.deepEqual(answer(await login(email, 'not the password', { ip })), [401, WRONG, undefined]);
  }
  async function settled() {
    await t.platform.background.drain();
    await sleep(300);
  }

  it('five failures lock the account: 429 with Retry-After, the same with the right password; it unlocks after the lock', async () => {
    const email = 'locked@example.com';
    await signup(t, email);
    await fail(email, 5);
    const right = await login(email, PASSWORD);
    const wrong = await login(email, 'not the password');
    assert.deepEqual(answer(right), [429, LOCKED, '1']);
    assert.deepEqual(answer(wrong), [429, LOCKED, '1']);
    assert.equal(right.headers['set-cookie'], undefined);
    // The address is matched case- and space-insensitively.
    assert.deepEqual(answer(await login(' LOCKED@Example.com ', PASSWORD)), [429, LOCKED, '1']);
    // An address with no account locks the same way: a lock tells nothing.
    await fail('nobody@example.com', 5);
    assert.deepEqual(answer(await login('nobody@example.com', PASSWORD)), [429, LOCKED, '1']);
    // Other accounts are not concerned.
    const other = await signup(t, 'bystander@example.com');
    assert.equal((await login('bystander@example.com', PASSWORD)).statusCode, 200);
    assert.equal((await as(t, other).get('/v1/auth/me')).statusCode, 200);
    await sleep(1100);
    const unlocked = await login(email, PASSWORD);
    assert.equal(unlocked.statusCode, 200, unlocked.body);
  });

  it('each further failure doubles the lock up to the cap; a success resets the count', async () => {
    const email = 'doubling@example.com';
    await signup(t, email);
    await fail(email, 5);
    assert.equal((await login(email, PASSWORD)).headers['retry-after'], '1');
    await sleep(1100);
    await fail(email, 1);
    assert.deepEqual(answer(await login(email, PASSWORD)), [429, LOCKED, '2']);
    await sleep(2100);
    await fail(email, 1);
    assert.deepEqual(answer(await login(email, PASSWORD)), [429, LOCKED, '4']);
    await sleep(4100);
    await fail(email, 1);
    // 8 s would come next: the cap (AUTH_LOCKOUT_MAX_MS, 4 s here) holds.
    assert.deepEqual(answer(await login(email, 'not the password')), [429, LOCKED, '4']);
    await sleep(4100);
    assert.equal((await login(email, PASSWORD)).statusCode, 200);
    // Counted from zero again: four failures lock nothing.
    await fail(email, 4);
    assert.equal((await login(email, PASSWORD)).statusCode, 200);
  });

  it('concurrent failures cannot slip past the threshold', async () => {
    const email = 'burst@example.com';
    await signup(t, email);
    const answers = await Promise.all(Array.from({ length: 20 }, () => login(email, 'not the password')));
    const statuses = answers.map((r) => r.statusCode).sort();
    assert.equal(statuses.filter((s) => s === 401).length, 5, statuses.join());
    assert.equal(statuses.filter((s) => s === 429).length, 15, statuses.join());
    assert.equal((await login(email, PASSWORD)).statusCode, 429);
  });

  it('with two-factor on, wrong codes count as failures (a missing one does not): locked, even the right password and code get the same 429', async () => {
    const email = 'second-factor@example.com';
    const owner = await signup(t, email);
    const { secret } = (await as(t, owner).post('/v1/auth/2fa/setup')).json() as { secret: string };
    assert.equal((await as(t, owner).post('/v1/auth/2fa/enable', { code: await nextCode(secret) })).statusCode, 200);
    const withCode = (code?: string) => t.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password: PASSWORD, ...(code ? { code } : {}) }, remoteAddress: `10.70.0.${++ipCounter % 250}` });
    // The right password without a code is the first of two steps, not a failure (asked six times: still not locked).
    for (let i = 0; i < 6; i++) {
      const asked = await withCode();
      assert.deepEqual([asked.statusCode, asked.json().error.name], [401, 'TwoFactorRequired']);
    }
    for (let i = 0; i < 5; i++) {
      const wrong = await withCode(await wrongCode(secret));
      assert.deepEqual([wrong.statusCode, wrong.json().error.name], [401, 'TwoFactorRequired']);
    }
    assert.deepEqual(answer(await withCode(await nextCode(secret))), [429, LOCKED, '1']);
    await sleep(1100);
    assert.equal((await withCode(await nextCode(secret))).statusCode, 200);
    const reasons = await t.platform.db.pool.anyFirst(compiledQuery({
      text: `SELECT payload->>'reason' FROM platform.audit_logs WHERE account_id = $1 AND action = 'admin.auth.failure' ORDER BY id`, values: [owner.account.id],
    }));
    assert.deepEqual(reasons, ['two-factor', 'two-factor', 'two-factor', 'two-factor', 'two-factor']);
  });

  it('failures from one IP, whatever the account, lock that IP (a larger budget); a success does not reset it', async () => {
    await signup(t, 'ip-victim@example.com');
    const ip = '192.0.2.10';
    // Eight failures over eight addresses (AUTH_LOCKOUT_IP_THRESHOLD=8), with a success in between.
    for (let i = 0; i < 4; i++) await fail(`spray${i}@example.com`, 1, ip);
    assert.equal((await login('ip-victim@example.com', PASSWORD, { ip })).statusCode, 200);
    for (let i = 4; i < 8; i++) await fail(`spray${i}@example.com`, 1, ip);
    assert.deepEqual(answer(await login('ip-victim@example.com', PASSWORD, { ip })), [429, LOCKED, '1']);
    assert.deepEqual(answer(await login('spray9@example.com', 'x', { ip })), [429, LOCKED, '1']);
    // Another IP signs in to the same account.
    assert.equal((await login('ip-victim@example.com', PASSWORD, { ip: '192.0.2.11' })).statusCode, 200);
  });

  it('sessions show device, IP and the last seen IP (updated at most once a minute); another account sees none of them', async () => {
    const email = 'devices@example.com';
    const owner = await signup(t, email);
    const first = await login(email, PASSWORD, { ip: '203.0.113.5', ua: CHROME });
    const token = first.json().token as string;
    const ofToken = async () => {
      const listed = await t.inject({ method: 'GET', url: '/v1/auth/sessions', headers: { authorization: `Bearer ${token}` }, remoteAddress: '203.0.113.5' });
      assert.equal(listed.statusCode, 200);
      return (listed.json().sessions as Array<Record<string, unknown>>).find((s) => s.current)!;
    };
    let mine = await ofToken();
    assert.deepEqual({ device: mine.device, ip: mine.ip, lastSeenIp: mine.lastSeenIp, userAgent: mine.userAgent }, { device: 'Chrome 120 on macOS', ip: '203.0.113.5', lastSeenIp: '203.0.113.5', userAgent: CHROME });
    const me = (ip: string) => t.inject({ method: 'GET', url: '/v1/auth/me', headers: { authorization: `Bearer ${token}` }, remoteAddress: ip });
    // Within the minute the row is not written again.
    assert.equal((await me('198.51.100.7')).statusCode, 200);
    assert.equal((await ofToken()).lastSeenIp, '203.0.113.5');
    // A minute on, the next use records its IP; the sign-in IP stays.
    await t.platform.db.pool.query(compiledQuery({ text: `UPDATE platform.sessions SET last_used_at = now() - interval '2 minutes' WHERE account_id = $1`, values: [owner.account.id] }));
    assert.equal((await me('198.51.100.7')).statusCode, 200);
    mine = await ofToken();
    assert.deepEqual([mine.ip, mine.lastSeenIp], ['203.0.113.5', '198.51.100.7']);
    assert.ok(Date.now() - Date.parse(mine.lastUsedAt as string) < 60_000);
    // Labels of other clients; a client bowser does not know is shown by its user agent.
    await login(email, PASSWORD, { ua: FIREFOX });
    await login(email, PASSWORD, { ua: 'curl/8.4.0' });
    const devices = ((await as(t, token).get('/v1/auth/sessions')).json().sessions as Array<{ device: string }>).map((s) => s.device).sort();
    assert.deepEqual(devices, ['Chrome 120 on macOS', 'Firefox 121 on Windows', 'curl/8.4.0', 'lightMyRequest']);
    // Tenant isolation: another account lists only its own sessions.
    const stranger = await signup(t, 'stranger@example.com');
    const theirs = (await as(t, stranger).get('/v1/auth/sessions')).json().sessions as Array<{ ip: string; device: string }>;
    assert.equal(theirs.length, 1);
    assert.equal(theirs[0]!.ip, '127.0.0.1');
  });

  it('a sign-in from a new device is mailed once; a known device (its cookie, or the same user agent and IP) is not; signup is not', async () => {
    const email = 'newdevice@example.com';
    await t.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email, password: PASSWORD }, remoteAddress: '10.50.0.1', headers: { 'user-agent': FIREFOX } });
    await settled();
    const mailsTo = () => smtp.mails.filter((m) => m.to.includes(email) && m.subject === NEW_SIGN_IN);
    assert.equal(mailsTo().length, 0);

    // A script (no cookies): new, mailed once with its device, IP, time and what to do.
    const script = await login(email, PASSWORD, { ip: '10.50.0.2', ua: 'curl/8.4.0' });
    assert.equal(script.statusCode, 200);
    const mail = await smtp.next(email, 10_000, NEW_SIGN_IN);
    assert.equal(mail.from, 'accounts@platform.test');
    assert.match(mail.text, /Device: curl\/8\.4\.0/);
    assert.match(mail.text, /IP address: 10\.50\.0\.2/);
    assert.match(mail.text, /Time: \w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT/);
    assert.match(mail.text, /http:\/\/localhost(:80)?\/account/);
    assert.match(mail.text, /If it was not you, open your account page, end that session/);
    await login(email, PASSWORD, { ip: '10.50.0.2', ua: 'curl/8.4.0' });
    await settled();
    assert.equal(mailsTo().length, 1);

    // A browser: it gets a device cookie (HttpOnly, SameSite=Lax, only for /v1/auth) and is known by it
    // from any IP and with any user agent afterwards.
    const browser = await login(email, PASSWORD, { ip: '10.50.0.3', ua: CHROME });
    const device = setCookies(browser).cms_device!;
    assert.match(device.value, /^cms_d_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(device.attrs.sort(), ['httponly', 'max-age=34560000', 'path=/v1/auth', 'samesite=lax']);
    await smtp.next(email, 10_000, NEW_SIGN_IN);
    // Behind a trusted TLS-terminating proxy it is Secure.
    const proxied = await startTestApp({ share: t, env: { TRUST_PROXY: 'true' } });
    try {
      const https = await proxied.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password: PASSWORD }, headers: { 'x-forwarded-proto': 'https', cookie: `cms_device=${device.value}` } });
      assert.ok(setCookies(https).cms_device!.attrs.includes('secure'));
    } finally {
      await proxied.close();
    }
    const again = await login(email, PASSWORD, { ip: '10.50.0.4', ua: FIREFOX, cookie: `cms_device=${device.value}` });
    assert.equal(setCookies(again).cms_device!.value, device.value);
    await settled();
    assert.equal(mailsTo().length, 2);
    // The same browser for another account is a new device for that account.
    const other = 'otherdevice@example.com';
    await signup(t, other);
    await login(other, PASSWORD, { ip: '10.50.0.5', ua: 'probe' });
    await smtp.next(other, 10_000, NEW_SIGN_IN);
    await login(other, PASSWORD, { ip: '10.50.0.4', ua: FIREFOX, cookie: `cms_device=${device.value}` });
    assert.match((await smtp.next(other, 10_000, NEW_SIGN_IN)).text, /Device: Firefox 121 on Windows/);
    // Only keyed hashes are stored.
    const stored = await t.platform.db.pool.anyFirst(compiledQuery({ text: 'SELECT device_hash FROM platform.account_devices', values: [] }));
    assert.ok(stored.length > 0 && stored.every((h) => /^[0-9a-f]{64}$/.test(String(h)) && h !== device.value));
  });

  it('sign-ins, refusals, locks, new devices and ended sessions are in the account\'s audit log; locked attempts are not', async () => {
    const email = 'audited@example.com';
    const owner = await signup(t, email);
    await fail(email, 5);
    assert.equal((await login(email, PASSWORD)).statusCode, 429);
    await fail('no-such-account@example.com', 1);
    await sleep(1100);
    const signedIn = await login(email, PASSWORD, { ip: '10.60.0.1', ua: 'curl/8.4.0' });
    assert.equal(signedIn.statusCode, 200);
    const id = ((await as(t, owner).get('/v1/auth/sessions')).json().sessions as Array<{ id: number; current: boolean; ip: string }>).find((x) => x.ip === '10.60.0.1')!.id;
    assert.equal((await as(t, owner).del(`/v1/auth/sessions/${id}`)).statusCode, 204);
    assert.equal((await as(t, owner).del('/v1/auth/sessions')).statusCode, 204);
    const rows = await t.platform.db.pool.any(compiledQuery({
      text: `SELECT action, payload, ip FROM platform.audit_logs WHERE account_id = $1 AND project_id IS NULL AND (action LIKE 'admin.%' OR action LIKE 'account.session.%') ORDER BY id`,
      values: [owner.account.id],
    })) as unknown as Array<{ action: string; payload: Record<string, unknown>; ip: string }>;
    const failure = { action: 'admin.auth.failure', payload: { reason: 'password', email } };
    const lockout = rows.find((r) => r.action === 'admin.auth.lockout')!;
    assert.ok(Math.abs(Date.parse(lockout.payload.until as string) - Date.now()) < 10_000);
    assert.deepEqual(rows.map(({ action, payload }) => ({ action, payload: action === 'admin.auth.lockout' ? { ...payload, until: 'x' } : payload })), [
      failure, failure, failure, failure, failure,
      { action: 'admin.auth.lockout', payload: { until: 'x', failures: 5 } },
      { action: 'admin.auth.success', payload: { method: 'password' } },
      { action: 'account.session.new-device', payload: { device: 'curl/8.4.0' } },
      { action: 'account.session.revoke', payload: { sessionId: id } },
      { action: 'account.session.revoke', payload: { all: true } },
    ]);
    assert.equal(rows.find((r) => r.action === 'admin.auth.success')!.ip, '10.60.0.1');
    // A refusal for an address without an account is kept with no account (shown to nobody).
    const orphan = await t.platform.db.pool.any(compiledQuery({
      text: `SELECT account_id FROM platform.audit_logs WHERE action = 'admin.auth.failure' AND payload->>'email' = 'no-such-account@example.com'`, values: [],
    }));
    assert.deepEqual(orphan, [{ account_id: null }]);
  });
});

describe('two gateway processes: an ended session is refused by the other at once', () => {
  let db: TestDatabase;
  let a: GatewayProcess;
  let b: GatewayProcess;
  before(async () => {
    db = await createTestDatabase();
    const env = {
      DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `test:${db.name}:`,
      APP_SECRET: randomBytes(24).toString('hex'), LOG_LEVEL: 'warn', SPARE_SCHEMAS: '0', MAINTENANCE: 'false', SCHEDULER: 'false',
    };
    [a, b] = await Promise.all([spawnGateway(env, { timeoutMs: 120_000 }), spawnGateway(env, { timeoutMs: 120_000 })]);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.drop();
  });

  it('revoked on A, the next request with that session on B is 401; failures on A lock the account on B', async () => {
    assert.equal((await call(a.url, 'POST', '/v1/auth/signup', { email: 'two@example.com', password: PASSWORD })).status, 201);
    const one = (await call(a.url, 'POST', '/v1/auth/login', { email: 'two@example.com', password: PASSWORD })).body.token as string;
    const two = (await call(b.url, 'POST', '/v1/auth/login', { email: 'two@example.com', password: PASSWORD })).body.token as string;
    // B has used `one` (and would have cached it, were anything caching sessions).
    assert.equal((await call(b.url, 'GET', '/v1/auth/me', undefined, one)).status, 200);
    const oneId = (await call(b.url, 'GET', '/v1/auth/sessions', undefined, one)).body.sessions.find((s: { current: boolean }) => s.current).id as number;
    const ended = Date.now();
    assert.equal((await call(a.url, 'DELETE', `/v1/auth/sessions/${oneId}`, undefined, two)).status, 204);
    const refused = await call(b.url, 'GET', '/v1/auth/me', undefined, one);
    assert.deepEqual([refused.status, refused.body.error.name], [401, 'UnauthorizedError']);
    assert.ok(Date.now() - ended < 1000);
    assert.equal((await call(b.url, 'GET', '/v1/auth/me', undefined, two)).status, 200);
    // "Log out everywhere" on B ends `two` on A.
    assert.equal((await call(b.url, 'DELETE', '/v1/auth/sessions', undefined, two)).status, 204);
    assert.equal((await call(a.url, 'GET', '/v1/auth/me', undefined, two)).status, 401);

    // The failure counters are shared through Redis: five on A lock the account on B too.
    for (let i = 0; i < 5; i++) assert.equal((await call(a.url, 'POST', '/v1/auth/login', { email: 'two@example.com', password: 'wrong password' })).status, 401);
    const locked = await call(b.url, 'POST', '/v1/auth/login', { email: 'two@example.com', password: PASSWORD });
    assert.deepEqual([locked.status, locked.body], [429, LOCKED]);
  });
});
