// What every root resolver shares: its type, the access checks and the planner's environment.
import type { GraphQLFieldResolver } from 'graphql';
import { ForbiddenError, NotFoundError } from '@cms/errors';
import { draftReadFinder, mayReadDrafts, releaseIdOf, type Binder } from '@cms/query';
import type { GraphPlanEnv } from './selection.ts';
import type { GraphqlContext, SchemaNames } from './context.ts';

export type Args = Record<string, unknown>;
export type Resolver = GraphQLFieldResolver<unknown, GraphqlContext, Args>;

export function requireAccess(ctx: GraphqlContext, uid: string, action: string): void {
  // Strapi's GraphQL answers an unauthorised operation with a FORBIDDEN error.
  if (!ctx.access.can(uid, action)) throw new ForbiddenError('Forbidden access');
  ctx.observe?.read(uid);
}

/** Does a read ask for unpublished content: drafts, or a release preview? */
export const isDraftRead = (args: Args): boolean => args.status === 'draft' || (args.release !== undefined && args.release !== null);

/**
 * A read of unpublished content (`isDraftRead`, after `requireAccess`): FORBIDDEN unless the
 * project's `draftAccess` lets the caller read the type's drafts; a release the project does not
 * have is not found. Resolvers call it for draft reads only (published reads await nothing more).
 */
export async function requireDraftAccess(ctx: GraphqlContext, uid: string, args: Args): Promise<void> {
  ctx.observe?.draft();
  if (!mayReadDrafts(ctx.model, ctx.draftAccess, (u, action) => ctx.access.can(u, action), uid)) throw new ForbiddenError('Forbidden access');
  if (args.release !== undefined && args.release !== null && !(await ctx.releaseExists(releaseIdOf(args.release)))) {
    throw new NotFoundError('Release not found');
  }
}

/**
 * The planner's view of a request; values go through `binder`. `previewed`: a draft read under
 * `draftAccess: "preview"`, which reaches only the drafts the caller may preview.
 */
export const planEnvOf = (ctx: GraphqlContext, names: SchemaNames, binder: Binder, previewed = false): GraphPlanEnv => ({
  model: ctx.model, physical: ctx.physical, names, limits: ctx.limits, binder,
  canFind: previewed ? draftReadFinder(ctx.model, (uid, action) => ctx.access.can(uid, action)) : (uid) => ctx.access.can(uid, 'find'),
});
