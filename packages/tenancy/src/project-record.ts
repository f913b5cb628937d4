// What the request path needs to know about a project, loaded from platform.projects.
import { compiledQuery, type Db } from '@cms/db';

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

export async function loadProjectBySlug(db: Db, slug: string): Promise<ProjectRecord | null> {
  return (await db.maybeOne(compiledQuery({ text: `SELECT ${PROJECT_COLUMNS} FROM platform.projects WHERE slug = $1`, values: [slug] }))) as ProjectRecord | null;
}

export async function loadProjectById(db: Db, id: number): Promise<ProjectRecord | null> {
  return (await db.maybeOne(compiledQuery({ text: `SELECT ${PROJECT_COLUMNS} FROM platform.projects WHERE id = $1`, values: [id] }))) as ProjectRecord | null;
}

/** Project slugs: `^[a-z][a-z0-9-]{1,38}[a-z0-9]$` (management contract). */
export const SLUG_PATTERN = /^[a-z][a-z0-9-]{1,38}[a-z0-9]$/;

export function schemaNameFor(projectId: number): string {
  return `t_${projectId}`;
}
