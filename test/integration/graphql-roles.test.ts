// The users-permissions role queries and mutations over GraphQL: `usersPermissionsRole(s)`
// (+ `_connection`) and `create/update/deleteUsersPermissionsRole` → `{ok}`, guarded by the
// `plugin::users-permissions.role` actions, applied like the management API's role changes, and
// never reaching another project's roles.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { gql, gqlData as data } from '../helpers/graphql.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { blogRawModel } from '../fixtures/index.ts';

type Json = Record<string, any>;

const ROLE = 'plugin::users-permissions.role';
const ROLES = '{ usersPermissionsRoles(sort: "type") { documentId name description type createdAt updatedAt publishedAt } }';
const CREATE = 'mutation ($data: UsersPermissionsRoleInput!) { createUsersPermissionsRole(data: $data) { ok } }';
const UPDATE = 'mutation ($id: ID!, $data: UsersPermissionsRoleInput!) { updateUsersPermissionsRole(id: $id, data: $data) { ok } }';
const DELETE = 'mutation ($id: ID!) { deleteUsersPermissionsRole(id: $id) { ok } }';

describe('GraphQL users-permissions roles', () => {
  let t: TestApp;
  let p: ContentProject;
  let other: ContentProject;

  const managedRoles = async (project: ContentProject) => {
    const res = await project.admin.get(`/v1/projects/${project.slug}/roles`);
    assert.equal(res.statusCode, 200);
    return res.json().roles as Json[];
  };
  const roleIdOf = async (project: ContentProject, type: string): Promise<string> => {
    const { usersPermissionsRoles } = await data(project.api, ROLES);
    const role = usersPermissionsRoles.find((r: Json) => r.type === type);
    assert.ok(role, type);
    return role.documentId;
  };

  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, blogRawModel());
    other = await setupContentProject(t, blogRawModel());
  });
  after(async () => t?.close());

  it('lists the project\'s roles with a stable documentId, with filters, sort and pagination', async () => {
    const { usersPermissionsRoles: roles } = await data(p.api, ROLES);
    assert.deepEqual(roles.map((r: Json) => [r.type, r.name]), [['authenticated', 'Authenticated'], ['public', 'Public']]);
    assert.equal(roles[1].description, 'Default role given to unauthenticated user.');
    assert.match(roles[0].documentId, /^[a-z][a-z0-9]{23}$/);
    assert.equal((await data(p.api, ROLES)).usersPermissionsRoles[0].documentId, roles[0].documentId);
    const one = await data(p.api, 'query ($id: ID!) { usersPermissionsRole(documentId: $id) { type name } }', { id: roles[1].documentId });
    assert.deepEqual(one.usersPermissionsRole, { type: 'public', name: 'Public' });
    assert.deepEqual((await data(p.api, '{ usersPermissionsRole(documentId: "nope") { type } }')).usersPermissionsRole, null);
    const filtered = await data(p.api, '{ usersPermissionsRoles_connection(filters: { type: { eq: "public" } }) { nodes { name } pageInfo { total } } }');
    assert.deepEqual(filtered.usersPermissionsRoles_connection, { nodes: [{ name: 'Public' }], pageInfo: { total: 1 } });
    const bad = await gql(p.api, '{ usersPermissionsRoles(sort: "permissions") { type } }');
    assert.equal(bad.body.errors[0].extensions.code, 'BAD_USER_INPUT');
  });

  it('a user\'s role shows the same documentId', async () => {
    const created = await data(p.api, 'mutation { createUsersPermissionsUser(data: { username: "ann", email: "ann@example.com", password: "secret123" }) { data { role { documentId type } } } }');
    assert.equal(created.createUsersPermissionsUser.data.role.documentId, await roleIdOf(p, 'authenticated'));
  });

  it('creates, renames and deletes a role as the management API would', async () => {
    assert.deepEqual(await data(p.api, CREATE, { data: { name: 'Content Editors', description: 'Edit things' } }), { createUsersPermissionsRole: { ok: true } });
    const editor = (await managedRoles(p)).find((r) => r.type === 'content_editors');
    assert.deepEqual(editor, { type: 'content_editors', name: 'Content Editors', permissions: {} });
    assert.deepEqual(await data(p.api, CREATE, { data: { name: 'Reviewer', type: 'reviewer' } }), { createUsersPermissionsRole: { ok: true } });

    const id = await roleIdOf(p, 'content_editors');
    assert.deepEqual(await data(p.api, UPDATE, { id, data: { name: 'Editors', description: 'Renamed' } }), { updateUsersPermissionsRole: { ok: true } });
    const renamed = await data(p.api, 'query ($id: ID!) { usersPermissionsRole(documentId: $id) { name description type } }', { id });
    assert.deepEqual(renamed.usersPermissionsRole, { name: 'Editors', description: 'Renamed', type: 'content_editors' });

    // A user of a deleted role acts as `authenticated`, as with DELETE /v1/…/roles/{type}.
    await data(p.api, 'mutation { createUsersPermissionsUser(data: { username: "rev", email: "rev@example.com", password: "secret123", role: "reviewer" }) { data { documentId } } }');
    assert.deepEqual(await data(p.api, DELETE, { id: await roleIdOf(p, 'reviewer') }), { deleteUsersPermissionsRole: { ok: true } });
    assert.equal((await managedRoles(p)).some((r) => r.type === 'reviewer'), false);
    const rev = await p.api.get('/api/users?filters[username]=rev&populate=role');
    assert.equal(rev.json()[0].role.type, 'authenticated');
    // Unknown ids answer ok: false and change nothing.
    assert.deepEqual(await data(p.api, DELETE, { id: 'nope' }), { deleteUsersPermissionsRole: { ok: false } });
    assert.deepEqual(await data(p.api, UPDATE, { id: '999999', data: { name: 'x' } }), { updateUsersPermissionsRole: { ok: false } });
  });

  it('refuses bad input and the built-in roles\' deletion, changing nothing', async () => {
    const before = await managedRoles(p);
    const noName = await gql(p.api, CREATE, { data: { description: 'x' } });
    assert.equal(noName.body.errors[0].extensions.code, 'BAD_USER_INPUT');
    assert.deepEqual(noName.body.errors[0].extensions.error.details, { errors: [{ path: ['name'], message: 'name is a required field', name: 'ValidationError' }] });
    const perms = await gql(p.api, CREATE, { data: { name: 'With perms', permissions: ['1'] } });
    assert.equal(perms.body.errors[0].extensions.code, 'BAD_USER_INPUT');
    const badType = await gql(p.api, CREATE, { data: { name: '123' } });
    assert.equal(badType.body.errors[0].extensions.code, 'BAD_USER_INPUT');
    const taken = await gql(p.api, CREATE, { data: { name: 'Public' } });
    assert.match(taken.body.errors[0].message, /already exists/);
    const builtin = await gql(p.api, DELETE, { id: await roleIdOf(p, 'public') });
    assert.equal(builtin.body.errors[0].message, 'The public role cannot be deleted');
    assert.deepEqual(await managedRoles(p), before);
  });

  it('needs the plugin::users-permissions.role actions', async () => {
    const anon = p.client(null);
    const denied = await gql(anon, ROLES);
    assert.equal(denied.body.errors[0].extensions.code, 'FORBIDDEN');
    assert.equal((await gql(anon, CREATE, { data: { name: 'Anon' } })).body.errors[0].extensions.code, 'FORBIDDEN');
    const reader = p.client(await p.token('custom', { [ROLE]: ['find', 'findOne'] }));
    assert.equal((await data(reader, ROLES)).usersPermissionsRoles.length >= 2, true);
    assert.equal((await gql(reader, CREATE, { data: { name: 'Nope' } })).body.errors[0].extensions.code, 'FORBIDDEN');
    const readOnly = p.client(await p.token('read-only'));
    assert.equal((await gql(readOnly, DELETE, { id: await roleIdOf(p, 'content_editors') })).body.errors[0].extensions.code, 'FORBIDDEN');
    assert.equal((await managedRoles(p)).some((r) => r.type === 'nope' || r.type === 'anon'), false);
    // The public role may be granted role reads like any other action.
    await p.setPublic({ [ROLE]: ['find'] });
    assert.equal((await data(anon, ROLES)).usersPermissionsRoles.length >= 2, true);
  });

  it('never reaches another project\'s roles', async () => {
    await data(other.api, CREATE, { data: { name: 'Theirs' } });
    const mine = (await data(p.api, ROLES)).usersPermissionsRoles.map((r: Json) => r.type);
    assert.equal(mine.includes('theirs'), false);
    const theirs = await roleIdOf(other, 'theirs');
    assert.deepEqual(await data(p.api, DELETE, { id: theirs }), { deleteUsersPermissionsRole: { ok: false } });
    assert.deepEqual(await data(p.api, UPDATE, { id: theirs, data: { name: 'Hijacked' } }), { updateUsersPermissionsRole: { ok: false } });
    assert.equal((await managedRoles(other)).find((r) => r.type === 'theirs')!.name, 'Theirs');
    assert.deepEqual((await data(p.api, 'query ($id: ID!) { usersPermissionsRole(documentId: $id) { type } }', { id: theirs })).usersPermissionsRole, null);
  });
});
