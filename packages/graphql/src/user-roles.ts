// The `role` of a user: roles live in the control plane (platform.roles), not in the project's
// schema, so the planner cannot join them. Rows carry the user's `id` (selection.ts adds it when
// `role` is asked) and this resolver loads the roles of every user resolved in the same tick with
// one query, so a list of users costs one extra round trip, not one per user.
import type { GraphQLFieldResolver } from 'graphql';

/** A role as both role types show it (`UsersPermissionsRole`, `UsersPermissionsMeRole`). */
export interface UserRole {
  /** GraphQL's ID serialises the number as a string. */
  id: string | number;
  /** derived from the project and the role's type (roles have no row in the project schema) */
  documentId: string;
  name: string;
  description: string | null;
  type: string;
  createdAt: string;
  updatedAt: string;
  publishedAt: string;
}

export interface UserRoleSource {
  /** The roles of these users (by user id); users without a known role are absent. */
  rolesOf(userIds: readonly string[]): Promise<ReadonlyMap<string, UserRole>>;
}

type Load = (userId: string) => Promise<UserRole | null>;

const loaders = new WeakMap<UserRoleSource, Load>();

/**
 * One batch per tick: a list's field resolvers run synchronously, so its users share one query.
 * Nothing is kept across batches, so a mutation's answer sees the role it just wrote.
 */
function batching(source: UserRoleSource): Load {
  let pending: { ids: Set<string>; roles: Promise<ReadonlyMap<string, UserRole>> } | null = null;
  return (userId) => {
    if (!pending) {
      const ids = new Set<string>();
      const roles = Promise.resolve().then(() => {
        pending = null;
        return source.rolesOf([...ids]);
      });
      pending = { ids, roles };
    }
    pending.ids.add(userId);
    return pending.roles.then((roles) => roles.get(userId) ?? null);
  };
}

/** Where a row carries its role when it was read before the user went away (a delete's answer). */
export const PRELOADED_ROLE = '@@role';

/** Give a row its role now, if the selection asks for one (the row then holds the user's `id`). */
export async function preloadRole(source: UserRoleSource, row: Record<string, unknown>): Promise<void> {
  if (row.id === undefined || row.id === null) return;
  row[PRELOADED_ROLE] = (await source.rolesOf([String(row.id)])).get(String(row.id)) ?? null;
}

export const roleResolver: GraphQLFieldResolver<unknown, { users: UserRoleSource }> = (source, _args, ctx) => {
  const row = source as Record<string, unknown>;
  if (Object.hasOwn(row, PRELOADED_ROLE)) return row[PRELOADED_ROLE];
  const id = row.id;
  if (id === undefined || id === null) return null;
  let load = loaders.get(ctx.users);
  if (!load) loaders.set(ctx.users, (load = batching(ctx.users)));
  return load(String(id));
};
