// End users (users-permissions, reference §7): register, login, JWTs, /api/users/me,
// change-password, /api/users CRUD with role and token permissions, the project's
// users-permissions settings, tenant isolation and hostile input — asserting bodies and the
// up_users rows.
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { deriveKey } from '@cms/auth';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentClient, type ContentProject } from '../helpers/content.ts';
import { blogRawModel } from '../fixtures/index.ts';

type Json = Record<string, any>;

const envelope = (status: number, name: string, message: string, details: Json = {}) => ({ data: null, error: { status, name, message, details } });
const FORBIDDEN = envelope(403, 'ForbiddenError', 'Forbidden');
const UNAUTHORIZED = envelope(401, 'UnauthorizedError', 'Missing or invalid credentials');
const NOT_FOUND = envelope(404, 'NotFoundError', 'Not Found');
const TAKEN = envelope(400, 'ApplicationError', 'Email or Username are already taken');
const INVALID_LOGIN = envelope(400, 'ValidationError', 'Invalid identifier or password');
const fieldErrors = (...errors: Array<[string, string]>) => ({
  errors: errors.map(([path, message]) => ({ path: [path], message, name: 'ValidationError' })),
});
const fieldError = (path: string, message: string) => envelope(400, 'ValidationError', message, fieldErrors([path, message]));

const USER_KEYS = ['id', 'documentId', 'username', 'email', 'provider', 'confirmed', 'blocked', 'createdAt', 'updatedAt', 'publishedAt'];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const THIRTY_DAYS = 2592000;
const USERS = 'plugin::users-permissions';
const DEFAULT_SETTINGS = {
  allowRegister: true, emailConfirmation: false, defaultRole: 'authenticated', jwtExpiresIn: THIRTY_DAYS,
  resetPasswordUrl: null, emailConfirmationRedirect: '/',
};

const b64url = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const decodeJwt = (jwt: string) => {
  const parts = jwt.split('.');
  assert.equal(parts.length, 3, jwt);
  return { header: JSON.parse(Buffer.from(parts[0]!, 'base64url').toString()), payload: JSON.parse(Buffer.from(parts[1]!, 'base64url').toString()) };
};
/** An HS256 JWT over any header and payload with any key. */
const signJwt = (payload: unknown, key: Buffer | string, header: unknown = { alg: 'HS256', typ: 'JWT' }) => {
  const input = `${b64url(header)}.${b64url(payload)}`;
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
};
const now = () => Math.floor(Date.now() / 1000);

/** The Strapi user object: exactly these keys in this order, no secrets. */
function assertUser(user: Json, expected: { username: string; email: string; confirmed?: boolean; blocked?: boolean; id?: number }) {
  assert.deepEqual(Object.keys(user), USER_KEYS);
  assert.equal(typeof user.id, 'number');
  if (expected.id !== undefined) assert.equal(user.id, expected.id);
  assert.match(user.documentId, /^[a-z][a-z0-9]{23}$/);
  assert.equal(user.username, expected.username);
  assert.equal(user.email, expected.email);
  assert.equal(user.provider, 'local');
  assert.equal(user.confirmed, expected.confirmed ?? true);
  assert.equal(user.blocked, expected.blocked ?? false);
  for (const k of ['createdAt', 'updatedAt', 'publishedAt']) assert.match(user[k], ISO, k);
}

