// GraphQL of the users-permissions plugin (reference §9.2, §9.6, §9.7): `me`, the auth mutations
// (login, register, password and e-mail flows), user reads and writes with their permissions,
// the generated names, and that the REST rules, messages and limits apply unchanged.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { buildProjectGraphql, DEFAULT_GRAPHQL_SETTINGS } from '@cms/graphql';
import { parseModel } from '@cms/schema';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { gql, gqlData as data } from '../helpers/graphql.ts';
import { setupContentProject, type ContentClient, type ContentProject } from '../helpers/content.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { blogRawModel } from '../fixtures/index.ts';

type Json = Record<string, any>;

const USERS = 'plugin::users-permissions';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNAUTHORIZED = { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } };

/** Column of `field`'s first use as a field (`name(` or `name {`) in a one-line operation. */
const columnOf = (query: string, field: string) => {
  const at = new RegExp(`\\b${field}\\s*[({]`).exec(query);
  assert.ok(at, `${field} in ${query}`);
  return at.index + 1;
};
/** A resolver error as Strapi's GraphQL answers it (reference §9.7). */
const resolverError = (query: string, field: string, code: string, name: string, message: string, details: Json = {}) => ({
  message, locations: [{ line: 1, column: columnOf(query, field) }], path: [field], extensions: { code, error: { name, message, details } },
});
const forbidden = (query: string, field: string) => resolverError(query, field, 'FORBIDDEN', 'ForbiddenError', 'Forbidden access');
const fieldErrors = (...errors: Array<[string, string]>) => ({ errors: errors.map(([path, message]) => ({ path: [path], message, name: 'ValidationError' })) });

/** An introspected type reference as SDL (`[T!]!`); query it with TYPE_REF. */
const sdl = (ty: Json): string =>
  ty.kind === 'NON_NULL' ? `${sdl(ty.ofType)}!` : ty.kind === 'LIST' ? `[${sdl(ty.ofType)}]` : ty.name;
const TYPE_REF = 'type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }';

const jwtPayload = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Json;

const REGISTER = 'mutation ($input: UsersPermissionsRegisterInput!) { register(input: $input) { jwt user { id documentId username email confirmed blocked } } }';
const LOGIN = 'mutation ($input: UsersPermissionsLoginInput!) { login(input: $input) { jwt user { id documentId username email confirmed blocked role { name type } } } }';
const ME = '{ me { id documentId username email confirmed blocked } }';
const CHANGE = 'mutation ($c: String!, $p: String!, $pc: String!) { changePassword(currentPassword: $c, password: $p, passwordConfirmation: $pc) { jwt user { id username } } }';
const RESET = 'mutation ($code: String!, $p: String!, $pc: String!) { resetPassword(code: $code, password: $p, passwordConfirmation: $pc) { jwt user { id username email } } }';
const FORGOT = 'mutation ($email: String!) { forgotPassword(email: $email) { ok } }';
const USER_FIELDS = 'documentId username email provider confirmed blocked createdAt updatedAt publishedAt';
const CREATE = `mutation ($data: UsersPermissionsUserInput!) { createUsersPermissionsUser(data: $data) { data { ${USER_FIELDS} role { name type } } } }`;
const UPDATE = 'mutation ($id: ID!, $data: UsersPermissionsUserInput!) { updateUsersPermissionsUser(id: $id, data: $data) { data { documentId username email blocked confirmed role { type } } } }';
const DELETE = 'mutation ($id: ID!) { deleteUsersPermissionsUser(id: $id) { data { documentId username role { name type } } } }';

