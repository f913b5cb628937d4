// Root resolvers: each Query/Mutation field is planned from its whole selection set and read in
// one statement (plus a count for `pageInfo`), with the REST side's planner and renderer. The
// compiled read is cached on the operation's field node (documents are cached by mercurius), so
// a repeated operation runs SQL only.
import type { FieldNode, GraphQLFieldResolver, GraphQLResolveInfo } from 'graphql';
import { parseResolveInfo, type ResolveTree } from 'graphql-parse-resolve-info';
import type { Db } from '@cms/db';
import type { PhysicalModel } from '@cms/ddl';
import { createDocument, deleteDocument, positiveId, updateDocument, writeLocale, type DocumentStore, type WriteResult } from '@cms/documents';
import { ForbiddenError, NotFoundError } from '@cms/errors';
import { compileRead, parsePublicationFilter, parseSort, planFilters, planSort, UPLOAD_FILE_UID, viewOf, type CompiledRead, type PagePlan, type QueryPlan, type TypeView } from '@cms/query';
import type { Model } from '@cms/schema';
import type { RootResolvers } from './field-resolvers.ts';
import { filterNode } from './filters.ts';
import { entityCollectionName } from './names.ts';
import { pageInfo, rowWindow, type GraphqlLimits, type PaginationArgs } from './pagination.ts';
import { nodesOf, planTreeSelection, type GraphPlanEnv } from './selection.ts';
import { createUsersResolvers } from './users-resolvers.ts';
import type { GraphqlContext, LocaleView, ProjectRoles, ProjectUsers, SchemaNames } from './context.ts';

type Args = Record<string, unknown>;
type Resolver = GraphQLFieldResolver<unknown, GraphqlContext, Args>;

// Compiled reads per field node: variables and caller change the SQL values, not much else.
const READS_PER_NODE = 64;

function requireAccess(ctx: GraphqlContext, uid: string, action: string): void {
  // Strapi's GraphQL answers an unauthorised operation with a FORBIDDEN error.
  if (!ctx.access.can(uid, action)) throw new ForbiddenError('Forbidden access');
}