describe('users-permissions', () => {
  let t: TestApp;
  let p: ContentProject;
  let q: ContentProject;
  let anon: ContentClient;
  let seq = 0;
  const uniq = (name: string) => `${name}${++seq}`;

  const query = async (text: string, values: unknown[] = []) =>
    (await t.platform.db.pool.any(compiledQuery({ text, values }))) as Array<Record<string, any>>;
  const countUsers = async (project: ContentProject = p, where = 'TRUE', values: unknown[] = []) =>
    Number((await query(`SELECT count(*)::int AS n FROM "${project.schema}".up_users WHERE ${where}`, values))[0]!.n);
  const userRow = async (id: number, project: ContentProject = p) =>
    (await query(`SELECT * FROM "${project.schema}".up_users WHERE id = $1`, [id]))[0] ?? null;

  const register = (body: unknown, project: ContentProject = p) => project.client(null).post('/api/auth/local/register', body);
  const login = (identifier: unknown, password: unknown, project: ContentProject = p) =>
    project.client(null).post('/api/auth/local', { identifier, password });
  /** Register a fresh user; answers its user object, JWT and password. */
  const newUser = async (name = 'user', project: ContentProject = p, password = 'secret123') => {
    const username = uniq(name);
    const res = await register({ username, email: `${username}@example.com`, password }, project);
    assert.equal(res.statusCode, 200, res.body);
    return { ...(res.json() as { jwt: string; user: Json }), username, email: `${username}@example.com`, password };
  };
  const me = (jwt: string | null, project: ContentProject = p) => project.client(jwt).get('/api/users/me');
  const settings = (body: unknown, project: ContentProject = p) => project.admin.put(`/v1/projects/${project.slug}/settings/users-permissions`, body);
  const setSettings = async (body: Json) => {
    const res = await settings(body);
    assert.equal(res.statusCode, 200, res.body);
  };
  const grant = async (role: string, permissions: Record<string, string[]>, project: ContentProject = p) => {
    const res = await project.admin.put(`/v1/projects/${project.slug}/roles/${role}/permissions`, { permissions });
    assert.equal(res.statusCode, 200, res.body);
  };
  const createRole = async (type: string, project: ContentProject = p) => {
    const res = await project.admin.post(`/v1/projects/${project.slug}/roles`, { type, name: type.toUpperCase() });
    assert.equal(res.statusCode, 201, res.body);
  };
  const roleId = async (type: string, project: ContentProject = p) =>
    Number((await query('SELECT id FROM platform.roles WHERE project_id = $1 AND type = $2', [project.id, type]))[0]!.id);

  before(async () => {
    // These tests send one account's auth routes dozens of bodies; the brute-force limits have
    // their own tests (auth-rate-limits.test.ts).
    t = await startTestApp({ env: { AUTH_RATE_LIMIT_MAX: '10000', AUTH_IP_RATE_LIMIT_MAX: '10000' } });
    p = await setupContentProject(t, blogRawModel());
    q = await setupContentProject(t, blogRawModel());
    anon = p.client(null);
  });
  after(async () => t?.close());

  describe('register', () => {
    it('answers {jwt, user}: the Strapi user object, a lower-case e-mail and an argon2 hash in the row', async () => {
      const before = await countUsers();
      const res = await register({ username: 'Alice', email: 'Alice@Example.COM', password: 'secret123' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      const body = res.json();
      assert.deepEqual(Object.keys(body), ['jwt', 'user']);
      assertUser(body.user, { username: 'Alice', email: 'alice@example.com' });
      assert.ok(!/secret123|password|Token|role/.test(JSON.stringify(body.user)), res.body);

      assert.equal(await countUsers(), before + 1);
      const row = await userRow(body.user.id);
      assert.equal(row!.document_id, body.user.documentId);
      assert.equal(row!.username, 'Alice');
      assert.equal(row!.email, 'alice@example.com');
      assert.equal(row!.provider, 'local');
      assert.match(row!.password, /^\$argon2id\$/);
      assert.ok(!row!.password.includes('secret123'));
      assert.equal(row!.role, 'authenticated');
      assert.equal(row!.confirmed, true);
      assert.equal(row!.blocked, false);
      assert.equal(row!.reset_password_token, null);
      assert.equal(row!.confirmation_token, null);

      const me1 = await me(body.jwt);
      assert.equal(me1.statusCode, 200, me1.body);
      assert.deepEqual(me1.json(), body.user);
    });

    it('signs an HS256 JWT with exactly {id, iat, exp}, valid 30 days', async () => {
      const u = await newUser('jwt');
      const { header, payload } = decodeJwt(u.jwt);
      assert.deepEqual(header, { alg: 'HS256', typ: 'JWT' });
      assert.deepEqual(Object.keys(payload).sort(), ['exp', 'iat', 'id']);
      assert.equal(payload.id, u.user.id);
      assert.ok(Math.abs(payload.iat - now()) <= 5, String(payload.iat));
      assert.equal(payload.exp - payload.iat, THIRTY_DAYS);
    });

    it('refuses a taken e-mail (any case) or username; nothing is written', async () => {
      const u = await newUser('taken');
      const before = await countUsers();
      for (const body of [
        { username: uniq('other'), email: u.email, password: 'secret123' },
        { username: uniq('other'), email: u.email.toUpperCase(), password: 'secret123' },
        { username: u.username, email: `${uniq('other')}@example.com`, password: 'secret123' },
      ]) {
        const res = await register(body);
        assert.deepEqual([res.statusCode, res.json()], [400, TAKEN], JSON.stringify(body));
      }
      assert.equal(await countUsers(), before);
    });

    it('concurrent registrations of one e-mail or one username: exactly one wins, the others are "taken"', async () => {
      const before = await countUsers();
      const email = `${uniq('race')}@example.com`;
      const byEmail = await Promise.all([0, 1, 2, 3, 4].map((i) => register({ username: uniq(`racer${i}-`), email: i % 2 ? email.toUpperCase() : email, password: 'secret123' })));
      const name = uniq('racename');
      const byName = await Promise.all([0, 1, 2, 3, 4].map(() => register({ username: name, email: `${uniq('n')}@example.com`, password: 'secret123' })));
      for (const results of [byEmail, byName]) {
        assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 400, 400, 400, 400]);
        for (const r of results.filter((x) => x.statusCode === 400)) assert.deepEqual(r.json(), TAKEN);
      }
      assert.equal(await countUsers(), before + 2);
      assert.equal(await countUsers(p, 'email = $1', [email]), 1);
    });

    it('validates the body like Strapi; nothing is written on any error', async () => {
      const before = await countUsers();
      const ok = { username: 'valid-name', email: 'valid@example.com', password: 'secret123' };
      const cases: Array<[unknown, Json]> = [
        [{ ...ok, password: 'abc12' }, fieldError('password', 'password must be at least 6 characters')],
        [{ ...ok, foo: 1 }, envelope(400, 'ValidationError', 'Invalid parameters: foo')],
        [{ ...ok, foo: 1, role: 'admin' }, envelope(400, 'ValidationError', 'Invalid parameters: foo, role')],
        [{ ...ok, confirmed: true }, envelope(400, 'ValidationError', 'Invalid parameters: confirmed')],
        [{ username: ok.username, password: ok.password }, fieldError('email', 'email is a required field')],
        [{ email: ok.email, password: ok.password }, fieldError('username', 'username is a required field')],
        [{ username: ok.username, email: ok.email }, fieldError('password', 'password is a required field')],
        [{ ...ok, email: '' }, fieldError('email', 'email is a required field')],
        [{ ...ok, email: null }, fieldError('email', 'email is a required field')],
        [{}, envelope(400, 'ValidationError', '3 errors occurred', fieldErrors(
          ['username', 'username is a required field'], ['email', 'email is a required field'], ['password', 'password is a required field']))],
        [{ ...ok, email: 'not-an-email' }, fieldError('email', 'email must be a valid email')],
        [{ ...ok, email: 'a@b' }, fieldError('email', 'email must be a valid email')],
        [{ ...ok, username: 123 }, fieldError('username', 'username must be a `string` type')],
        [{ ...ok, email: ['valid@example.com'] }, fieldError('email', 'email must be a `string` type')],
        [{ ...ok, password: { $ne: '' } }, fieldError('password', 'password must be a `string` type')],
        [{ ...ok, password: 12345678 }, fieldError('password', 'password must be a `string` type')],
      ];
      for (const [body, expected] of cases) {
        const res = await register(body);
        assert.deepEqual([res.statusCode, res.json()], [400, expected], JSON.stringify(body));
      }
      // Not an object at all.
      for (const payload of ['[]', '"alice"', '42', 'null', 'true']) {
        const res = await anon.raw('POST', '/api/auth/local/register', { payload, headers: { 'content-type': 'application/json' } });
        assert.deepEqual([res.statusCode, res.json()], [400, envelope(400, 'ValidationError', 'The request body must be a JSON object')], payload);
      }
      const none = await anon.raw('POST', '/api/auth/local/register');
      assert.deepEqual([none.statusCode, none.json()], [400, envelope(400, 'ValidationError', 'The request body must be a JSON object')]);
      const malformed = await anon.raw('POST', '/api/auth/local/register', { payload: '{"username":', headers: { 'content-type': 'application/json' } });
      assert.equal(malformed.statusCode, 400);
      assert.equal(malformed.json().error.name, 'SyntaxError');
      assert.equal(await countUsers(), before);
    });
  });

  describe('login', () => {
    it('by e-mail in any case or by exact username → {jwt, user}', async () => {
      const u = await newUser('Login');
      for (const identifier of [u.email, u.email.toUpperCase(), u.username]) {
        const res = await login(identifier, u.password);
        assert.equal(res.statusCode, 200, `${identifier}: ${res.body}`);
        const body = res.json();
        assert.deepEqual(Object.keys(body), ['jwt', 'user']);
        assert.deepEqual(body.user, u.user);
        const { payload } = decodeJwt(body.jwt);
        assert.deepEqual([payload.id, payload.exp - payload.iat], [u.user.id, THIRTY_DAYS]);
        assert.deepEqual((await me(body.jwt)).json(), u.user);
      }
      // Usernames are exact (Strapi compares the e-mail lower-cased, the username as given).
      const upper = await login(u.username.toUpperCase(), u.password);
      assert.deepEqual([upper.statusCode, upper.json()], [400, INVALID_LOGIN]);
    });

    it('a wrong password and an unknown identifier get the same 400', async () => {
      const u = await newUser('wrongpw');
      const wrong = await login(u.email, 'not-the-password');
      const unknown = await login('nobody@example.com', u.password);
      const unknownName = await login('nobody-at-all', u.password);
      for (const res of [wrong, unknown, unknownName]) assert.deepEqual([res.statusCode, res.json()], [400, INVALID_LOGIN]);
      assert.equal(wrong.body, unknown.body);
    });

    it('validates its body: missing fields, wrong types, extra keys', async () => {
      const cases: Array<[unknown, Json]> = [
        [{ identifier: 'alice' }, fieldError('password', 'password is a required field')],
        [{ password: 'secret123' }, fieldError('identifier', 'identifier is a required field')],
        [{ identifier: 'alice', password: 'secret123', rememberMe: true }, envelope(400, 'ValidationError', 'Invalid parameters: rememberMe')],
        [{ identifier: ['alice'], password: 'secret123' }, fieldError('identifier', 'identifier must be a `string` type')],
        [{ identifier: 'alice', password: { $gt: '' } }, fieldError('password', 'password must be a `string` type')],
      ];
      for (const [body, expected] of cases) {
        const res = await anon.post('/api/auth/local', body);
        assert.deepEqual([res.statusCode, res.json()], [400, expected], JSON.stringify(body));
      }
    });

    it('a blocked user cannot log in (but a wrong password tells nothing)', async () => {
      const u = await newUser('blockedlogin');
      assert.equal((await p.api.put(`/api/users/${u.user.id}`, { blocked: true })).statusCode, 200);
      const res = await login(u.username, u.password);
      assert.deepEqual([res.statusCode, res.json()], [400, envelope(400, 'ApplicationError', 'Your account has been blocked by an administrator')]);
      const wrong = await login(u.username, 'wrong-password');
      assert.deepEqual([wrong.statusCode, wrong.json()], [400, INVALID_LOGIN]);
    });
  });

  describe('/api/users/me and credentials', () => {
    it('answers the bare user for a JWT; 403 for API tokens of any type and anonymous callers', async () => {
      const u = await newUser('me');
      const res = await me(u.jwt);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.deepEqual(res.json(), u.user);
      const tokens = [
        await p.token('full-access'), await p.token('read-only'),
        await p.token('custom', { [USERS]: ['me', 'find', 'findOne'] }),
      ];
      for (const key of [...tokens, null]) {
        const r = await me(key);
        assert.deepEqual([r.statusCode, r.json()], [403, FORBIDDEN], String(key).slice(0, 10));
      }
      // Another scheme than Bearer is anonymous.
      const other = await anon.get('/api/users/me', { authorization: `Token ${u.jwt}` });
      assert.deepEqual([other.statusCode, other.json()], [403, FORBIDDEN]);
      // The scheme is case-insensitive.
      assert.equal((await anon.get('/api/users/me', { authorization: `bearer ${u.jwt}` })).statusCode, 200);
    });

    it('refuses garbage, tampered, foreign-key, alg none, expired and malformed-payload JWTs with 401', async () => {
      const u = await newUser('tamper');
      const [h, pl, sig] = u.jwt.split('.') as [string, string, string];
      const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
      const key = deriveKey(t.env.APP_SECRET!, `project-jwt:${p.id}`);
      const iat = now();
      const claims = { id: u.user.id, iat, exp: iat + 3600 };
      // The key really is the project's: a JWT made with it passes (so the refusals below are
      // about what each one changes).
      const forged = signJwt(claims, key);
      assert.equal((await me(forged)).statusCode, 200);

      const bad: Record<string, string> = {
        garbage: 'a.b.c',
        'not base64': '!!!.@@@.###',
        'unknown API token': 'f'.repeat(256),
        'two parts': `${h}.${pl}`,
        'flipped signature char': `${h}.${pl}.${flip(sig, 10)}`,
        'signature dropped': `${h}.${pl}.`,
        'payload of another user, same signature': `${h}.${b64url({ ...decodeJwt(u.jwt).payload, id: u.user.id + 1 })}.${sig}`,
        'another key': signJwt(claims, randomBytes(32)),
        'the APP_SECRET itself as key': signJwt(claims, t.env.APP_SECRET!),
        'alg none': `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims)}.`,
        'alg none with the original signature': `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims)}.${sig}`,
        'HS512 header': signJwt(claims, key, { alg: 'HS512', typ: 'JWT' }),
        expired: signJwt({ ...claims, iat: iat - 7200, exp: iat - 3600 }, key),
        'string id': signJwt({ ...claims, id: String(u.user.id) }, key),
        'zero id': signJwt({ ...claims, id: 0 }, key),
        'unknown user': signJwt({ ...claims, id: 987654 }, key),
        'huge token': `${h}.${b64url({ ...claims, pad: 'x'.repeat(5000) })}.${sig}`,
      };
      for (const [label, token] of Object.entries(bad)) {
        const res = await me(token);
        assert.deepEqual([res.statusCode, res.json()], [401, UNAUTHORIZED], label);
      }
      // Also on a route the public role opens.
      await p.setPublic({ 'api::post.post': ['find'] });
      try {
        assert.equal((await anon.get('/api/posts')).statusCode, 200);
        const res = await p.client(bad.expired!).get('/api/posts');
        assert.deepEqual([res.statusCode, res.json()], [401, UNAUTHORIZED]);
      } finally {
        await p.setPublic({});
      }
    });
  });

  describe('a JWT acts with its role', () => {
    it('the authenticated role: 403 without grants, 200 as soon as find is granted, 403 when revoked', async () => {
      const u = await newUser('roleuser');
      const user = p.client(u.jwt);
      assert.deepEqual([(await user.get('/api/posts')).statusCode, (await user.get('/api/posts')).json()], [403, FORBIDDEN]);
      await grant('authenticated', { 'api::post.post': ['find'] });
      const list = await user.get('/api/posts');
      assert.equal(list.statusCode, 200, list.body);
      assert.deepEqual(list.json().data, []);
      // Only find: create stays refused, and the public role is untouched.
      assert.equal((await user.post('/api/posts', { data: { title: 'nope' } })).statusCode, 403);
      assert.equal((await anon.get('/api/posts')).statusCode, 403);
      // Users' own actions need their grant too (me does not).
      assert.deepEqual([(await user.get('/api/users')).statusCode], [403]);
      await grant('authenticated', {});
      assert.equal((await user.get('/api/posts')).statusCode, 403);
    });

    it('a custom role given with PUT /api/users/:id applies to the user\'s existing JWT at once; deleting the role falls back to authenticated', async () => {
      await createRole('editor');
      await grant('editor', { 'api::post.post': ['find', 'create'] });
      const editor = await newUser('editor');
      const bystander = await newUser('bystander');
      const ed = p.client(editor.jwt);
      assert.equal((await ed.get('/api/posts')).statusCode, 403);

      const res = await p.api.put(`/api/users/${editor.user.id}`, { role: 'editor' });
      assert.equal(res.statusCode, 200, res.body);
      assertUser(res.json(), { username: editor.username, email: editor.email, id: editor.user.id });
      assert.equal((await userRow(editor.user.id))!.role, 'editor');

      assert.equal((await ed.get('/api/posts')).statusCode, 200);
      const created = await ed.post('/api/posts', { data: { title: 'By the editor' } });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal((await ed.put(`/api/posts/${created.json().data.documentId}`, { data: { title: 'x' } })).statusCode, 403);
      assert.equal((await p.client(bystander.jwt).get('/api/posts')).statusCode, 403);

      // Role permission changes apply at once too.
      await grant('editor', { 'api::post.post': ['create'] });
      assert.equal((await ed.get('/api/posts')).statusCode, 403);
      await grant('editor', { 'api::post.post': ['find'] });
      assert.equal((await ed.get('/api/posts')).statusCode, 200);

      const del = await p.admin.del(`/v1/projects/${p.slug}/roles/editor`);
      assert.equal(del.statusCode, 204, del.body);
      assert.equal((await ed.get('/api/posts')).statusCode, 403);
      await grant('authenticated', { 'api::post.post': ['find'] });
      try {
        assert.equal((await ed.get('/api/posts')).statusCode, 200);
      } finally {
        await grant('authenticated', {});
      }
      assert.equal((await me(editor.jwt)).statusCode, 200);
      // The built-in roles cannot be deleted.
      for (const role of ['authenticated', 'public']) {
        const r = await p.admin.del(`/v1/projects/${p.slug}/roles/${role}`);
        assert.equal(r.statusCode, 400, r.body);
      }
    });

    it('a user of a deleted role stays authenticated when a role of that type is created again', async () => {
      await createRole('ghost');
      const u = await newUser('ghost');
      assert.equal((await p.api.put(`/api/users/${u.user.id}`, { role: 'ghost' })).statusCode, 200);
      assert.equal((await p.admin.del(`/v1/projects/${p.slug}/roles/ghost`)).statusCode, 204);
      assert.equal((await p.client(u.jwt).get('/api/posts')).statusCode, 403);
      await createRole('ghost');
      await grant('ghost', { 'api::post.post': ['find'] });
      try {
        const res = await p.client(u.jwt).get('/api/posts');
        assert.deepEqual([res.statusCode, res.json()], [403, FORBIDDEN]);
        assert.equal((await userRow(u.user.id))!.role, 'authenticated');
      } finally {
        await p.api.put(`/api/users/${u.user.id}`, { role: 'authenticated' });
        await p.admin.del(`/v1/projects/${p.slug}/roles/ghost`);
      }
    });

    it('a role may be given by numeric id; unknown roles and public are refused', async () => {
      await createRole('reviewer');
      const u = await newUser('byid');
      const res = await p.api.put(`/api/users/${u.user.id}`, { role: await roleId('reviewer') });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((await userRow(u.user.id))!.role, 'reviewer');
      const refused = fieldError('role', 'role must be the type or id of a role other than public');
      for (const role of ['public', await roleId('public'), 'nope', 999999, await roleId('authenticated', q), -1, 1.5, '', null, { type: 'editor' }]) {
        const r = await p.api.put(`/api/users/${u.user.id}`, { role });
        assert.deepEqual([r.statusCode, r.json()], [400, refused], JSON.stringify(role));
      }
      assert.equal((await userRow(u.user.id))!.role, 'reviewer');
    });
  });

  describe('blocking and deleting users', () => {
    it('blocking refuses the JWT at once (401, also on public routes), unblocking restores it; deleting → 401', async () => {
      const u = await newUser('blockme');
      assert.equal((await me(u.jwt)).statusCode, 200);
      const blocked = await p.api.put(`/api/users/${u.user.id}`, { blocked: true });
      assert.equal(blocked.statusCode, 200, blocked.body);
      assertUser(blocked.json(), { username: u.username, email: u.email, blocked: true });
      assert.equal((await userRow(u.user.id))!.blocked, true);
      assert.deepEqual([(await me(u.jwt)).statusCode, (await me(u.jwt)).json()], [401, UNAUTHORIZED]);
      await p.setPublic({ 'api::post.post': ['find'] });
      try {
        assert.equal((await p.client(u.jwt).get('/api/posts')).statusCode, 401);
      } finally {
        await p.setPublic({});
      }
      assert.equal((await p.api.put(`/api/users/${u.user.id}`, { blocked: false })).statusCode, 200);
      assert.equal((await me(u.jwt)).statusCode, 200);

      const del = await p.api.del(`/api/users/${u.user.id}`);
      assert.equal(del.statusCode, 200, del.body);
      assert.equal(await userRow(u.user.id), null);
      const after = await me(u.jwt);
      assert.deepEqual([after.statusCode, after.json()], [401, UNAUTHORIZED]);
      assert.deepEqual((await login(u.username, u.password)).json(), INVALID_LOGIN);
    });
  });

  describe('change-password', () => {
    it('changes the password and answers {jwt, user}; the old password stops working', async () => {
      const u = await newUser('changer', p, 'oldsecret');
      const hashBefore = (await userRow(u.user.id))!.password;
      const res = await p.client(u.jwt).post('/api/auth/change-password', { currentPassword: 'oldsecret', password: 'newsecret', passwordConfirmation: 'newsecret' });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.deepEqual(Object.keys(body), ['jwt', 'user']);
      assertUser(body.user, { username: u.username, email: u.email, id: u.user.id });
      assert.equal(decodeJwt(body.jwt).payload.id, u.user.id);
      assert.equal((await me(body.jwt)).statusCode, 200);
      const hashAfter = (await userRow(u.user.id))!.password;
      assert.notEqual(hashAfter, hashBefore);
      assert.match(hashAfter, /^\$argon2id\$/);
      assert.equal((await login(u.username, 'newsecret')).statusCode, 200);
      assert.deepEqual((await login(u.username, 'oldsecret')).json(), INVALID_LOGIN);
    });

    it('refuses mismatches, a wrong current password, an unchanged password; nothing changes', async () => {
      const u = await newUser('nochange', p, 'oldsecret');
      const hash = (await userRow(u.user.id))!.password;
      const change = (body: unknown) => p.client(u.jwt).post('/api/auth/change-password', body);
      const cases: Array<[unknown, Json]> = [
        [{ currentPassword: 'oldsecret', password: 'newsecret', passwordConfirmation: 'other123' }, envelope(400, 'ValidationError', 'Passwords do not match')],
        [{ currentPassword: 'wrongsecret', password: 'newsecret', passwordConfirmation: 'newsecret' }, envelope(400, 'ValidationError', 'The provided current password is invalid')],
        [{ currentPassword: 'oldsecret', password: 'oldsecret', passwordConfirmation: 'oldsecret' }, envelope(400, 'ValidationError', 'Your new password must be different than your current password')],
        [{ currentPassword: 'oldsecret', password: 'short', passwordConfirmation: 'short' }, fieldError('password', 'password must be at least 6 characters')],
        [{ currentPassword: 'oldsecret', password: 'newsecret' }, fieldError('passwordConfirmation', 'passwordConfirmation is a required field')],
        [{ currentPassword: 'oldsecret', password: 'newsecret', passwordConfirmation: 'newsecret', foo: 1 }, envelope(400, 'ValidationError', 'Invalid parameters: foo')],
      ];
      for (const [body, expected] of cases) {
        const res = await change(body);
        assert.deepEqual([res.statusCode, res.json()], [400, expected], JSON.stringify(body));
      }
      assert.equal((await userRow(u.user.id))!.password, hash);
      const good = { currentPassword: 'oldsecret', password: 'newsecret', passwordConfirmation: 'newsecret' };
      for (const key of [null, await p.token('full-access')]) {
        const res = await p.client(key).post('/api/auth/change-password', good);
        assert.deepEqual([res.statusCode, res.json()], [403, FORBIDDEN]);
      }
      const garbage = await p.client('a.b.c').post('/api/auth/change-password', good);
      assert.deepEqual([garbage.statusCode, garbage.json()], [401, UNAUTHORIZED]);
      assert.equal((await userRow(u.user.id))!.password, hash);
      assert.equal((await login(u.username, 'oldsecret')).statusCode, 200);
    });
  });

  describe('/api/users', () => {
    it('full-access token: POST → 201 bare user with the default role, or a role by type or id', async () => {
      await createRole('staff');
      const before = await countUsers();
      const res = await p.api.post('/api/users', { username: 'Henry', email: 'Henry@Example.com', password: 'secret123' });
      assert.equal(res.statusCode, 201, res.body);
      assertUser(res.json(), { username: 'Henry', email: 'henry@example.com', confirmed: false });
      const row = await userRow(res.json().id);
      assert.deepEqual([row!.role, row!.confirmed, row!.blocked, row!.email], ['authenticated', false, false, 'henry@example.com']);
      assert.match(row!.password, /^\$argon2id\$/);

      const staff = await p.api.post('/api/users', { username: 'ivy', email: 'ivy@example.com', password: 'secret123', role: 'staff', confirmed: true, blocked: true });
      assert.equal(staff.statusCode, 201, staff.body);
      assertUser(staff.json(), { username: 'ivy', email: 'ivy@example.com', confirmed: true, blocked: true });
      assert.equal((await userRow(staff.json().id))!.role, 'staff');
      const byId = await p.api.post('/api/users', { username: 'jack', email: 'jack@example.com', password: 'secret123', role: await roleId('staff') });
      assert.equal(byId.statusCode, 201, byId.body);
      assert.equal((await userRow(byId.json().id))!.role, 'staff');
      assert.equal(await countUsers(), before + 3);

      const cases: Array<[unknown, Json]> = [
        [{ username: 'kate', email: 'kate@example.com', password: 'secret123', role: 'public' }, fieldError('role', 'role must be the type or id of a role other than public')],
        [{ username: 'kate', email: 'kate@example.com', password: 'secret123', role: 424242 }, fieldError('role', 'role must be the type or id of a role other than public')],
        [{ username: 'kate', email: 'HENRY@example.com', password: 'secret123' }, TAKEN],
        [{ username: 'Henry', email: 'kate@example.com', password: 'secret123' }, TAKEN],
        [{ username: 'kate', email: 'kate@example.com', password: 'secret123', confirmed: 'yes' }, fieldError('confirmed', 'confirmed must be a `boolean` type')],
        [{ username: 'kate', email: 'kate@example.com', password: 'secret123', provider: 'google' }, envelope(400, 'ValidationError', 'Invalid parameters: provider')],
        [{ username: 'kate', email: 'kate@example.com' }, fieldError('password', 'password is a required field')],
      ];
      for (const [body, expected] of cases) {
        const r = await p.api.post('/api/users', body);
        assert.deepEqual([r.statusCode, r.json()], [400, expected], JSON.stringify(body));
      }
      assert.equal(await countUsers(), before + 3);
    });

    it('full-access token: GET lists a bare array with filters, sort and pagination; count is a bare number', async () => {
      const list = await p.api.get('/api/users');
      assert.equal(list.statusCode, 200);
      const users = list.json();
      assert.ok(Array.isArray(users));
      assert.equal(users.length, await countUsers());
      for (const u of users) assert.deepEqual(Object.keys(u), USER_KEYS);
      assert.ok(!/password|argon2|Token"/.test(list.body));
      // Default order: by id.
      const ids = users.map((u: Json) => u.id);
      assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
      const dbIds = (await query(`SELECT id::int AS id FROM "${p.schema}".up_users ORDER BY id`)).map((r) => r.id);
      assert.deepEqual(ids, dbIds);

      const henry = await p.api.get('/api/users?filters[email][$eq]=henry@example.com');
      assert.deepEqual(henry.json().map((u: Json) => u.username), ['Henry']);
      const blocked = await p.api.get('/api/users?filters[blocked][$eq]=true&fields[0]=username');
      // fields keeps id and documentId, as Strapi does.
      assert.deepEqual(blocked.json(), (await query(`SELECT id::int AS id, document_id AS "documentId", username FROM "${p.schema}".up_users WHERE blocked ORDER BY id`)));
      const sorted = await p.api.get('/api/users?sort=username:desc&pagination[start]=1&pagination[limit]=2');
      const names = (await query(`SELECT username FROM "${p.schema}".up_users ORDER BY username DESC`)).map((r) => r.username);
      assert.deepEqual(sorted.json().map((u: Json) => u.username), names.slice(1, 3));
      const page = await p.api.get('/api/users?pagination[page]=2&pagination[pageSize]=3');
      assert.deepEqual(page.json().map((u: Json) => u.id), dbIds.slice(3, 6));

      const count = await p.api.get('/api/users/count');
      assert.equal(count.statusCode, 200);
      assert.equal(count.body, String(await countUsers()));
      assert.equal(count.json(), await countUsers());
      const blockedCount = await p.api.get('/api/users/count?filters[blocked][$eq]=true');
      assert.equal(blockedCount.json(), await countUsers(p, 'blocked'));
      assert.ok(blockedCount.json() >= 1);

      for (const [url, key, param] of [
        ['/api/users?filters[password][$eq]=x', 'password', 'filters'],
        ['/api/users?filters[resetPasswordToken][$null]=true', 'resetPasswordToken', 'filters'],
        ['/api/users?filters[confirmationToken][$notNull]=true', 'confirmationToken', 'filters'],
        ['/api/users/count?filters[password][$startsWith]=$argon2', 'password', 'filters'],
        ['/api/users?filters[$or][0][password][$eq]=x', 'password', 'filters'],
        ['/api/users?sort=password', 'password', 'sort'],
      ] as const) {
        const res = await p.api.get(url);
        assert.deepEqual([res.statusCode, res.json()], [400, envelope(400, 'ValidationError', `Invalid key ${key}`, { key, path: null, source: 'query', param })], url);
      }
      const fields = await p.api.get('/api/users?fields[0]=password');
      assert.equal(fields.statusCode, 400);
      assert.equal(fields.json().error.message, 'Invalid key password');
    });

    it('full-access token: GET/PUT/DELETE one user by id; unknown ids → 404', async () => {
      const u = await newUser('crud');
      const one = await p.api.get(`/api/users/${u.user.id}`);
      assert.equal(one.statusCode, 200);
      assert.deepEqual(one.json(), u.user);
      for (const id of ['987654', 'abc', '0', '-1', '1.5', '99999999999999999999999']) {
        for (const res of [await p.api.get(`/api/users/${id}`), await p.api.put(`/api/users/${id}`, { blocked: true }), await p.api.del(`/api/users/${id}`)]) {
          assert.deepEqual([res.statusCode, res.json()], [404, NOT_FOUND], id);
        }
      }

      const newName = uniq('renamed');
      const put = await p.api.put(`/api/users/${u.user.id}`, { username: newName, email: `${newName.toUpperCase()}@EXAMPLE.com`, password: 'changed123' });
      assert.equal(put.statusCode, 200, put.body);
      assertUser(put.json(), { username: newName, email: `${newName}@example.com`, id: u.user.id });
      assert.equal(put.json().documentId, u.user.documentId);
      const row = await userRow(u.user.id);
      assert.deepEqual([row!.username, row!.email], [newName, `${newName}@example.com`]);
      assert.equal((await login(newName, 'changed123')).statusCode, 200);
      assert.deepEqual((await login(newName, u.password)).json(), INVALID_LOGIN);

      const other = await newUser('crudother');
      for (const body of [{ email: other.email.toUpperCase() }, { username: other.username }]) {
        const res = await p.api.put(`/api/users/${u.user.id}`, body);
        assert.deepEqual([res.statusCode, res.json()], [400, TAKEN], JSON.stringify(body));
      }
      // Its own e-mail and username are not "taken".
      assert.equal((await p.api.put(`/api/users/${u.user.id}`, { username: newName, email: `${newName}@example.com` })).statusCode, 200);
      for (const [body, expected] of [
        [{ foo: 1 }, envelope(400, 'ValidationError', 'Invalid parameters: foo')],
        [{ password: 'short' }, fieldError('password', 'password must be at least 6 characters')],
        [{ email: 'nope' }, fieldError('email', 'email must be a valid email')],
        [{ blocked: 'true' }, fieldError('blocked', 'blocked must be a `boolean` type')],
        [{ username: null }, fieldError('username', 'username is a required field')],
      ] as Array<[Json, Json]>) {
        const res = await p.api.put(`/api/users/${u.user.id}`, body);
        assert.deepEqual([res.statusCode, res.json()], [400, expected], JSON.stringify(body));
      }
      assert.deepEqual([(await userRow(u.user.id))!.username, (await userRow(u.user.id))!.email], [newName, `${newName}@example.com`]);

      const before = await countUsers();
      const del = await p.api.del(`/api/users/${u.user.id}`);
      assert.equal(del.statusCode, 200, del.body);
      assertUser(del.json(), { username: newName, email: `${newName}@example.com`, id: u.user.id });
      assert.equal(await userRow(u.user.id), null);
      assert.equal(await countUsers(), before - 1);
      const again = await p.api.del(`/api/users/${u.user.id}`);
      assert.deepEqual([again.statusCode, again.json()], [404, NOT_FOUND]);
      assert.deepEqual((await p.api.get(`/api/users/${u.user.id}`)).json(), NOT_FOUND);
    });

    it('populate=role adds the role to /api/users/me, /api/users/:id and /api/users', async () => {
      const u = await newUser('withrole');
      const check = (user: Json) => {
        assert.deepEqual(Object.keys(user), [...USER_KEYS, 'role']);
        assert.equal(user.role.type, 'authenticated');
        assert.equal(user.role.name, 'Authenticated');
        assert.equal(user.role.description, 'Default role given to authenticated user.');
      };
      const mine = await p.client(u.jwt).get('/api/users/me?populate=role');
      assert.equal(mine.statusCode, 200, mine.body);
      check(mine.json());
      const one = await p.api.get(`/api/users/${u.user.id}?populate=role`);
      assert.equal(one.statusCode, 200, one.body);
      check(one.json());
      const list = await p.api.get(`/api/users?populate=role&filters[id][$eq]=${u.user.id}`);
      assert.equal(list.statusCode, 200, list.body);
      check(list.json()[0]);
    });

    it('read-only and custom tokens, anonymous callers and roles get exactly their actions', async () => {
      const u = await newUser('perm');
      const before = await countUsers();
      const readOnly = p.client(await p.token('read-only'));
      assert.equal((await readOnly.get('/api/users')).statusCode, 200);
      assert.deepEqual((await readOnly.get(`/api/users/${u.user.id}`)).json(), u.user);
      const refused = async (client: ContentClient, label: string, calls: Array<[string, () => Promise<{ statusCode: number; json(): unknown }>]>) => {
        for (const [name, call] of calls) {
          const res = await call();
          assert.deepEqual([res.statusCode, res.json()], [403, FORBIDDEN], `${label} ${name}`);
        }
      };
      const writes = (client: ContentClient): Array<[string, () => Promise<any>]> => [
        ['POST', () => client.post('/api/users', { username: uniq('x'), email: `${uniq('x')}@example.com`, password: 'secret123' })],
        ['PUT', () => client.put(`/api/users/${u.user.id}`, { blocked: true })],
        ['DELETE', () => client.del(`/api/users/${u.user.id}`)],
      ];
      await refused(readOnly, 'read-only', [...writes(readOnly), ['count', () => readOnly.get('/api/users/count')]]);
      await refused(anon, 'anonymous', [
        ...writes(anon), ['list', () => anon.get('/api/users')], ['one', () => anon.get(`/api/users/${u.user.id}`)], ['count', () => anon.get('/api/users/count')],
      ]);
      const jwt = p.client(u.jwt);
      await refused(jwt, 'authenticated', [...writes(jwt), ['list', () => jwt.get('/api/users')], ['count', () => jwt.get('/api/users/count')]]);

      const counter = p.client(await p.token('custom', { [USERS]: ['count'] }));
      assert.equal((await counter.get('/api/users/count')).json(), before);
      await refused(counter, 'custom count', [...writes(counter), ['list', () => counter.get('/api/users')]]);

      await p.setPublic({ [USERS]: ['find'] });
      try {
        const list = await anon.get('/api/users');
        assert.equal(list.statusCode, 200);
        assert.equal(list.json().length, before);
        await refused(anon, 'public find', [...writes(anon), ['one', () => anon.get(`/api/users/${u.user.id}`)], ['count', () => anon.get('/api/users/count')]]);
      } finally {
        await p.setPublic({});
      }
      await grant('authenticated', { [USERS]: ['findOne', 'update'] });
      try {
        assert.equal((await jwt.get(`/api/users/${u.user.id}`)).statusCode, 200);
        assert.equal((await jwt.put(`/api/users/${u.user.id}`, { username: u.username })).statusCode, 200);
        assert.equal((await jwt.get('/api/users')).statusCode, 403);
      } finally {
        await grant('authenticated', {});
      }
      assert.equal(await countUsers(), before);
      assert.equal((await userRow(u.user.id))!.blocked, false);
    });
  });

  describe('settings', () => {
    const url = () => `/v1/projects/${p.slug}/settings/users-permissions`;

    it('GET answers the defaults; invalid values are refused naming the key and change nothing', async () => {
      const res = await p.admin.get(url());
      assert.deepEqual([res.statusCode, res.json()], [200, { usersPermissions: DEFAULT_SETTINGS }]);
      const roleTypes = ((await p.admin.get(`/v1/projects/${p.slug}/roles`)).json().roles as Json[]).map((r) => r.type).filter((r) => r !== 'public');
      assert.ok(roleTypes.includes('authenticated') && roleTypes.length >= 2, roleTypes.join());
      const roleMessage = `defaultRole must be one of: ${roleTypes.join(', ')}`;
      const cases: Array<[unknown, string, string]> = [
        [{ allowRegister: 'yes' }, 'allowRegister', 'allowRegister must be a boolean'],
        [{ emailConfirmation: 1 }, 'emailConfirmation', 'emailConfirmation must be a boolean'],
        [{ jwtExpiresIn: 10 }, 'jwtExpiresIn', 'jwtExpiresIn must be a number of seconds from 60 to 31536000'],
        [{ jwtExpiresIn: '3600' }, 'jwtExpiresIn', 'jwtExpiresIn must be a number of seconds from 60 to 31536000'],
        [{ jwtExpiresIn: 3600.5 }, 'jwtExpiresIn', 'jwtExpiresIn must be a number of seconds from 60 to 31536000'],
        [{ defaultRole: 'public' }, 'defaultRole', roleMessage],
        [{ defaultRole: 'nope' }, 'defaultRole', roleMessage],
        [{ defaultRole: 42 }, 'defaultRole', roleMessage],
        [{ resetPasswordUrl: 'javascript:alert(1)' }, 'resetPasswordUrl', 'resetPasswordUrl must be an http(s) URL or null'],
        [{ emailConfirmationRedirect: '//evil.example' }, 'emailConfirmationRedirect', 'emailConfirmationRedirect must be an http(s) URL or a path starting with /'],
        [{ foo: true }, 'foo', 'foo is not a valid key'],
      ];
      for (const [body, key, message] of cases) {
        const r = await settings(body);
        assert.deepEqual([r.statusCode, r.json()], [400, fieldError(key, message)], JSON.stringify(body));
      }
      const two = await settings({ allowRegister: 'no', jwtExpiresIn: 0 });
      assert.equal(two.statusCode, 400);
      assert.equal(two.json().error.message, '2 errors occurred');
      assert.deepEqual(two.json().error.details.errors.map((e: Json) => e.path), [['allowRegister'], ['jwtExpiresIn']]);
      for (const body of [[], [{ allowRegister: false }]]) {
        const r = await settings(body);
        assert.deepEqual([r.statusCode, r.json()], [400, envelope(400, 'ValidationError', 'Users settings must be an object')], JSON.stringify(body));
      }
      // A partial update keeps the other keys; nothing above was stored.
      assert.deepEqual((await p.admin.get(url())).json(), { usersPermissions: DEFAULT_SETTINGS });
      const stored = await query('SELECT settings FROM platform.projects WHERE id = $1', [p.id]);
      assert.equal(stored[0]!.settings.usersPermissions, undefined);
    });

    it('allowRegister false closes registration (login and POST /api/users still work)', async () => {
      const existing = await newUser('beforeclose');
      const put = await settings({ allowRegister: false });
      assert.deepEqual([put.statusCode, put.json()], [200, { usersPermissions: { ...DEFAULT_SETTINGS, allowRegister: false } }]);
      assert.deepEqual((await p.admin.get(url())).json(), { usersPermissions: { ...DEFAULT_SETTINGS, allowRegister: false } });
      try {
        const before = await countUsers();
        const res = await register({ username: 'closed', email: 'closed@example.com', password: 'secret123' });
        assert.deepEqual([res.statusCode, res.json()], [400, envelope(400, 'ApplicationError', 'Register action is currently disabled')]);
        assert.equal(await countUsers(), before);
        assert.equal((await login(existing.username, existing.password)).statusCode, 200);
        assert.equal((await p.api.post('/api/users', { username: 'byadmin', email: 'byadmin@example.com', password: 'secret123' })).statusCode, 201);
      } finally {
        await setSettings({ allowRegister: true });
      }
      assert.equal((await register({ username: 'reopened', email: 'reopened@example.com', password: 'secret123' })).statusCode, 200);
    });

    it('jwtExpiresIn sets the lifetime of new JWTs (register and login)', async () => {
      await setSettings({ jwtExpiresIn: 3600 });
      try {
        const u = await newUser('shortlived');
        const { payload } = decodeJwt(u.jwt);
        assert.equal(payload.exp - payload.iat, 3600);
        const again = decodeJwt((await login(u.username, u.password)).json().jwt).payload;
        assert.equal(again.exp - again.iat, 3600);
      } finally {
        await setSettings({ jwtExpiresIn: THIRTY_DAYS });
      }
      const { payload } = decodeJwt((await newUser('longlived')).jwt);
      assert.equal(payload.exp - payload.iat, THIRTY_DAYS);
    });

    it('defaultRole is the role of registered users (and of POST /api/users without a role)', async () => {
      await createRole('member');
      await grant('member', { 'api::post.post': ['find'] });
      await setSettings({ defaultRole: 'member' });
      try {
        const u = await newUser('member');
        assert.equal((await userRow(u.user.id))!.role, 'member');
        assert.equal((await p.client(u.jwt).get('/api/posts')).statusCode, 200);
        const created = await p.api.post('/api/users', { username: uniq('m'), email: `${uniq('m')}@example.com`, password: 'secret123' });
        assert.equal((await userRow(created.json().id))!.role, 'member');
      } finally {
        await setSettings({ defaultRole: 'authenticated' });
      }
      const plain = await newUser('plain');
      assert.equal((await userRow(plain.user.id))!.role, 'authenticated');
    });

    it('emailConfirmation: register answers {user} without a JWT; unconfirmed users cannot log in and their JWTs are refused', async () => {
      // A user created unconfirmed while confirmation is off holds a working JWT…
      const early = await p.api.post('/api/users', { username: uniq('early'), email: `${uniq('early')}@example.com`, password: 'secret123' });
      assert.equal(early.statusCode, 201);
      const earlyLogin = await login(early.json().username, 'secret123');
      assert.equal(earlyLogin.statusCode, 200);
      const earlyJwt = earlyLogin.json().jwt as string;
      assert.equal((await me(earlyJwt)).statusCode, 200);
      const confirmedUser = await newUser('confirmedbefore');

      await setSettings({ emailConfirmation: true });
      try {
        // …which stops working once confirmation is required.
        assert.deepEqual((await me(earlyJwt)).json(), UNAUTHORIZED);
        assert.equal((await me(confirmedUser.jwt)).statusCode, 200);

        const username = uniq('unconfirmed');
        const res = await register({ username, email: `${username}@example.com`, password: 'secret123' });
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(Object.keys(res.json()), ['user']);
        assertUser(res.json().user, { username, email: `${username}@example.com`, confirmed: false });
        const row = await userRow(res.json().user.id);
        assert.equal(row!.confirmed, false);
        assert.match(row!.confirmation_token, /^[0-9a-f]{64}$/);
        const refused = await login(username, 'secret123');
        assert.deepEqual([refused.statusCode, refused.json()], [400, envelope(400, 'ApplicationError', 'Your account email is not confirmed')]);
        assert.deepEqual((await login(username, 'wrong-password')).json(), INVALID_LOGIN);
        assert.equal((await login(confirmedUser.username, confirmedUser.password)).statusCode, 200);
      } finally {
        await setSettings({ emailConfirmation: false });
      }
      assert.equal((await me(earlyJwt)).statusCode, 200);
    });
    it('deleting the default role does not leave the setting naming it (POST /api/users then gives authenticated, like register)', async () => {
      await createRole('fleeting');
      await setSettings({ defaultRole: 'fleeting' });
      try {
        const del = await p.admin.del(`/v1/projects/${p.slug}/roles/fleeting`);
        if (del.statusCode === 204) {
          assert.equal((await p.admin.get(url())).json().usersPermissions.defaultRole, 'authenticated');
          const registered = await newUser('fleetreg');
          assert.equal((await userRow(registered.user.id))!.role, 'authenticated');
          const created = await p.api.post('/api/users', { username: uniq('fleet'), email: `${uniq('fleet')}@example.com`, password: 'secret123' });
          assert.equal(created.statusCode, 201, created.body);
          assert.equal((await userRow(created.json().id))!.role, 'authenticated');
        } else {
          // Refusing to delete the default role is as good.
          assert.equal(del.statusCode, 400, del.body);
        }
      } finally {
        await setSettings({ defaultRole: 'authenticated' }).catch(() => {});
        await p.admin.del(`/v1/projects/${p.slug}/roles/fleeting`);
      }
    });
  });

  describe('tenant isolation', () => {
    it('a JWT of one project is refused by another, even for a user with the same id there', async () => {
      // q's first user gets id 1, like p's first user (Alice).
      const alice = await login('alice@example.com', 'secret123');
      assert.equal(alice.statusCode, 200);
      const pUser = alice.json().user as Json;
      const same = await register({ username: 'Alice', email: 'ALICE@example.com', password: 'another1' }, q);
      assert.equal(same.statusCode, 200, same.body);
      const qUser = same.json().user as Json;
      assert.equal(qUser.id, pUser.id);
      assert.equal(qUser.email, 'alice@example.com');

      assert.deepEqual([(await me(alice.json().jwt, q)).statusCode, (await me(alice.json().jwt, q)).json()], [401, UNAUTHORIZED]);
      assert.deepEqual((await me(same.json().jwt, p)).json(), UNAUTHORIZED);
      assert.deepEqual((await me(same.json().jwt, q)).json(), qUser);
      assert.deepEqual((await me(alice.json().jwt, p)).json(), pUser);
      // Each project's login knows only its own password.
      assert.deepEqual((await login('alice@example.com', 'another1', p)).json(), INVALID_LOGIN);
      assert.deepEqual((await login('alice@example.com', 'secret123', q)).json(), INVALID_LOGIN);
      // A JWT forged with q's key for p's user is q's: it names q's user, never p's.
      const qKey = deriveKey(t.env.APP_SECRET!, `project-jwt:${q.id}`);
      assert.equal((await me(signJwt({ id: pUser.id, iat: now(), exp: now() + 60 }, qKey), p)).statusCode, 401);
      // API tokens do not cross either.
      const qToken = await q.token('full-access');
      assert.deepEqual((await p.client(qToken).get('/api/users')).json(), UNAUTHORIZED);
    });

    it("another project's users list and count hold only its own users", async () => {
      await newUser('onlyq', q);
      const list = (await q.api.get('/api/users')).json() as Json[];
      const rows = await query(`SELECT id::int AS id, email FROM "${q.schema}".up_users ORDER BY id`);
      assert.deepEqual(list.map((u) => [u.id, u.email]), rows.map((r) => [r.id, r.email]));
      assert.ok(!list.some((u) => u.email.startsWith('henry') || u.email.startsWith('user')));
      assert.equal((await q.api.get('/api/users/count')).json(), rows.length);
      // The same id in p names p's user, never q's.
      const qOnly = list.find((u) => u.username.startsWith('onlyq'))!;
      const inP = await p.api.get(`/api/users/${qOnly.id}`);
      assert.equal(inP.statusCode, 200);
      assert.equal(inP.json().email, (await userRow(qOnly.id, p))!.email);
      assert.notEqual(inP.json().email, qOnly.email);
    });
  });

  describe('hostile input', () => {
    it('oversized, NUL-bearing, injection-looking and mistyped values are 400s, never 500s; nothing is written', async () => {
      const before = await countUsers();
      const ok = { username: 'hostile', email: 'hostile@example.com', password: 'secret123' };
      const bodies: Array<[string, unknown, string]> = [
        ['huge username', { ...ok, username: 'x'.repeat(100_000) }, 'username must be between 3 and 255 characters without control characters'],
        ['256-char username', { ...ok, username: 'x'.repeat(256) }, 'username must be between 3 and 255 characters without control characters'],
        ['NUL in username', { ...ok, username: 'host\u0000ile' }, 'username must be between 3 and 255 characters without control characters'],
        ['newline in username', { ...ok, username: 'host\nile' }, 'username must be between 3 and 255 characters without control characters'],
        ['blank username', { ...ok, username: '   ' }, 'username must be between 3 and 255 characters without control characters'],
        ['10 kB password', { ...ok, password: 'p'.repeat(10_000) }, 'password must be at most 200 characters'],
        ['huge email', { ...ok, email: `${'a'.repeat(300)}@example.com` }, 'email must be a valid email'],
        ['injection email', { ...ok, email: "x' OR '1'='1@example.com" }, 'email must be a valid email'],
        ['object username', { ...ok, username: { $ne: null } }, 'username must be a `string` type'],
        ['array password', { ...ok, password: ['secret123'] }, 'password must be a `string` type'],
        ['boolean email', { ...ok, email: true }, 'email must be a `string` type'],
      ];
      for (const [label, body, message] of bodies) {
        const res = await register(body);
        assert.equal(res.statusCode, 400, `${label}: ${res.body.slice(0, 200)}`);
        assert.deepEqual(res.json().error.name, 'ValidationError', label);
        assert.deepEqual(res.json().error.message, message, label);
      }
      assert.equal(await countUsers(), before);
    });

    it('a NUL byte in an e-mail is refused with 400', async () => {
      const before = await countUsers();
      for (const email of ['ho\u0000stile@example.com']) {
        const res = await register({ username: 'nulmail', email, password: 'secret123' });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().error.name, 'ValidationError');
        const created = await p.api.post('/api/users', { username: 'nulmail', email, password: 'secret123' });
        assert.equal(created.statusCode, 400, created.body);
      }
      const nulLogin = await login('ali\u0000ce@example.com', 'secret123');
      assert.equal(nulLogin.statusCode, 400, nulLogin.body);
      assert.equal(nulLogin.json().error.name, 'ValidationError');
      assert.equal(await countUsers(), before);
    });

    it('injection-looking identifiers and passwords log nobody in; names are stored verbatim', async () => {
      for (const identifier of ["' OR '1'='1", "alice@example.com' --", "Alice' OR 1=1 --", '%', '_', 'alice@example.co_', '*']) {
        for (const password of ["' OR '1'='1", 'secret123']) {
          const res = await login(identifier, password);
          assert.deepEqual([res.statusCode, res.json()], [400, INVALID_LOGIN], identifier);
        }
      }
      const res = await login('x'.repeat(100_000), 'p'.repeat(10_000));
      assert.deepEqual([res.statusCode, res.json()], [400, INVALID_LOGIN]);
      const bobby = "Robert'); DROP TABLE up_users;--";
      const created = await register({ username: bobby, email: 'bobby@example.com', password: 'secret123' });
      assert.equal(created.statusCode, 200, created.body);
      assert.equal((await userRow(created.json().user.id))!.username, bobby);
      assert.equal((await login(bobby, 'secret123')).statusCode, 200);
      const found = await p.api.get(`/api/users?filters[username][$eq]=${encodeURIComponent(bobby)}`);
      assert.deepEqual(found.json().map((u: Json) => u.id), [created.json().user.id]);
      const empty = [
        `/api/users?filters[username][$eq]=${encodeURIComponent("' OR 1=1 --")}`,
        `/api/users?filters[email][$eq]=${encodeURIComponent("alice@example.com' OR '1'='1")}`,
        '/api/users?filters[email][$containsi]=%25',
        '/api/users?filters[username][$startsWith]=_',
      ];
      for (const url of empty) assert.deepEqual([(await p.api.get(url)).statusCode, (await p.api.get(url)).json()], [200, []], url);
      // Strapi's REST quirk (reference §3.2): limit -1 is one row.
      const minusOne = await p.api.get('/api/users?pagination[limit]=-1');
      assert.deepEqual(minusOne.json().map((u: Json) => u.id), [1]);
      const invalid: Array<[string, string, Json]> = [
        [`/api/users?sort=${encodeURIComponent('username;DROP TABLE x')}`, 'Invalid key username;DROP TABLE x', { key: 'username;DROP TABLE x', path: null, source: 'query', param: 'sort' }],
        [`/api/users?filters[id][$in][0]=${encodeURIComponent('1) OR (1=1')}`, 'Invalid value ["1) OR (1=1"] for id: expected an integer id', { key: 'id', path: 'id', source: 'query', param: 'filters' }],
        ['/api/users?filters[nope][$eq]=1', 'Invalid key nope', { key: 'nope', path: null, source: 'query', param: 'filters' }],
        ['/api/users?filters[username][$eq]=a%00b', 'filters value contains a NUL character', { source: 'query', param: 'filters' }],
      ];
      for (const [url, message, details] of invalid) {
        const r = await p.api.get(url);
        assert.deepEqual([r.statusCode, r.json()], [400, envelope(400, 'ValidationError', message, details)], url);
      }
      assert.equal(await countUsers(), Number((await p.api.get('/api/users/count')).body));
    });

    it('a body over 1 MB is 413; a form body is read like JSON (koa-body); other types are 415, a text body 400', async () => {
      const big = await register({ username: 'big', email: 'big@example.com', password: 'x'.repeat(1_100_000) });
      assert.equal(big.statusCode, 413);
      assert.equal(big.json().error.name, 'PayloadTooLargeError');
      const form = await anon.raw('POST', '/api/auth/local', { payload: 'identifier=formuser&password=wrong', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assert.deepEqual([form.statusCode, form.json()], [400, INVALID_LOGIN]);
      const nested = await anon.raw('POST', '/api/auth/local', { payload: 'identifier[$ne]=x&password=secret123', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assert.equal(nested.statusCode, 400);
      assert.equal(nested.json().error.name, 'ValidationError');
      const xml = await anon.raw('POST', '/api/auth/local', { payload: '<identifier/>', headers: { 'content-type': 'application/xml' } });
      assert.deepEqual([xml.statusCode, xml.json()], [415, envelope(415, 'UnsupportedMediaTypeError', 'Unsupported Media Type')]);
      const text = await anon.raw('POST', '/api/auth/local', { payload: 'alice:secret123', headers: { 'content-type': 'text/plain' } });
      assert.deepEqual([text.statusCode, text.json()], [400, envelope(400, 'ValidationError', 'The request body must be a JSON object')]);
    });
  });
});