describe('GraphQL users-permissions', () => {
  let t: TestApp;
  let p: ContentProject;
  let q: ContentProject;
  let smtp: TestSmtp;
  let anon: ContentClient;
  let seq = 0;
  const uniq = (name: string) => `${name}${++seq}`;

  const rows = async (text: string, values: unknown[] = []) => (await t.platform.db.pool.any(compiledQuery({ text, values }))) as Array<Json>;
  const userRow = async (id: number | string, project = p) => (await rows(`SELECT * FROM "${project.schema}".up_users WHERE id = $1`, [id]))[0] ?? null;
  const countUsers = async () => Number((await rows(`SELECT count(*)::int AS n FROM "${p.schema}".up_users`))[0]!.n);
  const roleRow = async (type: string, project = p) => (await rows('SELECT id::text AS id, name, description, type FROM platform.roles WHERE project_id = $1 AND type = $2', [project.id, type]))[0]!;
  const grant = async (role: string, permissions: Record<string, string[]>) => {
    const res = await p.admin.put(`/v1/projects/${p.slug}/roles/${role}/permissions`, { permissions });
    assert.equal(res.statusCode, 200, res.body);
  };
  const createRole = async (type: string) => {
    const res = await p.admin.post(`/v1/projects/${p.slug}/roles`, { type, name: type.toUpperCase(), description: `The ${type}s` });
    assert.equal(res.statusCode, 201, res.body);
  };
  const setSettings = async (body: Json) => {
    const res = await p.admin.put(`/v1/projects/${p.slug}/settings/users-permissions`, body);
    assert.equal(res.statusCode, 200, res.body);
  };
  /** Register through GraphQL: the payload, plus the credentials. */
  const newUser = async (name: string, password = 'secret123', project = p) => {
    const username = uniq(name);
    const email = `${username}@example.com`;
    const d = await data(project.client(null), REGISTER, { input: { username, email, password } });
    return { ...(d.register as { jwt: string; user: Json }), username, email, password };
  };

  before(async () => {
    smtp = await startSmtp();
    t = await startTestApp({ env: { SMTP_URL: smtp.url, EMAIL_FROM: 'auth@platform.test' } });
    p = await setupContentProject(t, blogRawModel());
    q = await setupContentProject(t, blogRawModel());
    anon = p.client(null);
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  describe('names', () => {
    const fieldsOf = async (name: string) =>
      ((await data(p.api, `{ __type(name: "${name}") { fields { name ${TYPE_REF} } } }`)).__type.fields as Json[]).map((f) => `${f.name}: ${sdl(f.type)}`);

    it('the types have Strapi v5\'s names, fields and nullability', async () => {
      assert.deepEqual(await fieldsOf('UsersPermissionsMe'), [
        'id: ID!', 'documentId: ID!', 'username: String!', 'email: String', 'confirmed: Boolean', 'blocked: Boolean', 'role: UsersPermissionsMeRole',
      ]);
      assert.deepEqual(await fieldsOf('UsersPermissionsMeRole'), ['id: ID!', 'name: String!', 'description: String', 'type: String']);
      assert.deepEqual(await fieldsOf('UsersPermissionsLoginPayload'), ['jwt: String', 'user: UsersPermissionsMe!']);
      assert.deepEqual(await fieldsOf('UsersPermissionsPasswordPayload'), ['ok: Boolean!']);
      assert.deepEqual(await fieldsOf('UsersPermissionsUser'), [
        'documentId: ID!', 'username: String!', 'email: String!', 'provider: String', 'confirmed: Boolean', 'blocked: Boolean',
        'role: UsersPermissionsRole', 'createdAt: DateTime', 'updatedAt: DateTime', 'publishedAt: DateTime',
      ]);
      assert.deepEqual(await fieldsOf('UsersPermissionsUserEntityResponse'), ['data: UsersPermissionsUser']);
      assert.deepEqual(await fieldsOf('UsersPermissionsUserEntityResponseCollection'), ['nodes: [UsersPermissionsUser!]!', 'pageInfo: Pagination!']);
      const inputs = await data(p.api, `{
        login: __type(name: "UsersPermissionsLoginInput") { inputFields { name defaultValue type { kind name ofType { name } } } }
        register: __type(name: "UsersPermissionsRegisterInput") { inputFields { name type { kind ofType { name } } } }
        user: __type(name: "UsersPermissionsUserInput") { inputFields { name type { name } } }
        filters: __type(name: "UsersPermissionsUserFiltersInput") { inputFields { name } }
      }`);
      assert.deepEqual(inputs.login.inputFields.map((f: Json) => [f.name, f.type.ofType.name, f.defaultValue]), [
        ['identifier', 'String', null], ['password', 'String', null], ['provider', 'String', '"local"'],
      ]);
      assert.deepEqual(inputs.register.inputFields.map((f: Json) => `${f.name}: ${f.type.ofType.name}!`), ['username: String!', 'email: String!', 'password: String!']);
      assert.deepEqual(inputs.user.inputFields.map((f: Json) => `${f.name}: ${f.type.name}`), [
        'username: String', 'email: String', 'provider: String', 'confirmed: Boolean', 'blocked: Boolean', 'role: ID', 'publishedAt: DateTime', 'password: String',
      ]);
      assert.deepEqual(inputs.filters.inputFields.map((f: Json) => f.name), [
        'documentId', 'username', 'email', 'provider', 'confirmed', 'blocked', 'createdAt', 'updatedAt', 'publishedAt', 'and', 'or', 'not',
      ]);
    });

    it('the root fields and their arguments', async () => {
      const root = await data(p.api, `{
        query: __type(name: "Query") { fields { name args { name ${TYPE_REF} } ${TYPE_REF} } }
        mutation: __type(name: "Mutation") { fields { name args { name ${TYPE_REF} } ${TYPE_REF} } }
      }`);
      const show = (f: Json) => `${f.name}(${f.args.map((a: Json) => `${a.name}: ${sdl(a.type)}`).join(', ')}): ${sdl(f.type)}`;
      const queries = (root.query.fields as Json[]).filter((f) => f.name === 'me' || f.name.startsWith('usersPermissions')).map(show);
      assert.deepEqual(queries, [
        'me(): UsersPermissionsMe',
        'usersPermissionsUser(documentId: ID!): UsersPermissionsUser',
        'usersPermissionsUsers(filters: UsersPermissionsUserFiltersInput, pagination: PaginationArg, sort: [String]): [UsersPermissionsUser]!',
        'usersPermissionsUsers_connection(filters: UsersPermissionsUserFiltersInput, pagination: PaginationArg, sort: [String]): UsersPermissionsUserEntityResponseCollection',
        'usersPermissionsRole(documentId: ID!): UsersPermissionsRole',
        'usersPermissionsRoles(filters: UsersPermissionsRoleFiltersInput, pagination: PaginationArg, sort: [String]): [UsersPermissionsRole]!',
        'usersPermissionsRoles_connection(filters: UsersPermissionsRoleFiltersInput, pagination: PaginationArg, sort: [String]): UsersPermissionsRoleEntityResponseCollection',
      ]);
      const names = [
        'login', 'register', 'forgotPassword', 'resetPassword', 'changePassword', 'emailConfirmation', 'createUsersPermissionsUser', 'updateUsersPermissionsUser', 'deleteUsersPermissionsUser',
        'createUsersPermissionsRole', 'updateUsersPermissionsRole', 'deleteUsersPermissionsRole',
      ];
      const mutations = (root.mutation.fields as Json[]).filter((f) => names.includes(f.name)).map(show);
      assert.deepEqual(mutations, [
        'login(input: UsersPermissionsLoginInput!): UsersPermissionsLoginPayload!',
        'register(input: UsersPermissionsRegisterInput!): UsersPermissionsLoginPayload!',
        'forgotPassword(email: String!): UsersPermissionsPasswordPayload',
        'resetPassword(password: String!, passwordConfirmation: String!, code: String!): UsersPermissionsLoginPayload',
        'changePassword(currentPassword: String!, password: String!, passwordConfirmation: String!): UsersPermissionsLoginPayload',
        'emailConfirmation(confirmation: String!): UsersPermissionsLoginPayload',
        'createUsersPermissionsUser(data: UsersPermissionsUserInput!): UsersPermissionsUserEntityResponse!',
        'updateUsersPermissionsUser(id: ID!, data: UsersPermissionsUserInput!): UsersPermissionsUserEntityResponse!',
        'deleteUsersPermissionsUser(id: ID!): UsersPermissionsUserEntityResponse!',
        'createUsersPermissionsRole(data: UsersPermissionsRoleInput!): UsersPermissionsCreateRolePayload',
        'updateUsersPermissionsRole(id: ID!, data: UsersPermissionsRoleInput!): UsersPermissionsUpdateRolePayload',
        'deleteUsersPermissionsRole(id: ID!): UsersPermissionsDeleteRolePayload',
      ]);
    });

    it('a model generating one of the plugin\'s names is refused at push; the model is unchanged', async () => {
      const base = `/v1/projects/${p.slug}`;
      const reserved = (what: string) => `The model cannot be served over GraphQL: ${what} is reserved for the users-permissions plugin`;
      const cases: Array<[string, Json, string[]]> = [
        ['api::me.me', { singularName: 'me', pluralName: 'mes', displayName: 'Me' }, ['the query me']],
        ['api::users-permissions-me-role.users-permissions-me-role',
          { singularName: 'users-permissions-me-role', pluralName: 'users-permissions-me-roles', displayName: 'UPMR' }, ['the type name UsersPermissionsMeRole']],
        // Every name the type would take from the plugin is listed.
        ['api::users-permissions-user.users-permissions-user',
          { singularName: 'users-permissions-user', pluralName: 'users-permissions-users', displayName: 'UPU' }, [
            'the type name UsersPermissionsUser', 'the type name UsersPermissionsUserFiltersInput', 'the type name UsersPermissionsUserEntityResponseCollection',
            'the type name UsersPermissionsUserInput', 'the query usersPermissionsUser', 'the query usersPermissionsUsers', 'the query usersPermissionsUsers_connection',
            'the mutation createUsersPermissionsUser', 'the mutation updateUsersPermissionsUser', 'the mutation deleteUsersPermissionsUser',
          ]],
      ];
      for (const [uid, info, taken] of cases) {
        const model = blogRawModel();
        model.contentTypes[uid] = { kind: 'collectionType', info, attributes: { label: { type: 'string' } } };
        const res = await p.admin.put(`${base}/schema`, model);
        const messages = taken.map(reserved);
        assert.deepEqual([res.statusCode, res.json()], [400, {
          data: null,
          error: {
            status: 400, name: 'ValidationError', message: messages.length === 1 ? messages[0] : `${messages.length} errors occurred`,
            details: { errors: messages.map((message) => ({ path: [], message, name: 'ValidationError' })) },
          },
        }], uid);
        assert.equal((await p.admin.get(`${base}/schema`)).json().contentTypes[uid], undefined);
      }
      // The users' schema still answers.
      assert.equal((await gql(anon, ME)).status, 200);
    });

    it('a model stored before the names were reserved keeps its content schema, without the plugin', async () => {
      const model = blogRawModel();
      model.contentTypes['api::me.me'] = { kind: 'collectionType', info: { singularName: 'me', pluralName: 'mes', displayName: 'Me' }, attributes: { label: { type: 'string' } } };
      const server = await buildProjectGraphql(parseModel(model as never), DEFAULT_GRAPHQL_SETTINGS);
      try {
        const queries = server.schema.getQueryType()!.getFields();
        assert.equal(String(queries.me!.type), 'Me');
        assert.ok(queries.posts && !queries.usersPermissionsUsers);
        assert.equal(server.schema.getMutationType()!.getFields().login, undefined);
      } finally {
        await server.close();
      }
    });
  });

  describe('register, login and me', () => {
    it('register answers {jwt, user}; the JWT works on REST /api/users/me and GraphQL me', async () => {
      const before = await countUsers();
      const d = await data(anon, REGISTER, { input: { username: 'Gina', email: 'Gina@Example.COM', password: 'secret123' } });
      assert.deepEqual(Object.keys(d.register), ['jwt', 'user']);
      const { jwt, user } = d.register;
      const row = await userRow(user.id);
      assert.ok(row);
      assert.deepEqual(user, { id: String(row.id), documentId: row.document_id, username: 'Gina', email: 'gina@example.com', confirmed: true, blocked: false });
      assert.match(row.password, /^\$argon2id\$/);
      assert.equal(row.role, 'authenticated');
      assert.equal(await countUsers(), before + 1);
      assert.equal(jwtPayload(jwt).id, Number(user.id));

      const rest = await p.client(jwt).get('/api/users/me');
      assert.equal(rest.statusCode, 200, rest.body);
      const restUser = rest.json() as Json;
      assert.deepEqual(restUser, {
        id: Number(user.id), documentId: user.documentId, username: 'Gina', email: 'gina@example.com', provider: 'local', confirmed: true, blocked: false,
        createdAt: restUser.createdAt, updatedAt: restUser.updatedAt, publishedAt: restUser.publishedAt,
      });
      assert.deepEqual(await data(p.client(jwt), ME), { me: user });
    });

    it('login by e-mail (any case) or username → a JWT of that user and the user read fresh, role included', async () => {
      const u = await newUser('Login');
      const authenticated = await roleRow('authenticated');
      for (const identifier of [u.email, u.email.toUpperCase(), u.username]) {
        const d = await data(anon, LOGIN, { input: { identifier, password: u.password } });
        assert.deepEqual(d.login.user, { ...u.user, role: { name: authenticated.name, type: 'authenticated' } }, identifier);
        assert.equal(jwtPayload(d.login.jwt).id, Number(u.user.id));
        assert.equal((await p.client(d.login.jwt).get('/api/users/me')).statusCode, 200);
        assert.deepEqual(await data(p.client(d.login.jwt), ME), { me: u.user });
      }
      // The selection decides: only the jwt, or only `__typename` of the user.
      const jwtOnly = await data(anon, 'mutation { login(input: { identifier: "' + u.username + '", password: "secret123" }) { jwt } }');
      assert.deepEqual(Object.keys(jwtOnly.login), ['jwt']);
      const typename = await data(anon, 'mutation { login(input: { identifier: "' + u.username + '", password: "secret123" }) { user { __typename } } }');
      assert.deepEqual(typename, { login: { user: { __typename: 'UsersPermissionsMe' } } });
    });

    it('a wrong password or unknown identifier → BAD_USER_INPUT "Invalid identifier or password", data null', async () => {
      const u = await newUser('wrongpw');
      const query = 'mutation ($input: UsersPermissionsLoginInput!) { login(input: $input) { jwt } }';
      for (const input of [{ identifier: u.email, password: 'not-the-password' }, { identifier: 'nobody@example.com', password: u.password }]) {
        const { status, body } = await gql(anon, query, { input });
        assert.equal(status, 200);
        assert.deepEqual(body, {
          errors: [resolverError(query, 'login', 'BAD_USER_INPUT', 'ValidationError', 'Invalid identifier or password')],
          data: null,
        });
      }
      // A provider other than local is not enabled (Strapi's message).
      const { body } = await gql(anon, query, { input: { identifier: u.email, password: u.password, provider: 'github' } });
      assert.deepEqual(body, { errors: [resolverError(query, 'login', 'STRAPI_APPLICATION_ERROR', 'ApplicationError', 'This provider is disabled')], data: null });
      // A blocked user: REST's message.
      assert.equal((await p.api.put(`/api/users/${u.user.id}`, { blocked: true })).statusCode, 200);
      const blocked = await gql(anon, query, { input: { identifier: u.email, password: u.password } });
      assert.deepEqual(blocked.body.errors[0].extensions, {
        code: 'STRAPI_APPLICATION_ERROR', error: { name: 'ApplicationError', message: 'Your account has been blocked by an administrator', details: {} },
      });
    });

    it('me: anonymous callers and API tokens of any type → FORBIDDEN with data.me null', async () => {
      const tokens = [await p.token('full-access'), await p.token('read-only'), await p.token('custom', { [USERS]: ['me', 'find', 'findOne'] })];
      for (const key of [null, ...tokens]) {
        const { status, body } = await gql(p.client(key), ME);
        assert.equal(status, 200);
        assert.deepEqual(body, { errors: [forbidden(ME, 'me')], data: { me: null } }, String(key).slice(0, 8));
      }
      // Other root fields of the same operation still answer.
      const mixed = await gql(anon, '{ me { id } __typename }');
      assert.deepEqual(mixed.body.data, { me: null, __typename: 'Query' });
    });

    it('me with the role selected answers the user\'s role; aliases and fragments work', async () => {
      const u = await newUser('merole');
      const role = await roleRow('authenticated');
      const query = '{ me { username role { id name description type } r2: role { type } ...F } } fragment F on UsersPermissionsMe { email }';
      assert.deepEqual(await data(p.client(u.jwt), query), {
        me: { username: u.username, role: { id: role.id, name: role.name, description: role.description, type: 'authenticated' }, r2: { type: 'authenticated' }, email: u.email },
      });
    });

    it('register refuses what REST refuses: short password, bad fields, taken identity, unknown keys; nothing is written', async () => {
      const before = await countUsers();
      const ok = { username: 'valid-name', email: 'valid@example.com', password: 'secret123' };
      const query = 'mutation ($input: UsersPermissionsRegisterInput!) { register(input: $input) { jwt } }';
      const refused = async (input: Json, code: string, name: string, message: string, details: Json = {}) => {
        const { status, body } = await gql(anon, query, { input });
        assert.equal(status, 200);
        assert.deepEqual(body, { errors: [resolverError(query, 'register', code, name, message, details)], data: null }, JSON.stringify(input));
      };
      await refused({ ...ok, password: 'abc12' }, 'BAD_USER_INPUT', 'ValidationError', 'password must be at least 6 characters',
        fieldErrors(['password', 'password must be at least 6 characters']));
      await refused({ ...ok, email: '' }, 'BAD_USER_INPUT', 'ValidationError', 'email is a required field', fieldErrors(['email', 'email is a required field']));
      await refused({ username: 'ab', email: 'bad', password: '123' }, 'BAD_USER_INPUT', 'ValidationError', '3 errors occurred', fieldErrors(
        ['username', 'username must be between 3 and 255 characters without control characters'],
        ['email', 'email must be a valid email'], ['password', 'password must be at least 6 characters']));
      const taken = await newUser('taken');
      await refused({ ...ok, email: taken.email.toUpperCase() }, 'STRAPI_APPLICATION_ERROR', 'ApplicationError', 'Email or Username are already taken');
      // Keys the input type does not have never reach the resolver: 400 before execution.
      const extraVar = await gql(anon, query, { input: { ...ok, role: 'admin' } });
      assert.equal(extraVar.status, 400);
      assert.deepEqual(extraVar.body.errors.map((e: Json) => e.extensions.code), ['BAD_USER_INPUT']);
      assert.match(extraVar.body.errors[0].message, /Field "role" is not defined by type "UsersPermissionsRegisterInput"/);
      const extraLiteral = await gql(anon, 'mutation { register(input: { username: "x1234", email: "x1234@example.com", password: "secret123", confirmed: true }) { jwt } }');
      assert.equal(extraLiteral.status, 400);
      assert.deepEqual(extraLiteral.body.errors.map((e: Json) => e.extensions.code), ['GRAPHQL_VALIDATION_FAILED']);
      const missing = await gql(anon, query, { input: { username: 'x1234', email: 'x1234@example.com' } });
      assert.equal(missing.status, 400);
      assert.equal(missing.body.errors[0].extensions.code, 'BAD_USER_INPUT');
      assert.equal(await countUsers(), before + 1);
    });

    it('with registration disabled, register is an application error (REST\'s message)', async () => {
      await setSettings({ allowRegister: false });
      try {
        const { body } = await gql(anon, REGISTER, { input: { username: uniq('closed'), email: `${uniq('closed')}@example.com`, password: 'secret123' } });
        assert.deepEqual(body, { errors: [resolverError(REGISTER, 'register', 'STRAPI_APPLICATION_ERROR', 'ApplicationError', 'Register action is currently disabled')], data: null });
      } finally {
        await setSettings({ allowRegister: true });
      }
    });

    it('a JWT of another project, or a garbage one, is refused before GraphQL with the REST 401 envelope', async () => {
      const theirs = await newUser('foreign', 'secret123', q);
      assert.deepEqual(await data(q.client(theirs.jwt), '{ me { username } }'), { me: { username: theirs.username } });
      for (const key of [theirs.jwt, 'a.b.c']) {
        const res = await p.client(key).post('/graphql', { query: ME });
        assert.deepEqual([res.statusCode, res.json()], [401, UNAUTHORIZED]);
      }
    });
  });

  describe('password flows', () => {
    it('changePassword: the caller\'s password changes, answers {jwt, user}; REST\'s refusals; anonymous and API tokens → FORBIDDEN', async () => {
      const u = await newUser('changer', 'oldsecret');
      const client = p.client(u.jwt);
      const refused = async (vars: Json, message: string) => {
        const { body } = await gql(client, CHANGE, vars);
        assert.deepEqual(body, { errors: [resolverError(CHANGE, 'changePassword', 'BAD_USER_INPUT', 'ValidationError', message)], data: { changePassword: null } }, message);
      };
      await refused({ c: 'oldsecret', p: 'newsecret', pc: 'other123' }, 'Passwords do not match');
      await refused({ c: 'wrongsecret', p: 'newsecret', pc: 'newsecret' }, 'The provided current password is invalid');
      await refused({ c: 'oldsecret', p: 'oldsecret', pc: 'oldsecret' }, 'Your new password must be different than your current password');
      for (const key of [null, await p.token('full-access')]) {
        const { body } = await gql(p.client(key), CHANGE, { c: 'oldsecret', p: 'newsecret', pc: 'newsecret' });
        assert.deepEqual(body, { errors: [forbidden(CHANGE, 'changePassword')], data: { changePassword: null } });
      }
      const hash = (await userRow(u.user.id)).password;
      const d = await data(client, CHANGE, { c: 'oldsecret', p: 'newsecret', pc: 'newsecret' });
      assert.deepEqual(d.changePassword.user, { id: u.user.id, username: u.username });
      assert.equal(jwtPayload(d.changePassword.jwt).id, Number(u.user.id));
      assert.notEqual((await userRow(u.user.id)).password, hash);
      assert.equal((await p.client(null).post('/api/auth/local', { identifier: u.username, password: 'newsecret' })).statusCode, 200);
      assert.equal((await p.client(null).post('/api/auth/local', { identifier: u.username, password: 'oldsecret' })).statusCode, 400);
    });

    it('forgotPassword → {ok: true} (also for unknown addresses); the mailed code resets the password once with resetPassword', async () => {
      const u = await newUser('forgetful', 'oldsecret');
      assert.deepEqual(await data(anon, FORGOT, { email: u.email.toUpperCase() }), { forgotPassword: { ok: true } });
      const mail = await smtp.next(u.email);
      const code = /Your reset code: ([0-9a-f]{64})/.exec(mail.text)?.[1];
      assert.ok(code, mail.text);
      const sent = smtp.mails.length;
      assert.deepEqual(await data(anon, FORGOT, { email: 'nobody@example.com' }), { forgotPassword: { ok: true } });
      const bad = await gql(anon, FORGOT, { email: 'not an email' });
      assert.deepEqual(bad.body, {
        errors: [resolverError(FORGOT, 'forgotPassword', 'BAD_USER_INPUT', 'ValidationError', 'email must be a valid email', fieldErrors(['email', 'email must be a valid email']))],
        data: { forgotPassword: null },
      });

      const mismatch = await gql(anon, RESET, { code, p: 'newsecret', pc: 'other123' });
      assert.deepEqual(mismatch.body, { errors: [resolverError(RESET, 'resetPassword', 'BAD_USER_INPUT', 'ValidationError', 'Passwords do not match')], data: { resetPassword: null } });
      const reset = await data(anon, RESET, { code, p: 'newsecret', pc: 'newsecret' });
      assert.deepEqual(reset.resetPassword.user, { id: u.user.id, username: u.username, email: u.email });
      assert.deepEqual(await data(p.client(reset.resetPassword.jwt), '{ me { id } }'), { me: { id: u.user.id } });
      assert.equal((await p.client(null).post('/api/auth/local', { identifier: u.username, password: 'newsecret' })).statusCode, 200);
      const again = await gql(anon, RESET, { code, p: 'third123', pc: 'third123' });
      assert.deepEqual(again.body, { errors: [resolverError(RESET, 'resetPassword', 'BAD_USER_INPUT', 'ValidationError', 'Incorrect code provided')], data: { resetPassword: null } });
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(smtp.mails.length, sent);
    });

    it('emailConfirmation: register answers no JWT while confirmation is required; the mailed token confirms and logs in', async () => {
      await setSettings({ emailConfirmation: true });
      try {
        const username = uniq('confirm');
        const email = `${username}@example.com`;
        const d = await data(anon, REGISTER, { input: { username, email, password: 'secret123' } });
        assert.equal(d.register.jwt, null);
        assert.equal(d.register.user.confirmed, false);
        const token = /confirmation=([0-9a-f]{64})/.exec((await smtp.next(email)).text)?.[1];
        assert.ok(token);
        const query = 'mutation ($c: String!) { emailConfirmation(confirmation: $c) { jwt user { id username confirmed role { type } } } }';
        const confirmed = await data(anon, query, { c: token });
        assert.deepEqual(confirmed.emailConfirmation.user, { id: d.register.user.id, username, confirmed: true, role: { type: 'authenticated' } });
        assert.equal(jwtPayload(confirmed.emailConfirmation.jwt).id, Number(d.register.user.id));
        assert.deepEqual(await data(p.client(confirmed.emailConfirmation.jwt), '{ me { confirmed } }'), { me: { confirmed: true } });
        assert.equal((await userRow(d.register.user.id)).confirmation_token, null);
        const used = await gql(anon, query, { c: token });
        assert.deepEqual(used.body, { errors: [resolverError(query, 'emailConfirmation', 'BAD_USER_INPUT', 'ValidationError', 'Invalid token')], data: { emailConfirmation: null } });
      } finally {
        await setSettings({ emailConfirmation: false });
      }
    });
  });

  describe('user reads', () => {
    const LIST = `query ($f: UsersPermissionsUserFiltersInput) { usersPermissionsUsers(filters: $f, sort: "id") { ${USER_FIELDS} role { name type } } }`;
    const ONE = `query ($d: ID!) { usersPermissionsUser(documentId: $d) { ${USER_FIELDS} } }`;

    it('need find / findOne on users like REST /api/users; a role grant opens them', async () => {
      const u = await newUser('reader');
      const client = p.client(u.jwt);
      for (const c of [anon, client]) {
        assert.deepEqual((await gql(c, LIST)).body, { errors: [forbidden(LIST, 'usersPermissionsUsers')], data: null });
        assert.deepEqual((await gql(c, ONE, { d: u.user.documentId })).body, { errors: [forbidden(ONE, 'usersPermissionsUser')], data: { usersPermissionsUser: null } });
      }
      await grant('authenticated', { [USERS]: ['find'] });
      try {
        const d = await data(client, LIST, { f: { username: { eq: u.username } } });
        const rest = (await p.api.get(`/api/users?filters[username][$eq]=${u.username}`)).json() as Json[];
        assert.equal(rest.length, 1);
        const { id: _id, ...restUser } = rest[0]!;
        assert.deepEqual(d.usersPermissionsUsers, [{ ...restUser, role: { name: (await roleRow('authenticated')).name, type: 'authenticated' } }]);
        const listed = (d.usersPermissionsUsers as Json[])[0]!;
        for (const k of ['createdAt', 'updatedAt', 'publishedAt']) assert.match(listed[k], ISO);
        // find alone does not open findOne.
        assert.equal((await gql(client, ONE, { d: u.user.documentId })).body.errors[0].extensions.code, 'FORBIDDEN');
        await grant('authenticated', { [USERS]: ['find', 'findOne'] });
        assert.deepEqual(await data(client, ONE, { d: u.user.documentId }), { usersPermissionsUser: restUser });
        assert.deepEqual(await data(client, ONE, { d: 'nosuchdocumentid' }), { usersPermissionsUser: null });
      } finally {
        await grant('authenticated', {});
      }
      assert.equal((await gql(client, LIST)).body.errors[0].extensions.code, 'FORBIDDEN');
      // Read-only API tokens read users (reference §7.1).
      const readOnly = p.client(await p.token('read-only'));
      assert.ok((await data(readOnly, LIST)).usersPermissionsUsers.length > 0);
    });

    it('filters, sort, pagination and the connection read through the planner; every user gets its own role', async () => {
      await createRole('auditor');
      const users = [await newUser('pagee'), await newUser('pagee'), await newUser('pagee')];
      await p.api.put(`/api/users/${users[1]!.user.id}`, { role: 'auditor' });
      const dbUsers = await rows(`SELECT id::text AS id, username, role FROM "${p.schema}".up_users WHERE username LIKE 'pagee%' ORDER BY username DESC`);
      const query = `{ usersPermissionsUsers_connection(filters: { username: { startsWith: "pagee" } }, sort: "username:desc", pagination: { pageSize: 2 }) {
        nodes { username role { type } } pageInfo { total page pageSize pageCount } } }`;
      const d = await data(p.api, query);
      assert.deepEqual(d.usersPermissionsUsers_connection, {
        nodes: dbUsers.slice(0, 2).map((u) => ({ username: u.username, role: { type: u.role } })),
        pageInfo: { total: 3, page: 1, pageSize: 2, pageCount: 2 },
      });
      // The second run of a document is JIT-compiled: same answer.
      assert.deepEqual(await data(p.api, query), d);
      assert.deepEqual(dbUsers.map((u) => u.role).sort(), ['auditor', 'authenticated', 'authenticated']);
      const second = await data(p.api, '{ usersPermissionsUsers(filters: { username: { startsWith: "pagee" } }, sort: "username:desc", pagination: { page: 2, pageSize: 2 }) { username } }');
      assert.deepEqual(second.usersPermissionsUsers, [{ username: dbUsers[2]!.username }]);
      const or = await data(p.api, `{ usersPermissionsUsers(filters: { or: [{ email: { eq: "${users[0]!.email}" } }, { documentId: { eq: "${users[2]!.user.documentId}" } }] }, sort: "id") { username confirmed blocked provider } }`);
      assert.deepEqual(or.usersPermissionsUsers, [users[0]!, users[2]!].map((u) => ({ username: u.username, confirmed: true, blocked: false, provider: 'local' })));
      // Without sort, users come in id order, 10 by default.
      const all = (await data(p.api, '{ usersPermissionsUsers { documentId } }')).usersPermissionsUsers as Json[];
      const ids = await rows(`SELECT document_id FROM "${p.schema}".up_users ORDER BY id LIMIT 10`);
      assert.deepEqual(all, ids.map((r) => ({ documentId: r.document_id })));
      const mixed = await gql(p.api, '{ usersPermissionsUsers(pagination: { page: 1, limit: 2 }) { username } }');
      assert.equal(mixed.body.errors[0].extensions.code, 'STRAPI_PAGINATION_ERROR');
    });

    it('password and tokens are never selectable nor filterable: 400 validation errors', async () => {
      const cases: Array<[string, string]> = [
        ['{ usersPermissionsUsers { username password } }', 'Cannot query field "password" on type "UsersPermissionsUser".'],
        ['{ me { resetPasswordToken } }', 'Cannot query field "resetPasswordToken" on type "UsersPermissionsMe".'],
        ['mutation { login(input: { identifier: "a", password: "b" }) { user { password } } }', 'Cannot query field "password" on type "UsersPermissionsMe".'],
        ['{ usersPermissionsUsers(filters: { password: { eq: "x" } }) { username } }', 'Field "password" is not defined by type "UsersPermissionsUserFiltersInput".'],
        ['{ usersPermissionsUsers(sort: "password") { username } }', ''],
      ];
      for (const [query, message] of cases) {
        const { status, body } = await gql(p.api, query);
        if (message === '') {
          // Sorting by a hidden column is the planner's "Invalid key" (a resolver error, as REST's 400).
          assert.equal(status, 200);
          assert.equal(body.errors[0].extensions.code, 'BAD_USER_INPUT');
          assert.equal(body.errors[0].message, 'Invalid key password');
          continue;
        }
        assert.equal(status, 400, query);
        assert.deepEqual(body.errors.map((e: Json) => [e.message, e.extensions.code]), [[message, 'GRAPHQL_VALIDATION_FAILED']], query);
      }
    });

    it('the cost limit counts user lists like any list', async () => {
      const { status, body } = await gql(p.api, '{ usersPermissionsUsers(pagination: { limit: 60000 }) { username role { name } } }');
      assert.equal(status, 400);
      assert.equal(body.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
      assert.match(body.errors[0].message, /estimated cost \d+ exceeds the limit of 50000/);
    });
  });

  describe('user writes', () => {
    it('create, update and delete with a full-access token: REST\'s rules, the answer read fresh with its role', async () => {
      await createRole('staff');
      const staff = await roleRow('staff');
      const username = uniq('Created');
      const d = await data(p.api, CREATE, { data: { username, email: `${username}@Example.com`, password: 'secret123', role: 'staff', confirmed: true, publishedAt: '2020-01-01T00:00:00.000Z' } });
      const created = d.createUsersPermissionsUser.data;
      const row = (await rows(`SELECT * FROM "${p.schema}".up_users WHERE document_id = $1`, [created.documentId]))[0]!;
      assert.deepEqual(created, {
        documentId: row.document_id, username, email: `${username.toLowerCase()}@example.com`, provider: 'local', confirmed: true, blocked: false,
        createdAt: created.createdAt, updatedAt: created.updatedAt, publishedAt: created.publishedAt, role: { name: staff.name, type: 'staff' },
      });
      assert.notEqual(created.publishedAt, '2020-01-01T00:00:00.000Z');
      assert.deepEqual([row.role, row.confirmed], ['staff', true]);
      assert.match(row.password, /^\$argon2id\$/);
      assert.equal((await p.client(null).post('/api/auth/local', { identifier: username, password: 'secret123' })).statusCode, 200);

      // A role by id (ID arrives as a string), and a field update.
      const authenticated = await roleRow('authenticated');
      const updated = await data(p.api, UPDATE, { id: String(row.id), data: { role: authenticated.id, blocked: true, username: `${username}x` } });
      assert.deepEqual(updated.updateUsersPermissionsUser.data, {
        documentId: row.document_id, username: `${username}x`, email: created.email, blocked: true, confirmed: true, role: { type: 'authenticated' },
      });
      assert.deepEqual([(await userRow(row.id)).role, (await userRow(row.id)).blocked], ['authenticated', true]);

      // REST's refusals, as GraphQL errors.
      const badEmail = await gql(p.api, UPDATE, { id: String(row.id), data: { email: 'nope' } });
      assert.deepEqual(badEmail.body, {
        errors: [resolverError(UPDATE, 'updateUsersPermissionsUser', 'BAD_USER_INPUT', 'ValidationError', 'email must be a valid email', fieldErrors(['email', 'email must be a valid email']))],
        data: null,
      });
      const publicRole = await gql(p.api, UPDATE, { id: String(row.id), data: { role: 'public' } });
      assert.equal(publicRole.body.errors[0].message, 'role must be the type or id of a role other than public');
      const taken = await gql(p.api, CREATE, { data: { username: `${username}x`, email: 'other@example.com', password: 'secret123' } });
      assert.deepEqual(taken.body.errors[0].extensions, { code: 'STRAPI_APPLICATION_ERROR', error: { name: 'ApplicationError', message: 'Email or Username are already taken', details: {} } });
      const missing = await gql(p.api, CREATE, { data: { username: uniq('nopw') } });
      assert.deepEqual(missing.body.errors[0].extensions.error.details, fieldErrors(['email', 'email is a required field'], ['password', 'password is a required field']));
      for (const id of ['999999', 'abc', '-1']) {
        const unknown = await gql(p.api, UPDATE, { id, data: { blocked: false } });
        assert.deepEqual(unknown.body, { errors: [resolverError(UPDATE, 'updateUsersPermissionsUser', 'STRAPI_NOT_FOUND_ERROR', 'NotFoundError', 'User not found')], data: null }, id);
      }

      // Delete answers the user as it was, role included; then it is gone.
      const deleted = await data(p.api, DELETE, { id: String(row.id) });
      assert.deepEqual(deleted.deleteUsersPermissionsUser.data, { documentId: row.document_id, username: `${username}x`, role: { name: authenticated.name, type: 'authenticated' } });
      assert.equal(await userRow(row.id), null);
      const again = await gql(p.api, DELETE, { id: String(row.id) });
      assert.deepEqual(again.body, { errors: [resolverError(DELETE, 'deleteUsersPermissionsUser', 'STRAPI_NOT_FOUND_ERROR', 'NotFoundError', 'User not found')], data: null });
    });

    it('need create / update / destroy on users: read-only tokens, anonymous callers and ungranted roles are refused', async () => {
      const victim = await newUser('victim');
      const before = await countUsers();
      const u = await newUser('writer');
      const writer = p.client(u.jwt);
      const attempts: Array<[string, string, Json]> = [
        [CREATE, 'createUsersPermissionsUser', { data: { username: uniq('x'), email: `${uniq('x')}@example.com`, password: 'secret123' } }],
        [UPDATE, 'updateUsersPermissionsUser', { id: victim.user.id, data: { blocked: true } }],
        [DELETE, 'deleteUsersPermissionsUser', { id: victim.user.id }],
      ];
      for (const client of [anon, p.client(await p.token('read-only')), writer]) {
        for (const [query, field, vars] of attempts) {
          assert.deepEqual((await gql(client, query, vars)).body, { errors: [forbidden(query, field)], data: null }, field);
        }
      }
      assert.equal(await countUsers(), before + 1);
      assert.equal((await userRow(victim.user.id)).blocked, false);
      // A role granted create only may create, not update or delete.
      await grant('authenticated', { [USERS]: ['create'] });
      try {
        const made = await data(writer, CREATE, attempts[0]![2]);
        assert.equal(made.createUsersPermissionsUser.data.username, attempts[0]![2].data.username);
        assert.equal((await gql(writer, UPDATE, attempts[1]![2])).body.errors[0].extensions.code, 'FORBIDDEN');
        assert.equal((await gql(writer, DELETE, attempts[2]![2])).body.errors[0].extensions.code, 'FORBIDDEN');
        await grant('authenticated', { [USERS]: ['update', 'destroy'] });
        assert.equal((await data(writer, UPDATE, attempts[1]![2])).updateUsersPermissionsUser.data.blocked, true);
        assert.equal((await data(writer, DELETE, attempts[2]![2])).deleteUsersPermissionsUser.data.username, victim.username);
      } finally {
        await grant('authenticated', {});
      }
      assert.equal(await userRow(victim.user.id), null);
    });

    it('another project cannot touch this project\'s users by id', async () => {
      const mine = await newUser('mine');
      const theirs = await newUser('theirs', 'secret123', q);
      // Same numbers name different users per project; an id unknown there is not found.
      const far = String(Number(mine.user.id) + 1000);
      const res = await gql(q.api, UPDATE, { id: far, data: { blocked: true } });
      assert.equal(res.body.errors[0].extensions.code, 'STRAPI_NOT_FOUND_ERROR');
      assert.equal((await userRow(mine.user.id)).blocked, false);
      const list = (await data(q.api, '{ usersPermissionsUsers(pagination: { limit: -1 }) { username } }')).usersPermissionsUsers as Json[];
      assert.ok(list.some((u) => u.username === theirs.username));
      assert.ok(!list.some((u) => u.username === mine.username));
    });
  });

  describe('brute-force limits', () => {
    it('auth mutations share the REST routes\' attempt counters; aliases do not multiply attempts', async () => {
      const u = await newUser('target');
      const ip = '10.20.30.40';
      const post = (url: string, payload: Json) => t.inject({ method: 'POST', url: `/p/${p.slug}${url}`, payload, remoteAddress: ip });
      const query = 'mutation ($input: UsersPermissionsLoginInput!) { login(input: $input) { jwt } }';
      for (let i = 0; i < 5; i++) {
        const res = await post('/graphql', { query, variables: { input: { identifier: u.email, password: `guess ${i}` } } });
        assert.equal(res.json().errors[0].extensions.code, 'BAD_USER_INPUT');
        assert.equal((await post('/api/auth/local', { identifier: u.email, password: `guess ${i}` })).statusCode, 400);
      }
      const limited = await post('/graphql', { query, variables: { input: { identifier: u.email, password: u.password } } });
      assert.deepEqual(limited.json(), {
        errors: [resolverError(query, 'login', 'STRAPI_RATE_LIMIT_ERROR', 'RateLimitError', 'Too many requests, please try again later.')], data: null,
      });
      assert.equal((await post('/api/auth/local', { identifier: u.email, password: u.password })).statusCode, 429);

      // Eleven reset attempts in one operation: the eleventh is refused.
      const aliases = Array.from({ length: 11 }, (_, i) => `r${i}: resetPassword(code: "${'0'.repeat(63)}${i % 10}", password: "abcdef1", passwordConfirmation: "abcdef1") { jwt }`);
      const res = await post('/graphql', { query: `mutation { ${aliases.join(' ')} }` });
      const body = res.json();
      assert.deepEqual(body.errors.map((e: Json) => e.extensions.code), [...Array(10).fill('BAD_USER_INPUT'), 'STRAPI_RATE_LIMIT_ERROR']);
      assert.deepEqual(body.data, Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`r${i}`, null])));
    });
  });
});
