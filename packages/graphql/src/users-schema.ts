// The users-permissions plugin in a project's schema: its root fields — `me`, the auth mutations,
// user reads (plugin-type reads, with the generated list arguments and collection) and user CRUD
// — and the role fields (roles.ts). The plugin's types are in users-types.ts.
import { GraphQLID, GraphQLList, GraphQLNonNull, GraphQLString, type GraphQLFieldConfig, type GraphQLFieldConfigArgumentMap, type GraphQLFieldConfigMap, type GraphQLObjectType } from 'graphql';
import { USERS_UID } from '@cms/query';
import type { RootResolvers } from './field-resolvers.ts';
import { connectionSuffix } from './names.ts';
import { addRoleFields } from './roles.ts';
import {
  UsersPermissionsLoginInput, UsersPermissionsLoginPayload, UsersPermissionsMe, UsersPermissionsPasswordPayload, UsersPermissionsRegisterInput,
  UsersPermissionsRole, UsersPermissionsUserEntityResponse, UsersPermissionsUserInput,
} from './users-types.ts';
import type { GraphqlContext, SchemaParts } from './context.ts';

type FieldMap = GraphQLFieldConfigMap<unknown, unknown>;

/** What the plugin's fields take from the schema builder. */
export interface UsersSchemaParts {
  /** The user object type (`UsersPermissionsUser`). */
  user: GraphQLObjectType;
  /** filters, pagination and sort of the user lists */
  listArgs: GraphQLFieldConfigArgumentMap;
  /** `UsersPermissionsUserEntityResponseCollection` */
  collection: GraphQLObjectType;
  resolvers: RootResolvers;
  shared: SchemaParts;
}

export function addUsersPermissions(query: FieldMap, mutation: FieldMap, parts: UsersSchemaParts): void {
  addUserFields(query, mutation, parts);
  addRoleFields(query as GraphQLFieldConfigMap<unknown, GraphqlContext>, mutation as GraphQLFieldConfigMap<unknown, GraphqlContext>, UsersPermissionsRole, parts.shared);
}

function addUserFields(query: FieldMap, mutation: FieldMap, { user, listArgs, collection, resolvers: r }: UsersSchemaParts): void {
  const nonNull = <T extends GraphQLObjectType>(t: T) => new GraphQLNonNull(t);
  const str = { type: new GraphQLNonNull(GraphQLString) };
  const id = { type: new GraphQLNonNull(GraphQLID) };
  const data = { type: new GraphQLNonNull(UsersPermissionsUserInput) };
  const payload = UsersPermissionsLoginPayload;
  const response = nonNull(UsersPermissionsUserEntityResponse);
  const fields: Array<[FieldMap, string, GraphQLFieldConfig<unknown, unknown>]> = [
    [query, 'me', { type: UsersPermissionsMe, resolve: r.users('me') }],
    [query, 'usersPermissionsUser', { type: user, args: { documentId: id }, resolve: r.findOne(USERS_UID) }],
    [query, 'usersPermissionsUsers', { type: new GraphQLNonNull(new GraphQLList(user)), args: listArgs, resolve: r.findMany(USERS_UID) }],
    [query, `usersPermissionsUsers${connectionSuffix}`, { type: collection, args: listArgs, resolve: r.connection(USERS_UID) }],
    [mutation, 'login', { type: nonNull(payload), args: { input: { type: new GraphQLNonNull(UsersPermissionsLoginInput) } }, resolve: r.users('login') }],
    [mutation, 'register', { type: nonNull(payload), args: { input: { type: new GraphQLNonNull(UsersPermissionsRegisterInput) } }, resolve: r.users('register') }],
    [mutation, 'forgotPassword', { type: UsersPermissionsPasswordPayload, args: { email: str }, resolve: r.users('forgotPassword') }],
    [mutation, 'resetPassword', { type: payload, args: { password: str, passwordConfirmation: str, code: str }, resolve: r.users('resetPassword') }],
    [mutation, 'changePassword', { type: payload, args: { currentPassword: str, password: str, passwordConfirmation: str }, resolve: r.users('changePassword') }],
    [mutation, 'emailConfirmation', { type: payload, args: { confirmation: str }, resolve: r.users('emailConfirmation') }],
    [mutation, 'createUsersPermissionsUser', { type: response, args: { data }, resolve: r.users('createUsersPermissionsUser') }],
    [mutation, 'updateUsersPermissionsUser', { type: response, args: { id, data }, resolve: r.users('updateUsersPermissionsUser') }],
    [mutation, 'deleteUsersPermissionsUser', { type: response, args: { id }, resolve: r.users('deleteUsersPermissionsUser') }],
  ];
  for (const [root, name, config] of fields) {
    // A content type generating one of these names would silently lose its field: refuse instead.
    if (Object.hasOwn(root, name)) throw new Error(`The root field "${name}" is reserved for the users-permissions plugin`);
    root[name] = config;
  }
}