export function createRootResolvers(model: Model, names: () => SchemaNames): RootResolvers {
  const reads = new WeakMap<FieldNode, Map<string, CompiledRead>>();

  const envOf = (ctx: GraphqlContext): GraphPlanEnv => ({
    model: ctx.model, physical: ctx.physical, names: names(), limits: ctx.limits,
    canFind: (uid) => ctx.access.can(uid, 'find'),
  });

  /** Status and locale of a read: the arguments, else published and the default locale. */
  function scopeOf(ctx: GraphqlContext, view: TypeView, args: Args): QueryPlan['scope'] {
    const status = view.draftAndPublish && args.status === 'draft' ? 'draft' as const : 'published' as const;
    const locale = view.localized ? (typeof args.locale === 'string' ? args.locale : ctx.defaultLocale) : null;
    const publication = parsePublicationFilter(args.publicationFilter ?? undefined, args.hasPublishedVersion ?? undefined);
    return { schema: ctx.schemaName, status, locale: locale === '*' ? null : locale, ...(publication ? { publication } : {}) };
  }

  /** Plan of a root field: `mode` says where the document selection sits in its return type. */
  function planRoot(ctx: GraphqlContext, uid: string, info: GraphQLResolveInfo, mode: 'document' | 'list' | 'connection', scope?: QueryPlan['scope']): QueryPlan {
    const env = envOf(ctx);
    const view = viewOf(env, uid);
    const tree = parseResolveInfo(info) as ResolveTree;
    const args = tree.args as Args;
    const collection = entityCollectionName(names().typeOf.get(uid)!);
    const fields = mode === 'connection' ? nodesOf(tree, collection) : tree.fieldsByTypeName;
    const root = planTreeSelection(env, view, fields);
    if (mode === 'document') {
      return { scope: scope ?? scopeOf(ctx, view, args), root, where: null, sort: [], page: { kind: 'offset', start: 0, limit: 1, withCount: false } };
    }
    const filters = filterNode(env, view, args.filters);
    const planned = filters ? planFilters(env, view, filters) : null;
    const window = rowWindow(args.pagination as PaginationArgs | undefined, ctx.limits);
    const withCount = mode === 'connection' && wantsCount(tree, collection);
    return {
      scope: scope ?? scopeOf(ctx, view, args),
      root,
      where: planned,
      sort: planSort(env, view, parseSort(args.sort ?? undefined)),
      page: { kind: 'offset', start: window.start, limit: window.limit, withCount },
    };
  }

  /** The compiled read of this field in this operation, for this caller and these variables. */
  function cachedRead(ctx: GraphqlContext, uid: string, info: GraphQLResolveInfo, mode: 'document' | 'list' | 'connection') {
    const node = info.fieldNodes[0]!;
    let perNode = reads.get(node);
    if (!perNode) reads.set(node, (perNode = new Map()));
    const key = `${ctx.access.key}\n${ctx.defaultLocale}\n${ctx.limits.defaultLimit}/${ctx.limits.maxLimit}\n${JSON.stringify(info.variableValues)}`;
    let hit = perNode.get(key);
    if (!hit) {
      hit = compileRead(planRoot(ctx, uid, info, mode));
      if (perNode.size >= READS_PER_NODE) perNode.delete(perNode.keys().next().value!);
      perNode.set(key, hit);
    }
    return hit;
  }

  const storeOf = (ctx: GraphqlContext): DocumentStore => ({
    pool: ctx.db, schema: ctx.schemaName, model: ctx.model, physical: ctx.physical, defaultLocale: ctx.defaultLocale, hashPassword: ctx.hashPassword,
    admitDocument: ctx.admitDocument,
  });

  /** The written version, shaped by the mutation's selection. */
  async function readBack(ctx: GraphqlContext, uid: string, info: GraphQLResolveInfo, written: WriteResult): Promise<unknown> {
    const scope = { schema: ctx.schemaName, status: written.status, locale: written.locale };
    const json = await compileRead(planRoot(ctx, uid, info, 'document', scope)).findOne(ctx.db, written.documentId);
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

  /** A file as the mutation's selection asks for it. */
  async function readFile(ctx: GraphqlContext, info: GraphQLResolveInfo, documentId: string): Promise<unknown> {
    const scope = { schema: ctx.schemaName, status: 'published' as const, locale: null };
    const json = await compileRead(planRoot(ctx, UPLOAD_FILE_UID, info, 'document', scope)).findOne(ctx.db, documentId);
    return json === null ? null : JSON.parse(json);
  }

  const fileIdOf = (args: Args) => positiveId(args.id);

  // Single types are addressed without a documentId.
  const isSingle = (uid: string) => model.contentTypes[uid]?.kind === 'singleType';

  const users = createUsersResolvers(names);

  return {
    findMany(uid): Resolver {
      return async (_src, _args, ctx, info) => {
        requireAccess(ctx, uid, 'find');
        const { json } = await cachedRead(ctx, uid, info, 'list').find(ctx.db);
        return JSON.parse(json);
      };
    },
    connection(uid): Resolver {
      return async (_src, _args, ctx, info) => {
        requireAccess(ctx, uid, 'find');
        const read = cachedRead(ctx, uid, info, 'connection');
        const { json, total } = await read.find(ctx.db);
        const nodes = JSON.parse(json) as unknown[];
        // Root lists are planned as offset windows (planRoot). Without a count requested,
        // pageInfo fields other than total/pageCount still answer.
        const { start, limit } = read.plan.page as Extract<PagePlan, { kind: 'offset' }>;
        return { nodes, pageInfo: pageInfo({ start, limit }, total ?? nodes.length) };
      };
    },
    findOne(uid): Resolver {
      return async (_src, args, ctx, info) => {
        requireAccess(ctx, uid, 'findOne');
        const json = await cachedRead(ctx, uid, info, 'document').findOne(ctx.db, String(args.documentId));
        return json === null ? null : JSON.parse(json);
      };
    },
    single(uid): Resolver {
      return async (_src, _args, ctx, info) => {
        requireAccess(ctx, uid, 'find');
        const json = await cachedRead(ctx, uid, info, 'document').findOne(ctx.db, null);
        return json === null ? null : JSON.parse(json);
      };
    },
    create(uid): Resolver {
      return async (_src, args, ctx, info) => {
        requireAccess(ctx, uid, 'create');
        const written = await createDocument(storeOf(ctx), {
          uid, data: dataOf(args), locale: localeOf(ctx, uid, args), status: args.status === 'draft' ? 'draft' : 'published',
          canFind: (target) => ctx.access.can(target, 'find'),
        });
        return readBack(ctx, uid, info, written);
      };
    },
    update(uid): Resolver {
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
    remove(uid): Resolver {
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
    updateFile(): Resolver {
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
    removeFile(): Resolver {
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
    users: (field) => users[field],
  };
}

/** Does a connection's selection ask for a count (`pageInfo { total | pageCount }`)? */
function wantsCount(tree: ResolveTree, collection: string): boolean {
  const fields = tree.fieldsByTypeName[collection] ?? {};
  return Object.values(fields).some((f) => f.name === 'pageInfo' && Object.values(f.fieldsByTypeName.Pagination ?? {}).some((p) => p.name === 'total' || p.name === 'pageCount'));
}
