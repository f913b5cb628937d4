// Field resolvers of generated types. A root resolver reads a whole selection in one statement;
// every relation, media, component or zone it populated sits in the row under `@<response key>`
// (so aliases of one attribute with different arguments never collide with each other or with a
// scalar). These resolvers only pick those values out.
import { getNullableType, isListType, type GraphQLFieldResolver, type GraphQLResolveInfo } from 'graphql';
import type { UsersRootField } from './users-types.ts';

export const POPULATED = '@';

/** The context type is the resolvers' own business (resolvers.ts); the schema builder only wires them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type RootResolver = GraphQLFieldResolver<unknown, any, any>;

export interface RootResolvers {
  findMany(uid: string): RootResolver;
  connection(uid: string): RootResolver;
  findOne(uid: string): RootResolver;
  single(uid: string): RootResolver;
  create(uid: string): RootResolver;
  update(uid: string): RootResolver;
  remove(uid: string): RootResolver;
  /** `updateUploadFile(id, info)` and `deleteUploadFile(id)`: media files are addressed by id. */
  updateFile(): RootResolver;
  removeFile(): RootResolver;
  /** users-permissions: `me` and the auth and user mutations (user reads use findOne/findMany/connection). */
  users(field: UsersRootField): RootResolver;
  /** `{singularName}Changed`'s subscribe: the async iterator of its change events. */
  changes(uid: string): RootResolver;
  /** `<Type>ChangeEvent`'s document, as the subscriber reads it. */
  changed(uid: string): RootResolver;
}

const unused = () => async () => null;
/** Resolvers that answer nothing: for building a schema only to print or validate it. */
export const NO_RESOLVERS: RootResolvers = { findMany: unused, connection: unused, findOne: unused, single: unused, create: unused, update: unused, remove: unused, updateFile: unused, removeFile: unused, users: unused, changes: unused, changed: unused };

export function responseKey(info: Pick<GraphQLResolveInfo, 'fieldNodes'>): string {
  const node = info.fieldNodes[0]!;
  return node.alias?.value ?? node.name.value;
}

export const linkResolver: GraphQLFieldResolver<unknown, unknown> = (source, _args, _ctx, info) => {
  const value = (source as Record<string, unknown>)[POPULATED + responseKey(info)];
  if (value !== undefined) return value;
  // Not populated (e.g. the caller may not read the target): empty, as Strapi's sanitiser leaves it.
  return isListType(getNullableType(info.returnType)) ? [] : null;
};

export const linkConnectionResolver: GraphQLFieldResolver<unknown, unknown> = (source, _args, _ctx, info) => ({
  nodes: (source as Record<string, unknown>)[POPULATED + responseKey(info)] ?? [],
});
