// Root write fields (`createArticle`, `updateArticle`, `deleteArticle`, single types' update and
// delete): @cms/documents writes, answered with the written version read back as the mutation's
// selection asks for it.
import type { GraphQLResolveInfo } from 'graphql';
import { parseResolveInfo, type ResolveTree } from 'graphql-parse-resolve-info';
import { createDocument, deleteDocument, updateDocument, writeLocale, type DocumentStore, type WriteResult } from '@cms/documents';
import { NotFoundError } from '@cms/errors';
import { Binder, compileRead } from '@cms/query';
import type { Model } from '@cms/schema';
import { planRoot } from './root-plan.ts';
import { planEnvOf, requireAccess, type Args, type Resolver } from './root-resolver.ts';
import type { GraphqlContext, SchemaNames } from './context.ts';

export interface WriteResolvers {
  create(uid: string): Resolver;
  update(uid: string): Resolver;
  remove(uid: string): Resolver;
}

export function createWriteResolvers(model: Model, names: () => SchemaNames): WriteResolvers {
  const storeOf = (ctx: GraphqlContext): DocumentStore => ({
    pool: ctx.db, schema: ctx.schemaName, model: ctx.model, physical: ctx.physical, defaultLocale: ctx.defaultLocale, hashPassword: ctx.hashPassword,
    admitDocument: ctx.admitDocument, emit: ctx.emit, history: ctx.history,
  });

  /** The written version, shaped by the mutation's selection. */
  async function readBack(ctx: GraphqlContext, uid: string, info: GraphQLResolveInfo, written: WriteResult): Promise<unknown> {
    const binder = new Binder();
    const scope = { schema: ctx.schemaName, status: written.status, locale: written.locale };
    const plan = planRoot(ctx, planEnvOf(ctx, names(), binder), uid, parseResolveInfo(info) as ResolveTree, 'document', scope);
    const json = await compileRead(plan).findOne(ctx.db, written.documentId);
    return json === null ? null : JSON.parse(json);
  }

  /** Locale of a write: on localized types the argument (or default), which must exist. */
  const localeOf = (ctx: GraphqlContext, uid: string, args: Args) =>
    ctx.model.contentTypes[uid]!.localized ? writeLocale(ctx.localeCodes, ctx.defaultLocale, args.locale ?? undefined) : ctx.defaultLocale;

  /** A GraphQL input object as the REST body's `data` (plain JSON; `publishedAt` is ignored like Strapi). */
  const dataOf = (args: Args): Record<string, unknown> => {
    const { publishedAt: _ignored, ...data } = JSON.parse(JSON.stringify(args.data ?? {})) as Record<string, unknown>;
    return data;
  };

  // Single types are addressed without a documentId.
  const isSingle = (uid: string) => model.contentTypes[uid]?.kind === 'singleType';

  return {
    create(uid) {
      return async (_src, args, ctx, info) => {
        requireAccess(ctx, uid, 'create');
        const written = await createDocument(storeOf(ctx), {
          uid, data: dataOf(args), locale: localeOf(ctx, uid, args), status: args.status === 'draft' ? 'draft' : 'published',
          canFind: (target) => ctx.access.can(target, 'find'),
        });
        return readBack(ctx, uid, info, written);
      };
    },
    update(uid) {
      const single = isSingle(uid);
      return async (_src, args, ctx, info) => {
        requireAccess(ctx, uid, 'update');
        try {
          const written = await updateDocument(storeOf(ctx), {
            uid, documentId: single ? null : String(args.documentId), data: dataOf(args), locale: localeOf(ctx, uid, args),
            status: args.status === 'draft' ? 'draft' : 'published',
            canFind: (target) => ctx.access.can(target, 'find'),
            canCreateLocalization: ctx.access.can(uid, 'createLocalization'),
          });
          return await readBack(ctx, uid, info, written);
        } catch (err) {
          // An unknown documentId answers null without an error (verified).
          if (err instanceof NotFoundError) return null;
          throw err;
        }
      };
    },
    remove(uid) {
      const single = isSingle(uid);
      return async (_src, args, ctx) => {
        requireAccess(ctx, uid, 'delete');
        const locale = typeof args.locale === 'string' ? args.locale : ctx.defaultLocale;
        const deleted = await deleteDocument(storeOf(ctx), { uid, documentId: single ? null : String(args.documentId), locale });
        // An unknown documentId still answers `{documentId}` (verified).
        const documentId = deleted ?? (single ? null : String(args.documentId));
        return documentId === null ? null : { documentId };
      };
    },
  };
}
