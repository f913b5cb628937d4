// Audit action names (management API § Audit log and account security): Strapi's names where it
// has them, else `noun.verb` (`noun` may itself be dotted: `account.2fa.enable`). Content writes
// record the live stream's event names; management routes are mapped by `managementAction`.

/** Content writes (one entry per document event, in the write's transaction). */
export const ENTRY_ACTIONS = ['entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish'] as const;

/** Entries of an account's own log (`GET /v1/auth/audit-logs`): sign-ins and security changes. */
export const ACCOUNT_ACTIONS = [
  'admin.auth.success', // a sign-in (payload.method: "password" | "two-factor" | "recovery-code" | "sso")
  'admin.auth.failure', // a refused sign-in (payload.reason)
  'admin.auth.lockout', // sign-ins locked for a while after repeated failures
  'admin.logout',
  'account.create',
  'account.password.change',
  'account.password.reset',
  'account.email.verify',
  'account.2fa.enable',
  'account.2fa.disable',
  'account.2fa.recovery-code.use',
  'account.session.revoke',
  'account.session.new-device',
  'account.sso.link',
] as const;

export type EntryAction = (typeof ENTRY_ACTIONS)[number];
export type AccountAction = (typeof ACCOUNT_ACTIONS)[number];

/** The form every action name has: lowercase words (digits, `-`) joined by dots, at least two. */
export const ACTION_PATTERN = /^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+$/;

export function isActionName(name: string): boolean {
  return name.length <= 100 && ACTION_PATTERN.test(name);
}

/**
 * Management routes (fastify route url below `/v1/projects/:slug`, method) and their action.
 * Routes not listed get a derived name (`derivedAction`), so a new route is recorded too.
 */
const ROUTE_ACTIONS: Record<string, string> = {
  'PATCH ': 'project.update',
  'DELETE ': 'project.delete',
  'POST /restore': 'project.restore',
  'PUT /schema': 'content-type.update',
  'PUT /content-types/:uid': 'content-type.update',
  'DELETE /content-types/:uid': 'content-type.delete',
  'PUT /components/:uid': 'component.update',
  'POST /schema/plan': '',
  'POST /roles': 'role.create',
  'PUT /roles/:type/permissions': 'role.update',
  'DELETE /roles/:type': 'role.delete',
  'POST /api-tokens': 'api-token.create',
  'DELETE /api-tokens/:id': 'api-token.delete',
  'POST /webhooks': 'webhook.create',
  'PUT /webhooks/:id': 'webhook.update',
  'DELETE /webhooks/:id': 'webhook.delete',
  'POST /webhooks/:id/test': 'webhook.test',
  'POST /webhooks/:id/deliveries/:deliveryId/replay': 'webhook.replay',
  'POST /releases/:id/publish': 'release.publish',
  'POST /invitations': 'member.invite',
  'DELETE /invitations/:id': 'member.invite-cancel',
  'PATCH /members/:accountId': 'member.update',
  'DELETE /members/:accountId': 'member.remove',
  'POST /billing/checkout': 'billing.checkout',
  'POST /billing/portal': '',
  'POST /backups': 'backup.create',
  'POST /backups/:id/restore': 'backup.restore',
  'POST /exports': 'export.create',
  'POST /import/documents': 'import.documents',
  'POST /import/relations': 'import.relations',
  'POST /import/users': 'import.users',
  'PUT /import/files/:documentId': 'import.files',
  'PUT /sso': 'sso.update',
  'DELETE /sso': 'sso.delete',
  'POST /sso/verify-domain': 'sso.verify-domain',
  // A short-lived key of the dashboard (every page asks for one); content actions are entries of their own.
  'POST /content-access': '',
  'POST /content/:uid/:documentId/:action': '',
};

const SINGULAR: Record<string, string> = {
  roles: 'role', 'api-tokens': 'api-token', webhooks: 'webhook', releases: 'release', actions: 'release-action', media: 'media',
  folders: 'media-folder', locales: 'locale', members: 'member', invitations: 'member', backups: 'backup', exports: 'export',
  environments: 'environment', 'scheduled-actions': 'scheduled-action', history: 'history', imports: 'import', import: 'import',
};

const VERBS: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' };

/**
 * The action of a successful management write, from its route below `/v1/projects/:slug` (`''`
 * for the project itself) and method; null for requests that change nothing worth an entry
 * (reads, dry runs, short-lived keys).
 */
export function managementAction(method: string, route: string): string | null {
  if (!(method in VERBS)) return null;
  if (route.startsWith('/settings')) return method === 'PUT' || method === 'PATCH' ? 'project.settings.update' : derivedAction(method, route);
  if (route.startsWith('/content/')) return null;
  const mapped = ROUTE_ACTIONS[`${method} ${route}`];
  if (mapped !== undefined) return mapped === '' ? null : mapped;
  return derivedAction(method, route);
}

/**
 * `noun.verb` from the route's last static segment (singular) and the method, or the trailing
 * static segment as the verb (`POST /releases/:id/publish` → `release.publish`).
 */
export function derivedAction(method: string, route: string): string {
  const segments = route.split('/').filter((s) => s.length > 0);
  const statics = segments.filter((s) => !s.startsWith(':'));
  const last = segments[segments.length - 1];
  const clean = (s: string) => s.toLowerCase().replace(/[^a-z0-9-]/g, '-').replace(/^-+|-+$/g, '') || 'project';
  if (statics.length === 0) return `project.${VERBS[method]}`;
  // `/x/:id/verb`: a verb route, named by the collection before it.
  if (last !== undefined && !last.startsWith(':') && statics.length >= 2 && segments.length >= 3 && segments[segments.length - 2]!.startsWith(':')) {
    const noun = statics[statics.length - 2]!;
    return `${SINGULAR[noun] ?? clean(noun)}.${clean(last)}`;
  }
  const noun = statics[statics.length - 1]!;
  return `${SINGULAR[noun] ?? clean(noun)}.${VERBS[method]}`;
}
