// The users-permissions plugin's role queries and mutations (Strapi v5 names and payloads):
// `usersPermissionsRole(documentId)`, `usersPermissionsRoles(_connection)` and
// `create/update/deleteUsersPermissionsRole` → `{ok}`. Roles are the project's (platform.roles,
// a handful per project): lists are filtered in memory; the gateway applies the changes on every
// instance. Permission sets are edited with the management API, not here.
import { GraphQLBoolean, GraphQLID, GraphQLInputObjectType, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString, type GraphQLFieldConfigMap, type GraphQLObjectType as ObjectType } from 'graphql';
import { ForbiddenError, ValidationError } from '@cms/errors';
import { selectInMemory, type InMemoryListArgs } from './in-memory-list.ts';
import { inMemoryListTypes } from './in-memory-list-types.ts';
import { DateTimeScalar } from './scalars.ts';
import type { GraphqlContext, RoleView, SchemaParts } from './context.ts';

export const ROLE_UID = 'plugin::users-permissions.role';
const FIELDS = ['documentId', 'name', 'description', 'type', 'createdAt', 'updatedAt', 'publishedAt'] as const;
const ROLE_TYPE = /^[a-z][a-z0-9_-]{0,49}$/;

const forbidden = () => new ForbiddenError('Forbidden access');

function requireAccess(ctx: GraphqlContext, action: string): void {
  if (!ctx.access.can(ROLE_UID, action)) throw forbidden();
}

/** Strapi derives a missing type from the name: lower-cased, accents dropped, snake_case. */
export function roleTypeOf(name: string): string {
  return name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2').split(/[^a-z0-9]+/).filter(Boolean).join('_');
}

interface RoleInput {
  name?: string | null;
  description?: string | null;
  type?: string | null;
  permissions?: unknown[] | null;
  users?: unknown[] | null;
}

function checkInput(input: RoleInput, creating: boolean): { name?: string; description?: string; type?: string } {
  const errors: Array<{ path: string[]; message: string; name: 'ValidationError' }> = [];
  const fail = (path: string, message: string) => errors.push({ path: [path], message, name: 'ValidationError' });
  if (creating && (typeof input.name !== 'string' || input.name.trim() === '')) fail('name', 'name is a required field');
  if (typeof input.name === 'string' && input.name.length > 100) fail('name', 'name must be at most 100 characters');
  if (typeof input.description === 'string' && input.description.length > 500) fail('description', 'description must be at most 500 characters');
  // Permission sets and role members are edited in the dashboard or with the management API.
  if (input.permissions?.length) fail('permissions', 'permissions cannot be set here: use the management API');
  if (input.users?.length) fail('users', 'users cannot be set here: give users their role with updateUsersPermissionsUser');
  const type = input.type ?? (creating && typeof input.name === 'string' ? roleTypeOf(input.name) : undefined);
  if (creating && type !== undefined && !ROLE_TYPE.test(type)) fail('type', 'type must start with a letter and hold only a-z, 0-9, _ and - (50 at most)');
  if (errors.length) throw ValidationError.fromFieldErrors(errors);
  return {
    ...(typeof input.name === 'string' ? { name: input.name } : {}),
    ...(typeof input.description === 'string' ? { description: input.description } : {}),
    ...(type !== undefined ? { type } : {}),
  };
}

/** The role named by a mutation's `id`: its numeric id, or its documentId. */
async function roleOf(ctx: GraphqlContext, id: string): Promise<RoleView | null> {
  return (await ctx.roles.list()).find((r) => r.id === id || r.documentId === id) ?? null;
}

export const ROLE_QUERY_FIELDS = ['usersPermissionsRole', 'usersPermissionsRoles', 'usersPermissionsRoles_connection'] as const;
export const ROLE_MUTATION_FIELDS = ['createUsersPermissionsRole', 'updateUsersPermissionsRole', 'deleteUsersPermissionsRole'] as const;
export const ROLE_TYPE_NAMES = [
  'UsersPermissionsRoleFiltersInput', 'UsersPermissionsRoleEntityResponseCollection', 'UsersPermissionsRoleInput',
  'UsersPermissionsCreateRolePayload', 'UsersPermissionsUpdateRolePayload', 'UsersPermissionsDeleteRolePayload',
] as const;

