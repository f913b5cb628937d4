// What every root resolver shares: its type, the access check and the planner's environment.
import type { GraphQLFieldResolver } from 'graphql';
import { ForbiddenError } from '@cms/errors';
import type { Binder } from '@cms/query';
import type { GraphPlanEnv } from './selection.ts';
import type { GraphqlContext, SchemaNames } from './context.ts';

export type Args = Record<string, unknown>;
export type Resolver = GraphQLFieldResolver<unknown, GraphqlContext, Args>;

export function requireAccess(ctx: GraphqlContext, uid: string, action: string): void {
  // Strapi's GraphQL answers an unauthorised operation with a FORBIDDEN error.
  if (!ctx.access.can(uid, action)) throw new ForbiddenError('Forbidden access');
}

/** The planner's view of a request; values go through `binder`. */
export const planEnvOf = (ctx: GraphqlContext, names: SchemaNames, binder: Binder): GraphPlanEnv => ({
  model: ctx.model, physical: ctx.physical, names, limits: ctx.limits, binder,
  canFind: (uid) => ctx.access.can(uid, 'find'),
});
