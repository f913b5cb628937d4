// Single sign-on with OpenID Connect against a real provider (oidc-provider, test/helpers/
// oidc-provider.ts): configuring a project's connection (owners, enterprise plan, the discovery
// document checked, the secret write-only, the domain proved by a DNS TXT record — a loopback DNS
// server, test/helpers/dns-server.ts — and one project per domain), signing in with the code flow
// (PKCE, state, nonce) and provisioning, the refusals (domain, unverified e-mail, existing password
// account, tampering), and the recheck at the provider that ends a refused user's session.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { deriveKey, seal, unseal } from '@cms/auth';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { envelope, notFound, unauthorized } from '../helpers/envelope.ts';
import { addMember, as, count, createProject, PASSWORD, setCookies, signup, type Session } from '../helpers/management.ts';
import { startTestDns, type TestDns } from '../helpers/dns-server.ts';
import { startTestIdp, type TestIdp } from '../helpers/oidc-provider.ts';

const CALLBACK = 'http://localhost/v1/auth/sso/callback';
const DOMAIN = 'acme-sso.test';

describe('single sign-on (OpenID Connect)', () => {
  let t: TestApp;
  let idp: TestIdp;
  let dns: TestDns;
  let owner: Session;
  let project: { id: number; slug: string };
  /** Every answer of the management API in this file: none may carry the client secret. */
  const answers: LightMyRequestResponse[] = [];

  const sql = async (text: string, values: unknown[] = []) => (await t.platform.db.pool.any(compiledQuery({ text, values }))) as unknown as Array<Record<string, unknown>>;
  const call = async (promise: Promise<LightMyRequestResponse>) => {
    const res = await promise;
    answers.push(res);
    return res;
  };
  const enterprise = (id: number) => sql(`UPDATE platform.projects SET plan = 'enterprise' WHERE id = $1`, [id]);
  const connection = (overrides: Record<string, unknown> = {}) => ({
    issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, emailDomain: DOMAIN, defaultRole: 'editor', ...overrides,
  });

  /** Start at the gateway, sign in at the provider as `login`, come back to the callback: the callback's answer. */
  const signInWithSso = async (email: string, login: string, tamper?: (callback: URL, pending: string) => { callback: URL; pending: string | undefined }) => {
    const start = await call(t.inject({ method: 'POST', url: '/v1/auth/sso/start', payload: { email } }));
    assert.equal(start.statusCode, 200, start.body);
    const pending = setCookies(start).cms_sso!;
    let back = await idp.authorize(start.json().url, login);
    let cookie: string | undefined = pending.value;
    if (tamper) ({ callback: back, pending: cookie } = tamper(back, pending.value));
    return call(t.inject({ method: 'GET', url: back.pathname + back.search, headers: cookie === undefined ? {} : { cookie: `cms_sso=${cookie}` } }));
  };
  const sessionOf = (res: LightMyRequestResponse) => setCookies(res).cms_session?.value;

  before(async () => {
    idp = await startTestIdp({ redirectUris: [CALLBACK] });
    dns = await startTestDns();
    t = await startTestApp({ env: { SSO_ALLOW_PRIVATE: 'true', SSO_RECHECK_SECONDS: '1', SSO_DNS_SERVERS: dns.address } });
    owner = await signup(t, 'owner@owner-org.test');
    project = await createProject(t, owner, { name: 'Acme' });
  });
  after(async () => {
    await t?.close();
    await idp?.close();
    await dns?.close();
  });

  it('is part of the enterprise plan: 403 naming the plan on a free project', async () => {
    const expected = envelope(403, 'ForbiddenError', 'Single sign-on is part of the enterprise plan (this project is on the free plan)', { limit: 'singleSignOn', plan: 'free' });
    assert.deepEqual((await call(as(t, owner).get(`/v1/projects/${project.slug}/sso`))).json(), expected);
    const put = await call(as(t, owner).put(`/v1/projects/${project.slug}/sso`, connection()));
    assert.equal(put.statusCode, 403);
    assert.deepEqual(put.json(), expected);
    assert.equal(await count(t, 'sso_connections'), 0);
    // Starting a sign-in for the domain finds nothing either.
    const start = await t.inject({ method: 'POST', url: '/v1/auth/sso/start', payload: { email: `a@${DOMAIN}` } });
    assert.equal(start.statusCode, 404);
    assert.deepEqual(start.json(), notFound('Single sign-on is not set up for this e-mail address'));
  });

  it('an owner configures the provider: the discovery document is checked, the secret is write-only and sealed', async () => {
    await enterprise(project.id);
    const url = `/v1/projects/${project.slug}/sso`;
    assert.deepEqual((await call(as(t, owner).get(url))).json(), { sso: null, callbackUrl: CALLBACK });
    // Nothing listens there: a 400 on `issuer` that says what is wrong.
    const unreachable = await call(as(t, owner).put(url, connection({ issuer: 'http://127.0.0.1:9/' })));
    assert.equal(unreachable.statusCode, 400);
    assert.deepEqual(unreachable.json().error.details.errors.map((e: { path: string[] }) => e.path), [['issuer']]);
    assert.match(unreachable.json().error.message, /^Could not read the discovery document of http:\/\/127\.0\.0\.1:9\/ \(http:\/\/127\.0\.0\.1:9\/\.well-known\/openid-configuration\): /);
    // A document whose issuer is another one is refused too.
    const wrongIssuer = await call(as(t, owner).put(url, connection({ issuer: `${idp.issuer}/other` })));
    assert.equal(wrongIssuer.statusCode, 400);
    assert.equal(wrongIssuer.json().error.message,
      `Could not read the discovery document of ${idp.issuer}/other (${idp.issuer}/other/.well-known/openid-configuration): it answered HTTP 404`);
    const invalid = await call(as(t, owner).put(url, { ...connection({ issuer: 'ftp://x', emailDomain: 'not a domain', defaultRole: 'owner' }), clientSecret: undefined }));
    assert.equal(invalid.statusCode, 400);
    assert.deepEqual(invalid.json().error.details.errors.map((e: { path: string[] }) => e.path[0]), ['issuer', 'emailDomain', 'defaultRole', 'clientSecret']);
    const bodyless = await call(as(t, owner).put(url, { issuer: idp.issuer }));
    assert.equal(bodyless.statusCode, 400);
    assert.equal(await count(t, 'sso_connections'), 0);

    const put = await call(as(t, owner).put(url, connection({ emailDomain: DOMAIN.toUpperCase() })));
    assert.equal(put.statusCode, 200, put.body);
    const { sso, callbackUrl } = put.json();
    assert.equal(callbackUrl, CALLBACK);
    const token = (await sql('SELECT domain_token FROM platform.sso_connections WHERE project_id = $1', [project.id]))[0]!.domain_token as string;
    assert.match(token, /^[A-Za-z0-9_-]{24}$/);
    const proof = { name: `_cms-sso.${DOMAIN}`, value: `cms-sso-verification=${token}` };
    assert.deepEqual({ ...sso, createdAt: undefined, updatedAt: undefined }, {
      issuer: idp.issuer, clientId: idp.clientId, clientSecretSet: true, emailDomain: DOMAIN, defaultRole: 'editor',
      domainVerification: { ...proof, verified: false, verifiedAt: null }, createdAt: undefined, updatedAt: undefined,
    });
    assert.deepEqual((await call(as(t, owner).get(url))).json(), { sso, callbackUrl: CALLBACK });
    // Sealed at rest: AES-256-GCM bound to the project, never the plain secret.
    const [row] = await sql('SELECT client_secret FROM platform.sso_connections WHERE project_id = $1', [project.id]);
    const stored = row!.client_secret as string;
    assert.ok(!stored.includes(idp.clientSecret));
    assert.equal(unseal(deriveKey(t.env.APP_SECRET!, 'sso-secret'), stored, `sso-connection:${project.id}`), idp.clientSecret);
    // An update may leave the secret out: the stored one is kept (and checked against the provider's document again).
    const update = await call(as(t, owner).put(url, { ...connection({ defaultRole: 'viewer' }), clientSecret: undefined }));
    assert.equal(update.statusCode, 200, update.body);
    assert.equal(update.json().sso.defaultRole, 'viewer');
    const [kept] = await sql('SELECT client_secret FROM platform.sso_connections WHERE project_id = $1', [project.id]);
    assert.equal(kept!.client_secret, stored);
    assert.equal((await call(as(t, owner).put(url, connection()))).statusCode, 200);

    // Until the domain is proved, the connection serves no sign-in.
    const early = await t.inject({ method: 'POST', url: '/v1/auth/sso/start', payload: { email: `a@${DOMAIN}` } });
    assert.equal(early.statusCode, 404);
    const missing = await call(as(t, owner).post(`${url}/verify-domain`));
    assert.equal(missing.statusCode, 400);
    assert.deepEqual(missing.json().error.details.errors, [{
      path: ['emailDomain'], name: 'ValidationError', message: `Add a TXT record at ${proof.name} with the value ${proof.value}, then verify again (none found)`,
    }]);
    dns.txt.set(proof.name, ['v=something-else']);
    const wrong = await call(as(t, owner).post(`${url}/verify-domain`));
    assert.equal(wrong.json().error.message, `Add a TXT record at ${proof.name} with the value ${proof.value}, then verify again (found: "v=something-else")`);
    dns.txt.set(proof.name, ['v=something-else', proof.value]);
    const verified = await call(as(t, owner).post(`${url}/verify-domain`));
    assert.equal(verified.statusCode, 200, verified.body);
    assert.equal(verified.json().sso.domainVerification.verified, true);
    assert.ok(Date.parse(verified.json().sso.domainVerification.verifiedAt) > Date.now() - 60_000);
    // Saving again with the same domain keeps the proof.
    const again = await call(as(t, owner).put(url, connection()));
    assert.equal(again.json().sso.domainVerification.verified, true);
  });

  it('refuses issuers on plain http or private addresses unless SSO_ALLOW_PRIVATE (no SSRF)', async () => {
    const strict = await startTestApp({ share: t, env: { SSO_ALLOW_PRIVATE: 'false' } });
    try {
      const put = (issuer: string) => call(strict.inject({
        method: 'PUT', url: `/v1/projects/${project.slug}/sso`, payload: connection({ issuer }), headers: { authorization: `Bearer ${owner.token}` },
      }));
      const http = await put(idp.issuer);
      assert.equal(http.statusCode, 400);
      assert.deepEqual(http.json().error.details.errors, [{ path: ['issuer'], message: 'issuer must be the https URL of the identity provider (without query or fragment)', name: 'ValidationError' }]);
      for (const issuer of ['https://127.0.0.1:1/', 'https://[::1]:1/', 'https://10.0.0.1/', 'https://localhost/']) {
        const res = await put(issuer);
        assert.equal(res.statusCode, 400, issuer);
        assert.match(res.json().error.message, /resolves to a private or loopback address/, issuer);
      }
    } finally {
      await strict.close();
    }
  });

  it('one project per proved e-mail domain: 409 for another project claiming it; unproved claims block nobody', async () => {
    const other = await createProject(t, owner, { name: 'Other' });
    const third = await createProject(t, owner, { name: 'Third' });
    await enterprise(other.id);
    await enterprise(third.id);
    const taken = envelope(409, 'ApplicationError', 'Another project already uses single sign-on for this e-mail domain', { path: ['emailDomain'] });
    const clash = await call(as(t, owner).put(`/v1/projects/${other.slug}/sso`, connection({ emailDomain: `${DOMAIN}`.toUpperCase() })));
    assert.equal(clash.statusCode, 409);
    assert.deepEqual(clash.json(), taken);
    assert.equal(await count(t, 'sso_connections'), 1);
    // Two projects may claim a domain neither proved; the first to prove it keeps it.
    const contested = 'contested.test';
    for (const slug of [other.slug, third.slug]) assert.equal((await call(as(t, owner).put(`/v1/projects/${slug}/sso`, connection({ emailDomain: contested })))).statusCode, 200);
    const tokens = await sql('SELECT project_id::int AS id, domain_token FROM platform.sso_connections WHERE email_domain = $1 ORDER BY project_id', [contested]);
    dns.txt.set(`_cms-sso.${contested}`, tokens.map((r) => `cms-sso-verification=${r.domain_token}`));
    assert.equal((await call(as(t, owner).post(`/v1/projects/${third.slug}/sso/verify-domain`))).statusCode, 200);
    const late = await call(as(t, owner).post(`/v1/projects/${other.slug}/sso/verify-domain`));
    assert.equal(late.statusCode, 409);
    assert.deepEqual(late.json(), taken);
    // A new domain must be proved again.
    const moved = await call(as(t, owner).put(`/v1/projects/${third.slug}/sso`, connection({ emailDomain: 'moved.test' })));
    assert.equal(moved.json().sso.domainVerification.verified, false);
    assert.notEqual(moved.json().sso.domainVerification.value, `cms-sso-verification=${tokens[1]!.domain_token}`);
    for (const slug of [other.slug, third.slug]) assert.equal((await call(as(t, owner).del(`/v1/projects/${slug}/sso`))).statusCode, 204);
  });

  it('only owners of the project see or change its connection; other accounts get 404', async () => {
    const stranger = await signup(t, 'stranger@elsewhere.test');
    const editor = await signup(t, 'editor@elsewhere.test');
    await addMember(t, project.id, editor, 'editor');
    const url = `/v1/projects/${project.slug}/sso`;
    for (const res of [await call(as(t, stranger).get(url)), await call(as(t, stranger).put(url, connection({ emailDomain: 'evil.test' }))), await call(as(t, stranger).del(url))]) {
      assert.equal(res.statusCode, 404);
      assert.deepEqual(res.json(), notFound());
    }
    const forbidden = envelope(403, 'ForbiddenError', 'Only the owners of this project can do this (your role: editor)');
    for (const res of [await call(as(t, editor).get(url)), await call(as(t, editor).put(url, connection({ emailDomain: 'evil.test' }))), await call(as(t, editor).del(url))]) {
      assert.equal(res.statusCode, 403);
      assert.deepEqual(res.json(), forbidden);
    }
    const [row] = await sql('SELECT email_domain, default_role FROM platform.sso_connections WHERE project_id = $1', [project.id]);
    assert.deepEqual(row, { email_domain: DOMAIN, default_role: 'editor' });
  });

  it('signs in with the code flow (PKCE S256, state, nonce), creates the account and its membership, and reuses it next time', async () => {
    idp.users.set('alice-sub', { email: `alice@${DOMAIN}`, name: 'Alice' });
    const start = await call(t.inject({ method: 'POST', url: '/v1/auth/sso/start', payload: { email: `alice@${DOMAIN}` } }));
    assert.equal(start.statusCode, 200);
    const authUrl = new URL(start.json().url);
    assert.equal(authUrl.origin, idp.issuer);
    assert.equal(authUrl.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(authUrl.searchParams.get('redirect_uri'), CALLBACK);
    assert.equal(authUrl.searchParams.get('client_id'), idp.clientId);
    for (const name of ['state', 'nonce', 'code_challenge']) assert.match(authUrl.searchParams.get(name)!, /^[A-Za-z0-9_-]{43}$/);
    const pending = setCookies(start).cms_sso!;
    assert.deepEqual(pending.attrs.sort(), ['httponly', 'max-age=600', 'path=/v1/auth/sso', 'samesite=lax']);
    assert.ok(!pending.value.includes(authUrl.searchParams.get('state')!), 'the pending sign-in is sealed');

    const accountsBefore = await count(t, 'accounts');
    const first = await signInWithSso(`alice@${DOMAIN}`, 'alice-sub');
    assert.equal(first.statusCode, 303, first.body);
    assert.equal(first.headers.location, `http://localhost/projects/${project.slug}`);
    const cookies = setCookies(first);
    assert.deepEqual(cookies.cms_session!.attrs.sort(), ['httponly', 'max-age=604800', 'path=/v1', 'samesite=strict']);
    assert.ok(cookies.cms_csrf);
    assert.equal(cookies.cms_sso!.value, '', 'the pending sign-in is spent');
    const me = await call(as(t, cookies.cms_session!.value).get('/v1/auth/me'));
    assert.equal(me.statusCode, 200);
    const { email, name, emailVerified } = me.json().account;
    assert.deepEqual({ email, name, emailVerified }, { email: `alice@${DOMAIN}`, name: 'Alice', emailVerified: true });
    const aliceId = me.json().account.id as number;
    assert.equal(await count(t, 'accounts'), accountsBefore + 1);
    assert.deepEqual(await sql('SELECT role FROM platform.project_members WHERE project_id = $1 AND account_id = $2', [project.id, aliceId]), [{ role: 'editor' }]);
    assert.deepEqual(await sql('SELECT subject FROM platform.sso_identities WHERE account_id = $1', [aliceId]), [{ subject: 'alice-sub' }]);
    // The provider's refresh token is kept sealed with the session.
    const [ssoSession] = await sql('SELECT s.session_id::int AS id, s.refresh_token FROM platform.sso_sessions s JOIN platform.sessions x ON x.id = s.session_id WHERE x.account_id = $1', [aliceId]);
    assert.ok(unseal(deriveKey(t.env.APP_SECRET!, 'sso-secret'), ssoSession!.refresh_token as string, `sso-session:${ssoSession!.id}`));
    // The project is listed with the default role.
    const projects = await call(as(t, cookies.cms_session!.value).get('/v1/projects'));
    assert.deepEqual(projects.json().projects.map((p: { slug: string; role: string }) => [p.slug, p.role]), [[project.slug, 'editor']]);

    // No usable password: the password login is refused, and no reset link is issued for it.
    const login = await t.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: `alice@${DOMAIN}`, password: PASSWORD } });
    assert.equal(login.statusCode, 401);
    const forgot = await t.inject({ method: 'POST', url: '/v1/auth/forgot-password', payload: { email: `alice@${DOMAIN}` } });
    assert.equal(forgot.statusCode, 204);
    await t.platform.background.drain();
    assert.deepEqual(await sql('SELECT 1 FROM platform.account_tokens WHERE account_id = $1', [aliceId]), []);

    // A second sign-in is the same account (no new account, membership unchanged).
    const second = await signInWithSso(`alice@${DOMAIN}`, 'alice-sub');
    assert.equal(second.statusCode, 303);
    const again = await call(as(t, sessionOf(second)!).get('/v1/auth/me'));
    assert.equal(again.json().account.id, aliceId);
    assert.equal(await count(t, 'accounts'), accountsBefore + 1);
    // The account's audit log: linked once, two SSO sign-ins.
    const connectionId = Number((await sql('SELECT id FROM platform.sso_connections WHERE project_id = $1', [project.id]))[0]!.id);
    const log = await sql(`SELECT action, actor_type, payload FROM platform.audit_logs WHERE account_id = $1 AND project_id IS NULL
      AND action IN ('account.sso.link', 'admin.auth.success') ORDER BY id`, [aliceId]);
    assert.deepEqual(log.map((e) => [e.action, e.actor_type, { ...(e.payload as object), sessionId: undefined }]), [
      ['account.sso.link', 'account', { projectId: project.id, connectionId, created: true, sessionId: undefined }],
      ['admin.auth.success', 'account', { method: 'sso', projectId: project.id, connectionId, sessionId: undefined }],
      ['admin.auth.success', 'account', { method: 'sso', projectId: project.id, connectionId, sessionId: undefined }],
    ]);
  });

  it('refuses an e-mail outside the domain and an e-mail the provider did not verify', async () => {
    idp.users.set('mallory-sub', { email: 'mallory@other-domain.test' });
    idp.users.set('unverified-sub', { email: `unverified@${DOMAIN}`, emailVerified: false });
    const accountsBefore = await count(t, 'accounts');
    const sessionsBefore = await count(t, 'sessions');
    const mismatch = await signInWithSso(`mallory@${DOMAIN}`, 'mallory-sub');
    assert.equal(mismatch.statusCode, 303);
    assert.equal(mismatch.headers.location, 'http://localhost/login?sso_error=domain');
    assert.equal(sessionOf(mismatch), undefined);
    const unverified = await signInWithSso(`unverified@${DOMAIN}`, 'unverified-sub');
    assert.equal(unverified.headers.location, 'http://localhost/login?sso_error=unverified');
    assert.equal(await count(t, 'accounts'), accountsBefore);
    assert.equal(await count(t, 'sessions'), sessionsBefore);
  });

  it('never takes over an existing password account whose e-mail the provider asserts', async () => {
    const victim = await signup(t, `victim@${DOMAIN}`);
    idp.users.set('victim-sub', { email: `victim@${DOMAIN}` });
    const sessionsBefore = await count(t, 'sessions');
    const res = await signInWithSso(`victim@${DOMAIN}`, 'victim-sub');
    assert.equal(res.headers.location, 'http://localhost/login?sso_error=taken');
    assert.equal(sessionOf(res), undefined);
    assert.equal(await count(t, 'sessions'), sessionsBefore);
    assert.deepEqual(await sql('SELECT 1 FROM platform.sso_identities WHERE account_id = $1', [victim.account.id]), []);
    assert.deepEqual(await sql('SELECT 1 FROM platform.project_members WHERE account_id = $1', [victim.account.id]), []);
    // The attempt is in the account's audit log.
    assert.deepEqual(await sql('SELECT action, payload FROM platform.audit_logs WHERE account_id = $1 AND action = $2', [victim.account.id, 'admin.auth.failure']),
      [{ action: 'admin.auth.failure', payload: { reason: 'sso', ssoError: 'taken' } }]);
    // The account keeps its password.
    assert.equal((await t.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: `victim@${DOMAIN}`, password: PASSWORD } })).statusCode, 200);
  });

  it('refuses a tampered state, a foreign nonce, and a callback without the pending sign-in', async () => {
    idp.users.set('bob-sub', { email: `bob@${DOMAIN}` });
    const sessionsBefore = await count(t, 'sessions');
    const badState = await signInWithSso(`bob@${DOMAIN}`, 'bob-sub', (callback, pending) => {
      callback.searchParams.set('state', 'x'.repeat(43));
      return { callback, pending };
    });
    assert.equal(badState.headers.location, 'http://localhost/login?sso_error=failed');
    // The same pending sign-in resealed with another nonce: the ID token's nonce does not match.
    const key = deriveKey(t.env.APP_SECRET!, 'sso-login');
    const badNonce = await signInWithSso(`bob@${DOMAIN}`, 'bob-sub', (callback, pending) => {
      const opened = JSON.parse(unseal(key, pending, 'sso-login')!);
      return { callback, pending: seal(key, JSON.stringify({ ...opened, nonce: 'n'.repeat(43) }), 'sso-login') };
    });
    assert.equal(badNonce.headers.location, 'http://localhost/login?sso_error=failed');
    const noCookie = await signInWithSso(`bob@${DOMAIN}`, 'bob-sub', (callback) => ({ callback, pending: undefined }));
    assert.equal(noCookie.headers.location, 'http://localhost/login?sso_error=expired');
    const forged = await signInWithSso(`bob@${DOMAIN}`, 'bob-sub', (callback) => ({ callback, pending: 'v1.AAAA.BBBB.CCCC' }));
    assert.equal(forged.headers.location, 'http://localhost/login?sso_error=expired');
    // A refusal from the provider itself.
    const denied = await call(t.inject({ method: 'GET', url: '/v1/auth/sso/callback?error=access_denied&state=x', headers: { cookie: `cms_sso=${setCookies(await t.inject({ method: 'POST', url: '/v1/auth/sso/start', payload: { email: `bob@${DOMAIN}` } })).cms_sso!.value}` } }));
    assert.equal(denied.headers.location, 'http://localhost/login?sso_error=denied');
    assert.equal(await count(t, 'sessions'), sessionsBefore);
    assert.deepEqual(await sql('SELECT 1 FROM platform.accounts WHERE email = $1', [`bob@${DOMAIN}`]), []);
  });

  it('rechecks the session at the provider: a user the provider refuses loses the session at once', async () => {
    idp.users.set('carol-sub', { email: `carol@${DOMAIN}` });
    const res = await signInWithSso(`carol@${DOMAIN}`, 'carol-sub');
    const token = sessionOf(res)!;
    assert.equal((await as(t, token).get('/v1/auth/me')).statusCode, 200);
    // Past the interval (SSO_RECHECK_SECONDS=1), the next use refreshes at the provider: still fine.
    const refreshes = idp.refreshes;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    // Concurrent requests of the session on two gateways: one refresh at the provider.
    const second = await startTestApp({ share: t });
    try {
      const answers = await Promise.all([as(t, token).get('/v1/auth/me'), as(t, token).get('/v1/projects'), as(second, token).get('/v1/projects'), as(second, token).get('/v1/auth/me')]);
      assert.deepEqual(answers.map((a) => a.statusCode), [200, 200, 200, 200]);
    } finally {
      await second.close();
    }
    assert.equal(idp.refreshes, refreshes + 1, 'one refresh for concurrent requests of the session');
    const one = await as(t, token).get('/v1/auth/me');
    // The provider disables the user: the next check ends the session.
    const [{ id: sessionId }] = await sql('SELECT id::int AS id FROM platform.sessions WHERE account_id = $1', [one.json().account.id]) as [{ id: number }];
    idp.users.get('carol-sub')!.disabled = true;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const refused = await as(t, token).get('/v1/auth/me');
    assert.equal(refused.statusCode, 401);
    assert.deepEqual(refused.json(), unauthorized());
    const accountId = one.json().account.id as number;
    assert.deepEqual(await sql('SELECT 1 FROM platform.sessions WHERE account_id = $1', [accountId]), []);
    assert.deepEqual(await sql('SELECT actor_type, payload FROM platform.audit_logs WHERE account_id = $1 AND action = $2', [accountId, 'account.session.revoke']),
      [{ actor_type: 'system', payload: { sessionId, reason: 'sso-refused' } }]);
    assert.deepEqual((await t.inject({ method: 'GET', url: '/v1/auth/session', headers: { authorization: `Bearer ${token}` } })).json(), { account: null });
  });

  it('the dashboard\'s session check ends a refused SSO session too', async () => {
    idp.users.set('dave-sub', { email: `dave@${DOMAIN}` });
    const token = sessionOf(await signInWithSso(`dave@${DOMAIN}`, 'dave-sub'))!;
    idp.users.delete('dave-sub');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    assert.deepEqual((await t.inject({ method: 'GET', url: '/v1/auth/session', headers: { cookie: `cms_session=${token}` } })).json(), { account: null });
    assert.equal((await as(t, token).get('/v1/auth/me')).statusCode, 401);
  });

  it('removing the connection ends its SSO sessions (password sessions stay)', async () => {
    idp.users.set('erin-sub', { email: `erin@${DOMAIN}` });
    const token = sessionOf(await signInWithSso(`erin@${DOMAIN}`, 'erin-sub'))!;
    assert.equal((await as(t, token).get('/v1/auth/me')).statusCode, 200);
    assert.equal((await call(as(t, owner).del(`/v1/projects/${project.slug}/sso`))).statusCode, 204);
    assert.equal((await as(t, token).get('/v1/auth/me')).statusCode, 401);
    assert.equal(await count(t, 'sso_sessions'), 0);
    assert.equal((await as(t, owner).get('/v1/auth/me')).statusCode, 200);
    assert.equal((await call(as(t, owner).del(`/v1/projects/${project.slug}/sso`))).statusCode, 404);
    // The project's audit log has each change of the connection (field names only, never values).
    const changes = await sql(`SELECT action, payload FROM platform.audit_logs WHERE project_id = $1 AND action LIKE 'sso.%' ORDER BY id`, [project.id]);
    assert.deepEqual(changes.map((e) => e.action), ['sso.update', 'sso.update', 'sso.update', 'sso.verify-domain', 'sso.update', 'sso.delete']);
    assert.deepEqual(changes[1]!.payload, { fields: ['issuer', 'clientId', 'emailDomain', 'defaultRole'] });
    assert.ok(!JSON.stringify(changes).includes(idp.clientSecret));
    // The domain is free again, and sign-in finds nothing.
    assert.equal((await t.inject({ method: 'POST', url: '/v1/auth/sso/start', payload: { email: `erin@${DOMAIN}` } })).statusCode, 404);
  });

  it('never answers the client secret', () => {
    assert.ok(answers.length > 30);
    for (const res of answers) {
      assert.ok(!res.body.includes(idp.clientSecret), `${res.statusCode} ${res.body.slice(0, 200)}`);
      assert.ok(!JSON.stringify(res.headers).includes(idp.clientSecret));
    }
  });
});