/** The role root fields, added to `query` and `mutation`; `role` is the plugin's role object type. */
export function addRoleFields(
  query: GraphQLFieldConfigMap<unknown, GraphqlContext>, mutation: GraphQLFieldConfigMap<unknown, GraphqlContext>, role: ObjectType, parts: SchemaParts,
): void {
  // Like the user queries, the role queries take no `status` (roles have no draft & publish).
  const { collection, listArgs } = inMemoryListTypes('UsersPermissionsRole', FIELDS, role, parts);
  const input = new GraphQLInputObjectType({
    name: 'UsersPermissionsRoleInput',
    fields: {
      name: { type: GraphQLString }, description: { type: GraphQLString }, type: { type: GraphQLString },
      permissions: { type: new GraphQLList(GraphQLID) }, users: { type: new GraphQLList(GraphQLID) }, publishedAt: { type: DateTimeScalar },
    },
  });
  const payload = (name: string) => new GraphQLObjectType({ name, fields: { ok: { type: new GraphQLNonNull(GraphQLBoolean) } } });
  const select = async (ctx: GraphqlContext, args: InMemoryListArgs) => {
    requireAccess(ctx, 'find');
    return selectInMemory(await ctx.roles.list(), FIELDS, args, ctx.limits);
  };
  const id = { type: new GraphQLNonNull(GraphQLID) };
  const data = { type: new GraphQLNonNull(input) };
  const queries: GraphQLFieldConfigMap<unknown, GraphqlContext> = {
    usersPermissionsRole: {
      type: role,
      args: { documentId: id },
      resolve: async (_source, args: { documentId: string }, ctx) => {
        requireAccess(ctx, 'findOne');
        return (await ctx.roles.list()).find((r) => r.documentId === args.documentId) ?? null;
      },
    },
    usersPermissionsRoles: { type: new GraphQLNonNull(new GraphQLList(role)), args: listArgs, resolve: async (_s, args: InMemoryListArgs, ctx) => (await select(ctx, args)).nodes },
    usersPermissionsRoles_connection: { type: collection, args: listArgs, resolve: (_s, args: InMemoryListArgs, ctx) => select(ctx, args) },
  };
  const mutations: GraphQLFieldConfigMap<unknown, GraphqlContext> = {
    createUsersPermissionsRole: {
      type: payload('UsersPermissionsCreateRolePayload'), args: { data },
      resolve: async (_s, args: { data: RoleInput }, ctx) => {
        requireAccess(ctx, 'create');
        const { name, description, type } = checkInput(args.data, true);
        await ctx.roles.create({ type: type!, name: name!, ...(description !== undefined ? { description } : {}) });
        return { ok: true };
      },
    },
    updateUsersPermissionsRole: {
      type: payload('UsersPermissionsUpdateRolePayload'), args: { id, data },
      resolve: async (_s, args: { id: string; data: RoleInput }, ctx) => {
        requireAccess(ctx, 'update');
        const { name, description } = checkInput({ ...args.data, type: null }, false);
        const found = await roleOf(ctx, args.id);
        if (!found) return { ok: false };
        await ctx.roles.updateInfo(found.type, { ...(name !== undefined ? { name } : {}), ...(description !== undefined ? { description } : {}) });
        return { ok: true };
      },
    },
    deleteUsersPermissionsRole: {
      type: payload('UsersPermissionsDeleteRolePayload'), args: { id },
      resolve: async (_s, args: { id: string }, ctx) => {
        requireAccess(ctx, 'delete');
        const found = await roleOf(ctx, args.id);
        if (!found) return { ok: false };
        await ctx.roles.remove(found.type);
        return { ok: true };
      },
    },
  };
  for (const [root, fields] of [[query, queries], [mutation, mutations]] as const) {
    for (const [name, config] of Object.entries(fields)) {
      // A content type generating one of these names would silently lose its field: refuse instead.
      if (Object.hasOwn(root, name)) throw new Error(`The root field "${name}" is reserved for the users-permissions plugin`);
      root[name] = config;
    }
  }
}
