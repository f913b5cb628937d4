// Projects' teams through the management API: members with roles (owner, editor, viewer),
// invitations mailed through a real SMTP server and accepted once, what each role may do (one
// hook decides), the last owner, leaving — and that no account reaches another project's team.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { createPool } from 'slonik';
import { compiledQuery, controlMigrations, runMigrations } from '@cms/db';
import { ForbiddenError } from '@cms/errors';
import { authorizeProjectAccess } from '../../apps/gateway/src/management/access.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { blogRawModel } from '../fixtures/index.ts';
import { as, count, createProject, signup, type Session } from '../helpers/management.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

type Json = Record<string, any>;
const envelope = (status: number, name: string, message: string, details: Json = {}) => ({ data: null, error: { status, name, message, details } });
const notFound = envelope(404, 'NotFoundError', 'Not Found');
const INVALID_INVITATION = envelope(400, 'ValidationError', 'This invitation is invalid or has expired', {
  errors: [{ path: ['token'], message: 'This invitation is invalid or has expired', name: 'ValidationError' }],
});
const LAST_OWNER = 'A project must keep at least one owner: make another member an owner first';
const VIEWER_ONLY_READS = envelope(403, 'ForbiddenError', 'Viewers of this project can only read it');
const ownersOnly = (role: string) => envelope(403, 'ForbiddenError', `Only the owners of this project can do this (your role: ${role})`);
const paths = (res: { json(): Json }) => res.json().error.details.errors.map((e: { path: string[] }) => e.path);
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('management API: project members, roles and invitations', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let n = 0;

  before(async () => {
    smtp = await startSmtp();
    t = await startTestApp({ env: { SMTP_URL: smtp.url, EMAIL_FROM: 'team@platform.test' } });
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  const newAccount = (label: string) => signup(t, `${label}-${++n}@team.test`);
  const invitationToken = async (email: string, projectName: string) => {
    const mail = await smtp.next(email, 10_000, `You are invited to ${projectName}`);
    const link = /http:\/\/localhost:80\/invitations\/accept\?token=(cms_i_[A-Za-z0-9_-]{43})/.exec(mail.text);
    assert.ok(link, mail.text);
    return link[1]!;
  };
  /** Invite `who` into the project with `role` (as its owner `by`) and accept through the mailed link. */
  const addMember = async (by: Session, project: { slug: string; name: string }, who: Session, role: string) => {
    const res = await as(t, by).post(`/v1/projects/${project.slug}/invitations`, { email: who.account.email, role });
    assert.equal(res.statusCode, 201, res.body);
    const accepted = await as(t, who).post('/v1/invitations/accept', { token: await invitationToken(who.account.email, project.name) });
    assert.equal(accepted.statusCode, 200, accepted.body);
    return accepted.json().project;
  };
  const memberRows = async (projectId: number) =>
    (await t.platform.db.pool.any(compiledQuery({ text: 'SELECT account_id AS "accountId", role FROM platform.project_members WHERE project_id = $1 ORDER BY created_at, account_id', values: [projectId] }))) as unknown as Array<{ accountId: number; role: string }>;
  const primaryOwner = async (projectId: number) => Number(await t.platform.db.pool.oneFirst(compiledQuery({ text: 'SELECT account_id FROM platform.projects WHERE id = $1', values: [projectId] })));

  it('migration 0003 makes the creator of every existing project its owner', async () => {
    const db = await createTestDatabase();
    try {
      const pool = await createPool(db.url, { maximumPoolSize: 2, resetConnection: async () => {} });
      try {
        await runMigrations(pool, 'platform', controlMigrations.filter((m) => m.id < '0003'));
        const accountId = await pool.oneFirst(compiledQuery({ text: "INSERT INTO platform.accounts (email, password_hash) VALUES ('old@team.test', 'x') RETURNING id", values: [] }));
        const projectId = await pool.oneFirst(compiledQuery({ text: "INSERT INTO platform.projects (account_id, slug, name, schema_name) VALUES ($1, 'legacy', 'Legacy', 't_legacy') RETURNING id", values: [accountId] }));
        assert.deepEqual(await runMigrations(pool, 'platform', controlMigrations), controlMigrations.map((m) => m.id).filter((id) => id >= '0003'));
        const rows = await pool.any(compiledQuery({ text: 'SELECT project_id, account_id, role FROM platform.project_members', values: [] }));
        assert.deepEqual(rows, [{ project_id: projectId, account_id: accountId, role: 'owner' }]);
        // An account that is a project's primary owner cannot be deleted from under it.
        await assert.rejects(pool.query(compiledQuery({ text: 'DELETE FROM platform.accounts WHERE id = $1', values: [accountId] })));
      } finally {
        await pool.end();
      }
    } finally {
      await db.drop();
    }
  });

  it('creating a project makes its creator its owner, in the same transaction; payloads carry the role', async () => {
    const alice = await newAccount('alice');
    const res = await as(t, alice).post('/v1/projects', { name: 'Solo Team' });
    assert.equal(res.statusCode, 201);
    const project = res.json().project;
    assert.equal(project.role, 'owner');
    assert.deepEqual(await memberRows(project.id), [{ accountId: alice.account.id, role: 'owner' }]);
    assert.deepEqual((await as(t, alice).get(`/v1/projects/${project.slug}`)).json(), { project });
    assert.deepEqual((await as(t, alice).get('/v1/projects')).json(), { projects: [project] });
    const members = await as(t, alice).get(`/v1/projects/${project.slug}/members`);
    assert.equal(members.statusCode, 200);
    const [member] = members.json().members;
    assert.deepEqual(members.json(), { members: [{ accountId: alice.account.id, email: alice.account.email, name: null, role: 'owner', createdAt: member.createdAt }], invitations: [] });
    assert.match(member.createdAt, ISO);
    // A failed creation leaves no member row behind.
    const before = await count(t, 'project_members');
    assert.equal((await as(t, alice).post('/v1/projects', { name: 'x', slug: project.slug })).statusCode, 409);
    assert.equal(await count(t, 'project_members'), before);
  });

  it('an owner invites by e-mail; the mailed link makes any signed-in account a member, once', async () => {
    const alice = await newAccount('alice');
    const project = await createProject(t, alice, { name: 'Team Alpha' }) as { id: number; slug: string; name: string };
    const bob = await newAccount('bob');
    const invitedAddress = `bob-mailbox-${n}@elsewhere.test`;
    const res = await as(t, alice).post(`/v1/projects/${project.slug}/invitations`, { email: invitedAddress, role: 'editor' });
    assert.equal(res.statusCode, 201, res.body);
    const { invitation } = res.json();
    assert.deepEqual(Object.keys(res.json()), ['invitation']);
    assert.deepEqual(invitation, { id: invitation.id, email: invitedAddress, role: 'editor', createdAt: invitation.createdAt, expiresAt: invitation.expiresAt });
    assert.equal(Date.parse(invitation.expiresAt) - Date.parse(invitation.createdAt), 7 * 24 * 3600 * 1000);

    const mail = await smtp.next(invitedAddress, 10_000, 'You are invited to Team Alpha');
    assert.equal(mail.from, 'team@platform.test');
    assert.match(mail.raw, /Content-Type: text\/html/i);
    assert.match(mail.text, new RegExp(`${alice.account.email.replace(/[.]/g, '\\.')} invites you to join the project "Team Alpha" as editor`));
    const token = await (async () => {
      const link = /http:\/\/localhost:80\/invitations\/accept\?token=(cms_i_[A-Za-z0-9_-]{43})/.exec(mail.text);
      assert.ok(link, mail.text);
      return link[1]!;
    })();
    // Only a keyed hash of the token is stored, with who invited.
    const stored = await t.platform.db.pool.one(compiledQuery({ text: 'SELECT token_hash, invited_by, accepted_at FROM platform.project_invitations WHERE id = $1', values: [invitation.id] })) as Json;
    assert.match(stored.token_hash, /^[0-9a-f]{64}$/);
    assert.ok(!stored.token_hash.includes(token.slice(6)));
    assert.equal(stored.invited_by, alice.account.id);
    assert.equal(stored.accepted_at, null);

    // Pending invitations are listed to the team.
    assert.deepEqual((await as(t, alice).get(`/v1/projects/${project.slug}/members`)).json().invitations, [invitation]);
    // Before accepting, Bob knows nothing of the project.
    assert.deepEqual((await as(t, bob).get(`/v1/projects/${project.slug}`)).json(), notFound);

    // Bob's own address differs from the invited one: the token is the proof.
    const accepted = await as(t, bob).post('/v1/invitations/accept', { token });
    assert.equal(accepted.statusCode, 200, accepted.body);
    const created = (await as(t, alice).get(`/v1/projects/${project.slug}`)).json().project;
    assert.deepEqual(accepted.json(), { project: { ...created, role: 'editor' } });
    assert.deepEqual((await as(t, bob).get('/v1/projects')).json().projects.map((p: Json) => [p.slug, p.role]), [[project.slug, 'editor']]);
    const team = (await as(t, bob).get(`/v1/projects/${project.slug}/members`)).json();
    assert.deepEqual(team.members.map((m: Json) => [m.accountId, m.email, m.role]), [[alice.account.id, alice.account.email, 'owner'], [bob.account.id, bob.account.email, 'editor']]);
    assert.deepEqual(team.invitations, []);

    // Once only: the same link is refused to Bob and to anyone else.
    const carol = await newAccount('carol');
    for (const who of [bob, carol]) {
      const again = await as(t, who).post('/v1/invitations/accept', { token });
      assert.deepEqual([again.statusCode, again.json()], [400, INVALID_INVITATION]);
    }
    assert.deepEqual((await as(t, carol).get(`/v1/projects/${project.slug}`)).json(), notFound);
    // Accepting needs a session.
    assert.equal((await t.inject({ method: 'POST', url: '/v1/invitations/accept', payload: { token } })).statusCode, 401);
  });

  it('refuses bad invitations with field paths, writing nothing; an address of a member is a 400 on email', async () => {
    const alice = await newAccount('alice');
    const project = await createProject(t, alice, { name: 'Checked Team' });
    const bob = await newAccount('bob');
    await addMember(alice, { slug: project.slug, name: 'Checked Team' }, bob, 'viewer');
    const before = await count(t, 'project_invitations');
    const cases: [unknown, string[][]][] = [
      [{ email: 'not-an-email', role: 'editor' }, [['email']]],
      [{ email: 'x@example.com', role: 'admin' }, [['role']]],
      [{ email: 'nope', role: 'god' }, [['email'], ['role']]],
      [{ email: 'x@example.com' }, [['role']]],
      [{ role: 'viewer' }, [['email']]],
      [{ email: 'x@example.com', role: 'viewer', extra: 1 }, [['extra']]],
      [{ email: 42, role: 'viewer' }, [['email']]],
      [{ email: `${'e'.repeat(300)}@example.com`, role: 'viewer' }, [['email']]],
      [{ email: alice.account.email.toUpperCase(), role: 'editor' }, [['email']]],
      [{ email: bob.account.email, role: 'owner' }, [['email']]],
    ];
    for (const [body, expected] of cases) {
      const res = await as(t, alice).post(`/v1/projects/${project.slug}/invitations`, body);
      assert.equal(res.statusCode, 400, JSON.stringify(body).slice(0, 80));
      assert.equal(res.json().error.name, 'ValidationError');
      assert.deepEqual(paths(res), expected, JSON.stringify(body).slice(0, 80));
    }
    const member = await as(t, alice).post(`/v1/projects/${project.slug}/invitations`, { email: bob.account.email, role: 'owner' });
    assert.equal(member.json().error.message, 'This e-mail address already belongs to a member of the project');
    assert.equal(await count(t, 'project_invitations'), before);
  });

  it('unknown, used, expired, withdrawn and replaced invitation tokens are the same 400', async () => {
    const alice = await newAccount('alice');
    const project = await createProject(t, alice, { name: 'Expiring Team' });
    const dave = await newAccount('dave');
    const invite = async (email: string, role = 'viewer') => {
      const res = await as(t, alice).post(`/v1/projects/${project.slug}/invitations`, { email, role });
      assert.equal(res.statusCode, 201, res.body);
      return { invitation: res.json().invitation, token: await invitationToken(email, 'Expiring Team') };
    };
    const refused = async (token: string) => {
      const res = await as(t, dave).post('/v1/invitations/accept', { token });
      assert.deepEqual([res.statusCode, res.json()], [400, INVALID_INVITATION]);
    };

    const expired = await invite('expired@team.test');
    await t.platform.db.pool.query(compiledQuery({ text: "UPDATE platform.project_invitations SET expires_at = now() - interval '1 second' WHERE id = $1", values: [expired.invitation.id] }));
    await refused(expired.token);
    assert.deepEqual((await as(t, alice).get(`/v1/projects/${project.slug}/members`)).json().invitations, []);

    for (const token of ['', 'nope', `cms_i_${'A'.repeat(43)}`, expired.token.slice(0, -1), `${expired.token}x`]) await refused(token);
    const tooLong = await as(t, dave).post('/v1/invitations/accept', { token: 'x'.repeat(201) });
    assert.deepEqual([tooLong.statusCode, paths(tooLong)], [400, [['token']]]);

    const withdrawn = await invite('withdrawn@team.test');
    assert.equal((await as(t, alice).del(`/v1/projects/${project.slug}/invitations/${withdrawn.invitation.id}`)).statusCode, 204);
    assert.deepEqual((await as(t, alice).del(`/v1/projects/${project.slug}/invitations/${withdrawn.invitation.id}`)).json(), notFound);
    for (const id of ['abc', '0', '-1', '99999999999999999999']) assert.equal((await as(t, alice).del(`/v1/projects/${project.slug}/invitations/${id}`)).statusCode, 404);
    await refused(withdrawn.token);

    // Inviting an address again replaces its pending invitation: only the newest link works.
    const first = await invite('twice@team.test', 'viewer');
    const second = await invite('twice@team.test', 'editor');
    assert.deepEqual((await as(t, alice).get(`/v1/projects/${project.slug}/members`)).json().invitations, [second.invitation]);
    await refused(first.token);
    const ok = await as(t, dave).post('/v1/invitations/accept', { token: second.token });
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.json().project.role, 'editor');
    assert.deepEqual(await memberRows(project.id), [{ accountId: alice.account.id, role: 'owner' }, { accountId: dave.account.id, role: 'editor' }]);
  });

  describe('what each role may do', () => {
    let alice: Session;
    let bob: Session;
    let carol: Session;
    let base: string;
    let projectId: number;
    const NAME = 'Role Matrix';

    before(async () => {
      alice = await newAccount('alice');
      bob = await newAccount('bob');
      carol = await newAccount('carol');
      const project = await createProject(t, alice, { name: NAME });
      projectId = project.id;
      base = `/v1/projects/${project.slug}`;
      assert.equal((await as(t, alice).put(`${base}/schema`, blogRawModel())).statusCode, 200);
      assert.equal((await addMember(alice, { slug: project.slug, name: NAME }, bob, 'editor')).role, 'editor');
      assert.equal((await addMember(alice, { slug: project.slug, name: NAME }, carol, 'viewer')).role, 'viewer');
    });

    const reads = ['', '/schema', '/locales', '/roles', '/api-tokens', '/settings/cors', '/settings/graphql', '/settings/users-permissions', '/usage', '/members'];

    it('a viewer reads every route of the project but changes nothing (403 whatever the body)', async () => {
      const c = as(t, carol);
      for (const path of reads) assert.equal((await c.get(`${base}${path}`)).statusCode, 200, path);
      const head = await t.inject({ method: 'HEAD', url: base, headers: { authorization: `Bearer ${carol.token}` } });
      assert.equal(head.statusCode, 200);
      const snapshot = async () => Promise.all(reads.filter((p) => p !== '/usage').map(async (p) => (await as(t, alice).get(`${base}${p}`)).json()));
      const before = await snapshot();
      const writes = [
        c.put(`${base}/schema`, blogRawModel()), c.put(`${base}/schema`, { nope: 1 }), c.put(`${base}/content-types/api::post.post`, {}),
        c.del(`${base}/content-types/api::post.post`), c.put(`${base}/components/blog.cta`, {}),
        c.post(`${base}/locales`, { code: 'de' }), c.del(`${base}/locales/en`),
        c.post(`${base}/api-tokens`, { name: 'x', type: 'full-access' }), c.del(`${base}/api-tokens/1`),
        c.patch(base, { name: 'Renamed' }), c.put(`${base}/settings/cors`, { origins: ['https://evil.example'] }),
        c.put(`${base}/settings/graphql`, { introspection: false }), c.put(`${base}/settings/users-permissions`, { allowRegister: false }),
        c.post(`${base}/roles`, { type: 'x', name: 'X' }), c.put(`${base}/roles/public/permissions`, { permissions: {} }),
      ];
      for (const res of await Promise.all(writes)) assert.deepEqual([res.statusCode, res.json()], [403, VIEWER_ONLY_READS], res.body.slice(0, 200));
      const ownerOnly = [
        c.del(base), c.post(`${base}/invitations`, { email: 'x@team.test', role: 'owner' }), c.post(`${base}/invitations`, {}),
        c.patch(`${base}/members/${carol.account.id}`, { role: 'owner' }), c.del(`${base}/members/${bob.account.id}`), c.del(`${base}/invitations/1`),
      ];
      for (const res of await Promise.all(ownerOnly)) assert.deepEqual([res.statusCode, res.json()], [403, ownersOnly('viewer')], res.body.slice(0, 200));
      assert.deepEqual(await snapshot(), before);
      assert.deepEqual(await memberRows(projectId), [{ accountId: alice.account.id, role: 'owner' }, { accountId: bob.account.id, role: 'editor' }, { accountId: carol.account.id, role: 'viewer' }]);
    });

    it('an editor changes the project but cannot delete it, nor manage its team', async () => {
      const b = as(t, bob);
      for (const path of reads) assert.equal((await b.get(`${base}${path}`)).statusCode, 200, path);
      assert.equal((await b.put(`${base}/schema`, blogRawModel())).statusCode, 200);
      assert.equal((await b.post(`${base}/locales`, { code: 'de' })).statusCode, 201);
      assert.equal((await b.del(`${base}/locales/de`)).statusCode, 204);
      const token = await b.post(`${base}/api-tokens`, { name: 'editor-token', type: 'read-only' });
      assert.equal(token.statusCode, 201);
      assert.equal((await b.del(`${base}/api-tokens/${token.json().apiToken.id}`)).statusCode, 204);
      assert.equal((await b.patch(base, { name: 'Role Matrix' })).json().project.role, 'editor');
      assert.equal((await b.put(`${base}/settings/cors`, { maxAge: 600 })).statusCode, 200);
      assert.equal((await b.put(`${base}/roles/public/permissions`, { permissions: { 'api::post.post': ['find'] } })).statusCode, 200);
      const refused = [
        b.del(base), b.post(`${base}/invitations`, { email: 'friend@team.test', role: 'editor' }), b.post(`${base}/invitations`, { bogus: true }),
        b.patch(`${base}/members/${bob.account.id}`, { role: 'owner' }), b.patch(`${base}/members/${carol.account.id}`, { role: 'editor' }),
        b.del(`${base}/members/${carol.account.id}`), b.del(`${base}/members/${alice.account.id}`), b.del(`${base}/invitations/1`),
      ];
      for (const res of await Promise.all(refused)) assert.deepEqual([res.statusCode, res.json()], [403, ownersOnly('editor')], res.body.slice(0, 200));
      assert.equal((await as(t, alice).get(base)).statusCode, 200);
      assert.deepEqual((await memberRows(projectId)).map((m) => m.role), ['owner', 'editor', 'viewer']);
    });

    it('billing routes are owner-only whatever they declare (the hook reads the route path)', async () => {
      const request = (role: 'owner' | 'editor' | 'viewer', method: string, url: string) => ({
        managedProject: { role }, method, params: { slug: 'x' }, accountId: 1, routeOptions: { config: {}, url },
      }) as unknown as FastifyRequest;
      for (const url of ['/v1/projects/:slug/billing', '/v1/projects/:slug/billing/checkout']) {
        await assert.rejects(authorizeProjectAccess(request('editor', 'POST', url)), ForbiddenError);
        await assert.rejects(authorizeProjectAccess(request('editor', 'GET', url)), ForbiddenError);
        await assert.rejects(authorizeProjectAccess(request('viewer', 'GET', url)), ForbiddenError);
        await authorizeProjectAccess(request('owner', 'POST', url));
      }
      await authorizeProjectAccess(request('editor', 'POST', '/v1/projects/:slug/billingual'));
    });
  });

  it('owners change roles and remove members; anyone may leave; a project always keeps an owner', async () => {
    const alice = await newAccount('alice');
    const bob = await newAccount('bob');
    const carol = await newAccount('carol');
    const project = await createProject(t, alice, { name: 'Changing Team' });
    const base = `/v1/projects/${project.slug}`;
    await addMember(alice, { slug: project.slug, name: 'Changing Team' }, bob, 'editor');
    await addMember(alice, { slug: project.slug, name: 'Changing Team' }, carol, 'editor');

    const demoted = await as(t, alice).patch(`${base}/members/${bob.account.id}`, { role: 'viewer' });
    assert.equal(demoted.statusCode, 200);
    assert.deepEqual(demoted.json(), { member: { accountId: bob.account.id, email: bob.account.email, name: null, role: 'viewer', createdAt: demoted.json().member.createdAt } });
    assert.equal((await as(t, bob).get(base)).json().project.role, 'viewer');
    assert.equal((await as(t, bob).post(`${base}/locales`, { code: 'de' })).statusCode, 403);

    // The only owner can neither step down nor leave.
    const stepDown = await as(t, alice).patch(`${base}/members/${alice.account.id}`, { role: 'editor' });
    assert.deepEqual([stepDown.statusCode, stepDown.json()], [400, envelope(400, 'ValidationError', LAST_OWNER, { errors: [{ path: ['role'], message: LAST_OWNER, name: 'ValidationError', value: 'editor' }] })]);
    const leave = await as(t, alice).del(`${base}/members/${alice.account.id}`);
    assert.deepEqual([leave.statusCode, leave.json()], [400, envelope(400, 'ValidationError', LAST_OWNER)]);

    for (const [body, expected] of [[{ role: 'admin' }, [['role']]], [{}, [['role']]], [{ role: 1 }, [['role']]], [{ role: 'owner', x: 1 }, [['x']]]] as const) {
      const res = await as(t, alice).patch(`${base}/members/${bob.account.id}`, body);
      assert.deepEqual([res.statusCode, paths(res)], [400, expected]);
    }
    const outsider = await newAccount('outsider');
    for (const id of [String(outsider.account.id), '99999999', 'abc', '0', '-1', '1e3', '99999999999999999999']) {
      assert.deepEqual((await as(t, alice).patch(`${base}/members/${id}`, { role: 'viewer' })).json(), notFound, id);
      assert.deepEqual((await as(t, alice).del(`${base}/members/${id}`)).json(), notFound, id);
    }

    // With a second owner the first may step down; the primary owner follows.
    assert.equal(await primaryOwner(project.id), alice.account.id);
    assert.equal((await as(t, alice).patch(`${base}/members/${carol.account.id}`, { role: 'owner' })).statusCode, 200);
    assert.equal((await as(t, alice).patch(`${base}/members/${alice.account.id}`, { role: 'editor' })).json().member.role, 'editor');
    assert.equal(await primaryOwner(project.id), carol.account.id);
    assert.equal((await as(t, alice).patch(`${base}/members/${bob.account.id}`, { role: 'owner' })).statusCode, 403);
    assert.equal((await as(t, alice).del(base)).statusCode, 403);

    // Carol (owner) removes Bob: he is a stranger to the project at once.
    assert.equal((await as(t, carol).del(`${base}/members/${bob.account.id}`)).statusCode, 204);
    for (const path of ['', '/members', '/schema', '/locales']) assert.deepEqual((await as(t, bob).get(`${base}${path}`)).json(), notFound);
    assert.deepEqual((await as(t, bob).del(`${base}/members/${bob.account.id}`)).json(), notFound);
    assert.deepEqual((await as(t, bob).get('/v1/projects')).json(), { projects: [] });

    // Alice (an editor) leaves by herself.
    assert.equal((await as(t, alice).del(`${base}/members/${alice.account.id}`)).statusCode, 204);
    assert.deepEqual((await as(t, alice).get(base)).json(), notFound);
    assert.deepEqual(await memberRows(project.id), [{ accountId: carol.account.id, role: 'owner' }]);
    // Leaving is the last owner's only refusal; deleting the project stays the owner's.
    assert.equal((await as(t, carol).del(base)).statusCode, 204);
    // Its members stay while it can be restored; the purge takes them.
    assert.deepEqual(await memberRows(project.id), [{ accountId: carol.account.id, role: 'owner' }]);
    await t.platform.maintenance.round(new Date(Date.now() + 8 * 86_400_000), ['purge']);
    assert.deepEqual(await memberRows(project.id), []);
  });

  it('concurrent demotions of two owners leave one owner', async () => {
    const alice = await newAccount('alice');
    const bob = await newAccount('bob');
    const project = await createProject(t, alice, { name: 'Race Team' });
    const base = `/v1/projects/${project.slug}`;
    await addMember(alice, { slug: project.slug, name: 'Race Team' }, bob, 'owner');
    const [a, b] = await Promise.all([
      as(t, alice).patch(`${base}/members/${bob.account.id}`, { role: 'viewer' }),
      as(t, bob).patch(`${base}/members/${alice.account.id}`, { role: 'viewer' }),
    ]);
    // One wins; the other is refused: the last owner (400), or already a viewer when it was checked (403).
    const [won, lost] = [a.statusCode, b.statusCode].sort((x, y) => x - y);
    assert.equal(won, 200, `${a.body} ${b.body}`);
    assert.ok(lost === 400 || lost === 403, `${a.body} ${b.body}`);
    const owners = (await memberRows(project.id)).filter((m) => m.role === 'owner');
    assert.equal(owners.length, 1);
    assert.equal(await primaryOwner(project.id), owners[0]!.accountId);
  });

  it('no account reaches another project\'s team; an invitation grants only its own project', async () => {
    const alice = await newAccount('alice');
    const mallory = await newAccount('mallory');
    const a = await createProject(t, alice, { name: 'Project A' });
    const b = await createProject(t, mallory, { name: 'Project B' });
    const baseA = `/v1/projects/${a.slug}`;
    const baseB = `/v1/projects/${b.slug}`;
    const pending = (await as(t, alice).post(`${baseA}/invitations`, { email: 'pending@team.test', role: 'owner' })).json().invitation;
    await invitationToken('pending@team.test', 'Project A');
    const countsBefore = await Promise.all(['project_members', 'project_invitations'].map((table) => count(t, table)));

    const m = as(t, mallory);
    const attempts = [
      m.get(`${baseA}/members`), m.post(`${baseA}/invitations`, { email: 'mallory2@team.test', role: 'owner' }), m.post(`${baseA}/invitations`, {}),
      m.del(`${baseA}/invitations/${pending.id}`), m.patch(`${baseA}/members/${alice.account.id}`, { role: 'viewer' }),
      m.patch(`${baseA}/members/${mallory.account.id}`, { role: 'owner' }), m.del(`${baseA}/members/${alice.account.id}`),
      m.del(`${baseA}/members/${mallory.account.id}`),
      // Through her own project's slug, ids of project A's team and invitations are unknown.
      m.del(`${baseB}/invitations/${pending.id}`), m.patch(`${baseB}/members/${alice.account.id}`, { role: 'owner' }), m.del(`${baseB}/members/${alice.account.id}`),
    ];
    for (const res of await Promise.all(attempts)) assert.deepEqual([res.statusCode, res.json()], [404, notFound], res.body.slice(0, 200));
    assert.deepEqual(await Promise.all(['project_members', 'project_invitations'].map((table) => count(t, table))), countsBefore);
    assert.deepEqual((await as(t, alice).get(`${baseA}/members`)).json().invitations, [pending]);

    // A token of A makes her a member of A only, with the invited role; B's team is untouched.
    const intoA = await as(t, alice).post(`${baseA}/invitations`, { email: mallory.account.email, role: 'viewer' });
    assert.equal(intoA.statusCode, 201);
    const accepted = await m.post('/v1/invitations/accept', { token: await invitationToken(mallory.account.email, 'Project A') });
    assert.deepEqual([accepted.json().project.slug, accepted.json().project.role], [a.slug, 'viewer']);
    assert.deepEqual((await m.get('/v1/projects')).json().projects.map((p: Json) => [p.slug, p.role]), [[a.slug, 'viewer'], [b.slug, 'owner']]);
    assert.deepEqual((await m.get(`${baseB}/members`)).json().members.map((x: Json) => [x.accountId, x.role]), [[mallory.account.id, 'owner']]);
    assert.deepEqual((await as(t, alice).get(`${baseB}`)).json(), notFound);
    // As a viewer of A she still cannot touch its team.
    assert.deepEqual((await m.del(`${baseA}/invitations/${pending.id}`)).json(), ownersOnly('viewer'));
    // Her own invitation into B, self-accepted, keeps her owner (a weaker role never replaces a stronger one).
    const self = await m.post(`${baseB}/invitations`, { email: 'mallory-alias@team.test', role: 'viewer' });
    assert.equal(self.statusCode, 201);
    const selfAccepted = await m.post('/v1/invitations/accept', { token: await invitationToken('mallory-alias@team.test', 'Project B') });
    assert.equal(selfAccepted.json().project.role, 'owner');
  });
});
