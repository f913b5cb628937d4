// The upload plugin's root mutations: `updateUploadFile(id, info)` and `deleteUploadFile(id)`
// (files are addressed by numeric id), answered with the file as the selection asks for it.
import type { GraphQLResolveInfo } from 'graphql';
import { parseResolveInfo, type ResolveTree } from 'graphql-parse-resolve-info';
import { positiveId } from '@cms/documents';
import { ForbiddenError, NotFoundError } from '@cms/errors';
import { Binder, compileRead, UPLOAD_FILE_UID } from '@cms/query';
import { planRoot } from './root-plan.ts';
import { planEnvOf, requireAccess, type Args, type Resolver } from './root-resolver.ts';
import type { GraphqlContext, SchemaNames } from './context.ts';

export interface FileResolvers {
  updateFile(): Resolver;
  removeFile(): Resolver;
}

export function createFileResolvers(names: () => SchemaNames): FileResolvers {
  /** A file as the mutation's selection asks for it. */
  async function readFile(ctx: GraphqlContext, info: GraphQLResolveInfo, documentId: string): Promise<unknown> {
    const binder = new Binder();
    const scope = { schema: ctx.schemaName, status: 'published' as const, locale: null };
    const plan = planRoot(ctx, planEnvOf(ctx, names(), binder), UPLOAD_FILE_UID, parseResolveInfo(info) as ResolveTree, 'document', scope);
    const json = await compileRead(plan).findOne(ctx.db, documentId);
    return json === null ? null : JSON.parse(json);
  }

  const fileIdOf = (args: Args) => positiveId(args.id);

  return {
    updateFile() {
      return async (_src, args, ctx, info) => {
        // Strapi's scope for this mutation is the upload action; `update` is granted for it too.
        if (!ctx.access.can(UPLOAD_FILE_UID, 'upload') && !ctx.access.can(UPLOAD_FILE_UID, 'update')) throw new ForbiddenError('Forbidden access');
        const id = fileIdOf(args);
        const given = (args.info ?? {}) as { name?: string | null; alternativeText?: string | null; caption?: string | null };
        const changes = { name: given.name ?? undefined, alternativeText: given.alternativeText, caption: given.caption };
        const documentId = id && (await ctx.files.updateInfo(id, changes)) ? await ctx.files.documentIdOf(id) : null;
        if (!documentId) throw new NotFoundError('File not found');
        return readFile(ctx, info, documentId);
      };
    },
    removeFile() {
      return async (_src, args, ctx, info) => {
        requireAccess(ctx, UPLOAD_FILE_UID, 'destroy');
        const id = fileIdOf(args);
        const documentId = id ? await ctx.files.documentIdOf(id) : null;
        if (!documentId) return null;
        // The answer is the file as it was: read before deleting.
        const file = await readFile(ctx, info, documentId);
        return (await ctx.files.remove(id!)) ? file : null;
      };
    },
  };
}
