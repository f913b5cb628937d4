// What the request path needs to know about a project, loaded from platform.projects.
export interface ProjectRecord {
  id: number;
  accountId: number;
  slug: string;
  name: string;
  schemaName: string;
  defaultLocale: string;
  /** The plan the project subscribes to; what applies is `effectivePlan` (@cms/billing). */
  plan: string;
  /** Set while a payment is overdue: past it the project is on `free` whatever `plan` says. */
  planGraceUntil: string | null;
  modelVersion: number;
  baseVersion: number;
  /** The Postgres cluster holding the project's schema (`main`: the control plane's). */
  cluster: string;
  settings: Record<string, unknown>;
  createdAt: string;
  /** An environment's parent project (null for a project of its own; absent on records made before environments). */
  parentId?: number | null;
  /** An environment's name (`{parent}--{name}` is its slug). */
  environment?: string | null;
  /** An environment's copy as stored (`copying` also when the copying process died: environments.ts derives `failed`). */
  copyStatus?: 'copying' | 'ready' | 'failed' | null;
}

/** What a member may do in a project's management API: owner > editor > viewer. */
export const PROJECT_ROLES = ['owner', 'editor', 'viewer'] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

/** A project as one of its members sees it: with their role. */
export interface MemberProject extends ProjectRecord {
  role: ProjectRole;
  /** An environment's parent (its members' role is their role in the parent). */
  parent?: { slug: string; name: string } | null;
}

export const PROJECT_COLUMNS = `id, account_id AS "accountId", slug, name, schema_name AS "schemaName",
  default_locale AS "defaultLocale", plan, plan_grace_until AS "planGraceUntil", model_version AS "modelVersion", base_version AS "baseVersion",
  cluster, settings, created_at AS "createdAt", parent_id AS "parentId", environment_name AS "environment", environment_status AS "copyStatus"`;

/** Project slugs: `^[a-z][a-z0-9-]{1,38}[a-z0-9]$` (management contract). */
export const SLUG_PATTERN = /^[a-z][a-z0-9-]{1,38}[a-z0-9]$/;

/** A new project's slug: SLUG_PATTERN without `--`, which only environments' slugs hold. */
export function isNewProjectSlug(slug: string): boolean {
  return SLUG_PATTERN.test(slug) && !slug.includes('--');
}

/** Environment names (management contract § Environments). */
export const ENVIRONMENT_NAME_PATTERN = /^[a-z][a-z0-9-]{0,19}$/;

/**
 * The longest slug any project may have: an environment's `{parent}--{name}` (40 + 2 + 20), still
 * one DNS label (at most 63 characters) for `{slug}.{BASE_DOMAIN}`.
 */
export const MAX_SLUG_LENGTH = 62;

/** A project's slug or an environment's (`{parent}--{name}`): what routing accepts. */
export const ANY_SLUG_PATTERN = /^[a-z][a-z0-9-]{1,38}[a-z0-9](--[a-z][a-z0-9-]{0,19})?$/;

export function environmentSlug(parentSlug: string, name: string): string {
  return `${parentSlug}--${name}`;
}

export function schemaNameFor(projectId: number): string {
  return `t_${projectId}`;
}
