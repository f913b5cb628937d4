// Every query key of the dashboard, from one hierarchy: the account, the account's project list,
// then each project → feature → item. Removing `projectKeys.all(slug)` forgets everything cached
// under a project (deleted, or left); invalidating `projectKeys.feature(slug, 'webhooks')` refreshes
// every list and item of that feature. Features build their keys here, never by hand, and no page
// exports keys: a feature's mutations own their invalidation (features/<name>/api/).

/** A project's features, as the segments of its keys. */
export type ProjectFeature =
  | 'api-tokens' | 'audit-logs' | 'backups' | 'billing' | 'content' | 'content-access' | 'email-templates'
  | 'end-users' | 'environments' | 'exports' | 'history' | 'locales' | 'media' | 'members' | 'releases'
  | 'restores' | 'roles' | 'scheduled-actions' | 'schema' | 'settings' | 'sso' | 'usage' | 'webhooks';

export const accountKeys = {
  /** The signed-in account (`GET /v1/auth/session`): null for a visitor. */
  me: () => ['account', 'me'] as const,
  /** Everything else of the account: its sessions, two-factor, audit log. */
  feature: (feature: 'sessions' | 'two-factor' | 'audit-logs', ...item: readonly unknown[]) => ['account', feature, ...item] as const,
};

export const projectKeys = {
  /** The account's projects (`GET /v1/projects`). */
  list: () => ['projects'] as const,
  /** The deleted projects the account may restore (`?status=deleted`): under the list, refreshed with it. */
  deletedList: () => ['projects', 'deleted'] as const,
  /** A project, and (as a prefix) everything cached under it. */
  all: (slug: string) => ['project', slug] as const,
  /** The project itself (`GET /v1/projects/{slug}`). */
  detail: (slug: string) => ['project', slug, 'detail'] as const,
  /** A feature of the project, and (with `item`) one of its lists or items: `feature(slug, 'webhooks', 'detail', id)`. */
  feature: (slug: string, feature: ProjectFeature, ...item: readonly unknown[]) => ['project', slug, feature, ...item] as const,
};
