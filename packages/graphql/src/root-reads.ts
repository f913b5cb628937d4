// Root read fields (`articles`, `articles_connection`, `article`, single types, files, users):
// each is planned from its whole selection set and read in one statement (plus a count for
// `pageInfo`), through the process-wide read cache.
//
// Cache keys: the exact tier uses the field's printed text and the operation's variables (a
// field node is an object of one parsed document, so its identity could not be shared across
// documents; its text can, and it hits whenever the node-keyed cache did). The shape tier uses
// the resolve tree with values as parameters (read-shape.ts), so the same field with other
// variable values — or other literals — reuses the plan and its SQL.
import type { GraphQLResolveInfo } from 'graphql';
import { parseResolveInfo, type ResolveTree } from 'graphql-parse-resolve-info';
import type { CompiledRead } from '@cms/query';
import { fieldSignature } from './field-signature.ts';
import { pageInfo } from './pagination.ts';
import { treeShape } from './read-shape.ts';
import { planRoot, type ReadMode } from './root-plan.ts';
import { isDraftRead, planEnvOf, requireAccess, requireDraftAccess, type Args, type Resolver } from './root-resolver.ts';
import type { GraphqlContext, SchemaNames } from './context.ts';

export interface ReadResolvers {
  findMany(uid: string): Resolver;
  connection(uid: string): Resolver;
  findOne(uid: string): Resolver;
  single(uid: string): Resolver;
}

export function createReadResolvers(names: () => SchemaNames): ReadResolvers {
  /** The compiled read of this field, for this caller and these variables. */
  function cachedRead(ctx: GraphqlContext, uid: string, args: Args, info: GraphQLResolveInfo, mode: ReadMode): CompiledRead {
    // A draft read under `draftAccess: "preview"` plans against what the caller may preview: a
    // key of its own (the status and the release's presence are in the shape).
    const previewed = ctx.draftAccess === 'preview' && isDraftRead(args);
    const read = ctx.reads.read({
      context: `graphql\n${uid}\n${mode}\n${ctx.access.key}\n${ctx.defaultLocale}\n${ctx.limits.defaultLimit}/${ctx.limits.maxLimit}${previewed ? '\npreview' : ''}`,
      exact: `${fieldSignature(info)}${JSON.stringify(info.variableValues)}`,
      shape: () => treeShape(parseResolveInfo(info) as ResolveTree),
      plan: (tree, binder) => planRoot(ctx, planEnvOf(ctx, names(), binder, previewed), uid, tree, mode),
    });
    ctx.observe?.plan(read.plan);
    return read;
  }

  return {
    findMany(uid) {
      return async (_src, args, ctx, info) => {
        requireAccess(ctx, uid, 'find');
        if (isDraftRead(args)) await requireDraftAccess(ctx, uid, args);
        const { json } = await cachedRead(ctx, uid, args, info, 'list').find(ctx.db);
        return JSON.parse(json);
      };
    },
    connection(uid) {
      return async (_src, args, ctx, info) => {
        requireAccess(ctx, uid, 'find');
        if (isDraftRead(args)) await requireDraftAccess(ctx, uid, args);
        const read = cachedRead(ctx, uid, args, info, 'connection');
        const { json, total } = await read.find(ctx.db);
        const nodes = JSON.parse(json) as unknown[];
        // Root lists are offset windows (root-plan.ts). Without a count requested, pageInfo
        // fields other than total/pageCount still answer.
        const { start, limit } = read.page as { start: number; limit: number };
        return { nodes, pageInfo: pageInfo({ start, limit }, total ?? nodes.length) };
      };
    },
    findOne(uid) {
      return async (_src, args, ctx, info) => {
        requireAccess(ctx, uid, 'findOne');
        if (isDraftRead(args)) await requireDraftAccess(ctx, uid, args);
        const json = await cachedRead(ctx, uid, args, info, 'document').findOne(ctx.db, String(args.documentId));
        return json === null ? null : JSON.parse(json);
      };
    },
    single(uid) {
      return async (_src, args, ctx, info) => {
        requireAccess(ctx, uid, 'find');
        if (isDraftRead(args)) await requireDraftAccess(ctx, uid, args);
        const json = await cachedRead(ctx, uid, args, info, 'document').findOne(ctx.db, null);
        return json === null ? null : JSON.parse(json);
      };
    },
  };
}
