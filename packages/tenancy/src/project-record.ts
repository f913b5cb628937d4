// What the request path needs to know about a project, loaded from platform.projects.
export interface ProjectRecord {
  id: number;
  accountId: number;
  slug: string;
  name: string;
  schemaName: string;
  defaultLocale: string;
  plan: string;
  modelVersion: number;
  baseVersion: number;
  settings: Record<string, unknown>;
  createdAt: string;
}

export const PROJECT_COLUMNS = `id, account_id AS "accountId", slug, name, schema_name AS "schemaName",
  default_locale AS "defaultLocale", plan, model_version AS "modelVersion", base_version AS "baseVersion",
  settings, created_at AS "createdAt"`;

/** Project slugs: `^[a-z][a-z0-9-]{1,38}[a-z0-9]$` (management contract). */
export const SLUG_PATTERN = /^[a-z][a-z0-9-]{1,38}[a-z0-9]$/;

export function schemaNameFor(projectId: number): string {
  return `t_${projectId}`;
}
