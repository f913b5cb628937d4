// The users-permissions plugin's GraphQL types (Strapi v5 names and nullability):
// end users (`UsersPermissionsUser`), the caller (`UsersPermissionsMe`), auth payloads and inputs.
// They are the same in every project; the builder adds the user filters and collection.
import { GraphQLBoolean, GraphQLID, GraphQLInputObjectType, GraphQLNonNull, GraphQLObjectType, GraphQLString } from 'graphql';
import { DateTimeScalar } from './scalars.ts';
import { roleResolver } from './user-roles.ts';

export const USER_TYPE_NAME = 'UsersPermissionsUser';

const str = { type: GraphQLString };
const bool = { type: GraphQLBoolean };
const requiredString = { type: new GraphQLNonNull(GraphQLString) };
const requiredId = { type: new GraphQLNonNull(GraphQLID) };
const dateTime = { type: DateTimeScalar };

// Roles are the project's (platform.roles), with a documentId derived from their type.
export const UsersPermissionsRole = new GraphQLObjectType({
  name: 'UsersPermissionsRole',
  fields: { documentId: requiredId, name: requiredString, description: str, type: str, createdAt: dateTime, updatedAt: dateTime, publishedAt: dateTime },
});

const UsersPermissionsMeRole = new GraphQLObjectType({
  name: 'UsersPermissionsMeRole',
  fields: { id: requiredId, name: requiredString, description: str, type: str },
});

/** The user object without `id`, like every v5 document type; never password or tokens. */
export const UsersPermissionsUser = new GraphQLObjectType({
  name: USER_TYPE_NAME,
  fields: {
    documentId: requiredId, username: requiredString, email: requiredString, provider: str, confirmed: bool, blocked: bool,
    role: { type: UsersPermissionsRole, resolve: roleResolver },
    createdAt: dateTime, updatedAt: dateTime, publishedAt: dateTime,
  },
});

export const UsersPermissionsMe = new GraphQLObjectType({
  name: 'UsersPermissionsMe',
  fields: {
    id: requiredId, documentId: requiredId, username: requiredString, email: str, confirmed: bool, blocked: bool,
    role: { type: UsersPermissionsMeRole, resolve: roleResolver },
  },
});

/** Strapi adds the private `password` back to this input for user CRUD; `publishedAt` is ignored. */
export const UsersPermissionsUserInput = new GraphQLInputObjectType({
  name: 'UsersPermissionsUserInput',
  fields: {
    username: str, email: str, provider: str, confirmed: bool, blocked: bool, role: { type: GraphQLID }, publishedAt: dateTime, password: str,
  },
});

export const UsersPermissionsUserEntityResponse = new GraphQLObjectType({
  name: 'UsersPermissionsUserEntityResponse',
  fields: { data: { type: UsersPermissionsUser } },
});

export const UsersPermissionsLoginPayload = new GraphQLObjectType({
  name: 'UsersPermissionsLoginPayload',
  fields: { jwt: str, user: { type: new GraphQLNonNull(UsersPermissionsMe) } },
});

export const UsersPermissionsPasswordPayload = new GraphQLObjectType({
  name: 'UsersPermissionsPasswordPayload',
  fields: { ok: { type: new GraphQLNonNull(GraphQLBoolean) } },
});

export const UsersPermissionsLoginInput = new GraphQLInputObjectType({
  name: 'UsersPermissionsLoginInput',
  fields: { identifier: requiredString, password: requiredString, provider: { type: new GraphQLNonNull(GraphQLString), defaultValue: 'local' } },
});

export const UsersPermissionsRegisterInput = new GraphQLInputObjectType({
  name: 'UsersPermissionsRegisterInput',
  fields: { username: requiredString, email: requiredString, password: requiredString },
});

/** Root fields of the plugin (the user reads use the generic plugin-type resolvers). */
export const USERS_QUERY_FIELDS = ['me', 'usersPermissionsUser', 'usersPermissionsUsers', 'usersPermissionsUsers_connection'] as const;
export const USERS_MUTATION_FIELDS = [
  'login', 'register', 'forgotPassword', 'resetPassword', 'changePassword', 'emailConfirmation',
  'createUsersPermissionsUser', 'updateUsersPermissionsUser', 'deleteUsersPermissionsUser',
] as const;

/** Root fields answered by the plugin's own resolvers (users-resolvers.ts). */
export type UsersRootField = 'me' | (typeof USERS_MUTATION_FIELDS)[number];

/** Type names the plugin defines: a model may not generate any of them (check-names.ts). */
export const USERS_TYPE_NAMES: readonly string[] = [
  USER_TYPE_NAME, `${USER_TYPE_NAME}FiltersInput`, `${USER_TYPE_NAME}EntityResponseCollection`,
  ...[UsersPermissionsRole, UsersPermissionsMeRole, UsersPermissionsMe, UsersPermissionsUserInput, UsersPermissionsUserEntityResponse,
    UsersPermissionsLoginPayload, UsersPermissionsPasswordPayload, UsersPermissionsLoginInput, UsersPermissionsRegisterInput].map((t) => t.name),
];
