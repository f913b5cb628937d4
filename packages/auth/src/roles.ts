// Roles of a project's end users (users-and-permissions): `public`, `authenticated`, custom ones.
import { compiledQuery, type Db } from '@cms/db';
import { ApplicationError, NotFoundError } from '@cms/errors';
import type { Model } from '@cms/schema';
import { validatePermissions, type PermissionMap } from './permissions.ts';

export interface Role {
  type: string;
  name: string;
  description: string;
  permissions: PermissionMap;
}

export const BUILTIN_ROLES: readonly Role[] = [
  { type: 'public', name: 'Public', description: 'Default role given to unauthenticated user.', permissions: {} },
  { type: 'authenticated', name: 'Authenticated', description: 'Default role given to authenticated user.', permissions: {} },
];

/** A role as stored: with its id and timestamps. */
export interface StoredRole extends Role {
  id: number;
  createdAt: string;
  updatedAt: string;
}

const COLUMNS = 'id::int AS id, type, name, description, permissions, created_at AS "createdAt", updated_at AS "updatedAt"';

export class RoleService {
  constructor(private readonly db: Db) {}

  async createDefaults(db: Db, projectId: number): Promise<void> {
    for (const role of BUILTIN_ROLES) {
      await db.query(compiledQuery({
        text: 'INSERT INTO platform.roles (project_id, type, name, description, permissions) VALUES ($1, $2, $3, $4, $5::jsonb)',
        values: [projectId, role.type, role.name, role.description, JSON.stringify(role.permissions)],
      }));
    }
  }

  async list(projectId: number): Promise<StoredRole[]> {
    return (await this.db.any(compiledQuery({ text: `SELECT ${COLUMNS} FROM platform.roles WHERE project_id = $1 ORDER BY id`, values: [projectId] }))) as unknown as StoredRole[];
  }

  async create(projectId: number, input: { type: string; name: string; description?: string }): Promise<StoredRole> {
    const row = await this.db.maybeOne(compiledQuery({
      text: `INSERT INTO platform.roles (project_id, type, name, description) VALUES ($1, $2, $3, $4)
             ON CONFLICT (project_id, type) DO NOTHING RETURNING ${COLUMNS}`,
      values: [projectId, input.type, input.name, input.description ?? ''],
    }));
    if (!row) throw new ApplicationError(`A role of type "${input.type}" already exists`, {}, 409);
    return row as unknown as StoredRole;
  }

  /** Change a role's name or description (its type is its key and stays). */
  async updateInfo(projectId: number, type: string, input: { name?: string; description?: string }): Promise<StoredRole> {
    const row = await this.db.maybeOne(compiledQuery({
      text: `UPDATE platform.roles SET name = coalesce($3, name), description = coalesce($4, description), updated_at = now()
             WHERE project_id = $1 AND type = $2 RETURNING ${COLUMNS}`,
      values: [projectId, type, input.name ?? null, input.description ?? null],
    }));
    if (!row) throw new NotFoundError();
    return row as unknown as StoredRole;
  }

  async setPermissions(projectId: number, type: string, permissions: unknown, model: Model): Promise<StoredRole> {
    const map = validatePermissions(permissions, model);
    const row = await this.db.maybeOne(compiledQuery({
      text: `UPDATE platform.roles SET permissions = $3::jsonb, updated_at = now() WHERE project_id = $1 AND type = $2 RETURNING ${COLUMNS}`,
      values: [projectId, type, JSON.stringify(map)],
    }));
    if (!row) throw new NotFoundError();
    return row as unknown as StoredRole;
  }

  /** Delete a custom role; `alsoInTransaction` runs in the same transaction (e.g. moving its users). */
  async remove(projectId: number, type: string, alsoInTransaction?: (tx: Db) => Promise<void>): Promise<void> {
    if (BUILTIN_ROLES.some((r) => r.type === type)) throw new ApplicationError(`The ${type} role cannot be deleted`);
    await this.db.transaction(async (tx) => {
      const row = await tx.maybeOne(compiledQuery({ text: 'DELETE FROM platform.roles WHERE project_id = $1 AND type = $2 RETURNING id', values: [projectId, type] }));
      if (!row) throw new NotFoundError();
      await alsoInTransaction?.(tx);
    });
  }
}
