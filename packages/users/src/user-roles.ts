// The roles of end users, as `populate=role` and GraphQL's `role` show them: Strapi's role
// without its permissions. Roles live in the control plane (platform.roles, by project and
// type) while users hold their role's type, so this is a join across the two schemas.
import { compiledQuery, qualify, type Db } from '@cms/db';
import { USERS_TABLE, userRoleJson } from '@cms/tables';

export interface UserRole {
  id: number;
  name: string;
  description: string | null;
  type: string;
  createdAt: string;
  updatedAt: string;
}

const ROLE_JSON = userRoleJson('r');

/** The roles of these users (by user id, in one query). Users always hold an existing role: deleting a role moves its users. */
export async function rolesOfUsers(db: Db, project: { projectId: number; schema: string }, userIds: readonly (string | number)[]): Promise<Map<string, UserRole>> {
  if (userIds.length === 0) return new Map();
  const rows = (await db.any(compiledQuery({
    text: `SELECT u.id::text AS id, ${ROLE_JSON} AS role FROM ${qualify(project.schema, USERS_TABLE)} u
           JOIN platform.roles r ON r.project_id = $1 AND r.type = u.role
           WHERE u.id = ANY($2::bigint[])`,
    values: [project.projectId, userIds.map(String)],
  }))) as unknown as Array<{ id: string; role: UserRole }>;
  return new Map(rows.map((r) => [r.id, r.role]));
}
