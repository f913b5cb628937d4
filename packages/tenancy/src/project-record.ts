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
}

/** What a member may do in a project's management API: owner > editor > viewer. */
export const PROJECT_ROLES = ['owner', 'editor', 'viewer'] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

/** A project as one of its members sees it: with their role. */
export interface MemberProject extends ProjectRecord {
  role: ProjectRole;
}

export const PROJECT_COLUMNS = `id, account_id AS "accountId", slug, name, schema_name AS "schemaName",
  default_locale AS "defaultLocale", plan, plan_grace_until AS "planGraceUntil", model_version AS "modelVersion", base_version AS "baseVersion",
  cluster, settings, created_at AS "createdAt"`;

/** Project slugs: `^[a-z][a-z0-9-]{1,38}[a-z0-9]$` (management contract). */
export const SLUG_PATTERN = /^[a-z][a-z0-9-]{1,38}[a-z0-9]$/;

export function schemaNameFor(projectId: number): string {
  return `t_${projectId}`;
}
