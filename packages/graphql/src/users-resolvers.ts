// Root resolvers of the users-permissions plugin: `me` and the auth and user mutations. The rules
// (validation, messages, tokens, e-mails) are the REST routes' own: every mutation hands its
// arguments, as the REST body, to the project's end users (`ProjectUsers`, built by the gateway
// around @cms/users). Answers are read fresh from the database with the planner, shaped by the
// selection; `role` comes from user-roles.ts.
import type { GraphQLFieldResolver, GraphQLResolveInfo } from 'graphql';
import { parseResolveInfo, type FieldsByTypeName, type ResolveTree } from 'graphql-parse-resolve-info';
import { positiveId } from '@cms/documents';
import { ApplicationError, ForbiddenError, NotFoundError } from '@cms/errors';
import { assemblePlan, Binder, compileRead, planFilters, USERS_UID, viewOf, type PagePlan } from '@cms/query';
import { planEnvOf } from './root-resolver.ts';
import { childFields, planTreeSelection } from './selection.ts';
import { preloadRole, type UserRoleSource } from './user-roles.ts';
import { USER_TYPE_NAME, type UsersRootField } from './users-types.ts';
import type { AuthOutcome, GraphqlContext, ProjectUsers, SchemaNames } from './context.ts';

type Body = Record<string, unknown>;

type Args = Record<string, unknown>;
type Resolver = GraphQLFieldResolver<unknown, GraphqlContext, Args>;

const ME = 'UsersPermissionsMe';
const LOGIN_PAYLOAD = 'UsersPermissionsLoginPayload';
const USER_RESPONSE = 'UsersPermissionsUserEntityResponse';

// Strapi's GraphQL message for a refused operation.
const forbidden = () => new ForbiddenError('Forbidden access');

/** A GraphQL input object as a plain REST body (inputs may have a null prototype). */
const bodyOf = (input: unknown): Body => JSON.parse(JSON.stringify(input ?? {})) as Body;

export function createUsersResolvers(names: () => SchemaNames): Record<UsersRootField, Resolver> {
  /** User `userId` shaped by the selection `fields` made on `typeName` (a user type), or null. */
  async function readUser(ctx: GraphqlContext, fields: FieldsByTypeName, typeName: string, userId: string): Promise<unknown> {
    const binder = new Binder();
    const env = planEnvOf(ctx, names(), binder);
    const view = viewOf(env, USERS_UID);
    // Both user types read the users table: plan the selection as the one the planner knows.
    const root = planTreeSelection(env, view, { [USER_TYPE_NAME]: fields[typeName] ?? {} });
    // A selection of only `__typename` still needs a column to read.
    if (root.fields.length === 0) root.fields = view.fields.filter((f) => f.name === 'documentId');
    const plan = assemblePlan(binder, {
      scope: { schema: ctx.schemaName, status: 'published', locale: null },
      root,
      where: [planFilters(env, view, { kind: 'compare', path: ['id'], op: '$eq', value: userId })],
      sort: () => [],
      page: { leaf: undefined, cast: (): PagePlan => ({ kind: 'offset', start: 0, limit: 1, withCount: false }) },
    });
    const { json } = await compileRead(plan).find(ctx.db);
    return (JSON.parse(json) as unknown[])[0] ?? null;
  }

  const treeOf = (info: GraphQLResolveInfo) => parseResolveInfo(info) as ResolveTree;

  /** `{jwt, user}` with the user as the payload's `user` selection asks for it. */
  async function loginPayload(ctx: GraphqlContext, info: GraphQLResolveInfo, outcome: AuthOutcome) {
    const fields = childFields(treeOf(info), LOGIN_PAYLOAD, 'user');
    return { jwt: outcome.jwt ?? null, user: await readUser(ctx, fields, ME, outcome.userId) };
  }

  /** `{data}` of the user CRUD mutations. */
  const userResponse = async (ctx: GraphqlContext, info: GraphQLResolveInfo, userId: string) =>
    ({ data: await readUser(ctx, childFields(treeOf(info), USER_RESPONSE, 'data'), USER_TYPE_NAME, userId) });

  function requireAccess(ctx: GraphqlContext, action: string): void {
    if (!ctx.access.can(USERS_UID, action)) throw forbidden();
  }

  /** The calling end user; API tokens and anonymous callers have none (REST answers 403 too). */
  function callerId(ctx: GraphqlContext): string {
    const userId = ctx.access.user?.userId;
    if (!userId) throw forbidden();
    return userId;
  }

  /** A user id argument; unknown and malformed ids are the same not-found error. */
  function userIdOf(args: Args): string {
    const id = positiveId(args.id);
    if (!id) throw new NotFoundError('User not found');
    return id;
  }

  const dataOf = (args: Args): Body => {
    const { publishedAt: _ignored, ...data } = bodyOf(args.data);
    return data;
  };

  // The auth mutations are open to anyone, like their REST routes (Strapi: `auth: false`).
  return {
    me: async (_src, _args, ctx, info) => readUser(ctx, treeOf(info).fieldsByTypeName, ME, callerId(ctx)),
    login: async (_src, args, ctx, info) => {
      const { identifier, password, provider } = bodyOf(args.input);
      // Only the local provider exists; Strapi answers this for any provider that is not enabled.
      if (provider !== 'local') throw new ApplicationError('This provider is disabled');
      return loginPayload(ctx, info, await ctx.users.login({ identifier, password }));
    },
    register: async (_src, args, ctx, info) => loginPayload(ctx, info, await ctx.users.register(bodyOf(args.input))),
    forgotPassword: async (_src, args, ctx) => {
      await ctx.users.forgotPassword({ email: args.email });
      return { ok: true };
    },
    resetPassword: async (_src, args, ctx, info) => loginPayload(ctx, info, await ctx.users.resetPassword(bodyOf(args))),
    changePassword: async (_src, args, ctx, info) => {
      const userId = callerId(ctx);
      return loginPayload(ctx, info, await ctx.users.changePassword(userId, bodyOf(args)));
    },
    emailConfirmation: async (_src, args, ctx, info) => loginPayload(ctx, info, await ctx.users.confirmEmail(String(args.confirmation))),
    createUsersPermissionsUser: async (_src, args, ctx, info) => {
      requireAccess(ctx, 'create');
      return userResponse(ctx, info, await ctx.users.create(dataOf(args)));
    },
    updateUsersPermissionsUser: async (_src, args, ctx, info) => {
      requireAccess(ctx, 'update');
      const id = userIdOf(args);
      if (!(await ctx.users.update(id, dataOf(args)))) throw new NotFoundError('User not found');
      return userResponse(ctx, info, id);
    },
    deleteUsersPermissionsUser: async (_src, args, ctx, info) => {
      requireAccess(ctx, 'destroy');
      const id = userIdOf(args);
      // The answer is the user as it was: read before deleting.
      const answer = await userResponse(ctx, info, id);
      if (answer.data === null) throw new NotFoundError('User not found');
      await preloadRole(ctx.users, answer.data as Record<string, unknown>);
      if (!(await ctx.users.remove(id))) throw new NotFoundError('User not found');
      return answer;
    },
  };
}
