// A project's locales. Deleting one also deletes that locale's content.
import { compiledQuery, type Db } from '@cms/db';
import { deleteLocaleContent, type PhysicalModel } from '@cms/tables';
import { ApplicationError, NotFoundError, ValidationError } from '@cms/errors';
import type { DatabasePool } from 'slonik';
import { localeName, normaliseLocaleCode } from './locale-codes.ts';
import type { ProjectRecord } from './project-record.ts';
import { projectTransaction, singleCluster, type ClusterPools } from './clusters.ts';
import type { LocaleRecord, ProjectRegistry } from './registry.ts';
import { hasControlCharacters } from './text-checks.ts';

const COLUMNS = `code, name, is_default AS "isDefault", created_at AS "createdAt"`;

/** Lock the project row for this transaction; returns its model version. 404 when it is gone. */
async function lockProject(tx: Db, projectId: number, mode: 'FOR SHARE' | 'FOR NO KEY UPDATE'): Promise<number> {
  const version = await tx.maybeOneFirst(compiledQuery({ text: `SELECT model_version FROM platform.projects WHERE id = $1 ${mode}`, values: [projectId] }));
  if (version === null) throw new NotFoundError();
  return Number(version);
}

/** Make `code` the project's default locale; the caller holds the project row lock. */
async function makeDefault(tx: Db, projectId: number, code: string): Promise<void> {
  // Two statements: a unique index allows one default, and one UPDATE touching both rows
  // could visit the new default before the old one is cleared.
  await tx.query(compiledQuery({ text: 'UPDATE platform.locales SET is_default = false WHERE project_id = $1 AND is_default', values: [projectId] }));
  await tx.query(compiledQuery({ text: 'UPDATE platform.locales SET is_default = true WHERE project_id = $1 AND code = $2', values: [projectId, code] }));
  await tx.query(compiledQuery({ text: 'UPDATE platform.projects SET default_locale = $2 WHERE id = $1', values: [projectId, code] }));
}

export class LocaleService {
  constructor(private readonly pool: DatabasePool, private readonly registry: ProjectRegistry, private readonly pools: ClusterPools = singleCluster(pool)) {}

  async list(projectId: number, db: Db = this.pool): Promise<LocaleRecord[]> {
    return (await db.any(compiledQuery({ text: `SELECT ${COLUMNS} FROM platform.locales WHERE project_id = $1 ORDER BY created_at, code`, values: [projectId] }))) as unknown as LocaleRecord[];
  }

  async add(project: ProjectRecord, input: { code: unknown; name?: string; isDefault?: boolean }): Promise<LocaleRecord> {
    const code = normaliseLocaleCode(input.code);
    const name = input.name?.trim() || localeName(code);
    if (hasControlCharacters(name)) {
      throw ValidationError.fromFieldErrors([{ path: ['name'], message: 'name must not contain control characters', name: 'ValidationError' }]);
    }
    const locale = await this.pool.transaction(async (tx) => {
      // The project row is locked first, as `remove` and schema pushes do (no lock-order deadlock).
      if (input.isDefault) await lockProject(tx, project.id, 'FOR NO KEY UPDATE');
      const row = (await tx.maybeOne(compiledQuery({
        text: `INSERT INTO platform.locales (project_id, code, name) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
        values: [project.id, code, name],
      }))) as LocaleRecord | null;
      if (!row) throw new ApplicationError(`The locale "${code}" already exists`, {}, 409);
      if (input.isDefault) {
        await makeDefault(tx, project.id, code);
        row.isDefault = true;
      }
      return row;
    });
    await this.registry.invalidate({ projectId: project.id, slug: project.slug, scope: 'project' });
    return locale;
  }

  /** Rename a locale and/or make it the default (the default is changed by choosing another). */
  async update(project: ProjectRecord, code: string, input: { name?: string; isDefault?: boolean }): Promise<LocaleRecord> {
    const name = input.name?.trim();
    const errors: Array<{ path: string[]; message: string; name: 'ValidationError' }> = [];
    if (input.name !== undefined && (!name || hasControlCharacters(name))) errors.push({ path: ['name'], message: 'name must be a non-empty text without control characters', name: 'ValidationError' });
    if (input.isDefault === false) errors.push({ path: ['isDefault'], message: 'A project always has a default locale: make another locale the default instead', name: 'ValidationError' });
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    const locale = await this.pool.transaction(async (tx) => {
      if (input.isDefault) await lockProject(tx, project.id, 'FOR NO KEY UPDATE');
      const row = (await tx.maybeOne(compiledQuery({
        text: `UPDATE platform.locales SET name = COALESCE($3, name) WHERE project_id = $1 AND code = $2 RETURNING ${COLUMNS}`,
        values: [project.id, code, name ?? null],
      }))) as LocaleRecord | null;
      if (!row) throw new NotFoundError();
      if (input.isDefault && !row.isDefault) {
        await makeDefault(tx, project.id, code);
        row.isDefault = true;
      }
      return row;
    });
    await this.registry.invalidate({ projectId: project.id, slug: project.slug, scope: 'project' });
    return locale;
  }

  /**
   * Removes the locale and every content row in it (links cascade; component rows are deleted
   * with their owners). `physicalAt` gives the physical model of a model version. It is read
   * before the transaction (it may query; in embedded mode an open transaction holds the only
   * session), and the transaction share-locks the project row and checks that version is still
   * current, so no schema push adds tables in between; on a race it retries with the new version.
   */
  async remove(project: ProjectRecord, code: string, physicalAt: (modelVersion: number) => Promise<PhysicalModel>): Promise<void> {
    let modelVersion = project.modelVersion;
    for (let attempt = 0; ; attempt++) {
      const physical = await physicalAt(modelVersion);
      const lockedVersion = await projectTransaction(this.pools, project, async (tx, tenant) => {
        const locked = await lockProject(tx, project.id, 'FOR SHARE');
        if (locked !== modelVersion) return locked;
        await this.deleteLocale(tx, tenant, project, code, physical);
        return locked;
      });
      if (lockedVersion === modelVersion) break;
      if (attempt === 2) throw new ApplicationError('The content model is being changed; try again', {}, 409);
      modelVersion = lockedVersion;
    }
    await this.registry.invalidate({ projectId: project.id, slug: project.slug, scope: 'project' });
  }

  /** `tx` on the control plane, `tenant` on the project's cluster (the same transaction on `main`). */
  private async deleteLocale(tx: Db, tenant: Db, project: ProjectRecord, code: string, physical: PhysicalModel): Promise<void> {
    const row = (await tx.maybeOne(compiledQuery({
      text: 'SELECT is_default AS "isDefault" FROM platform.locales WHERE project_id = $1 AND code = $2 FOR UPDATE',
      values: [project.id, code],
    }))) as { isDefault: boolean } | null;
    if (!row) throw new NotFoundError();
    if (row.isDefault) throw new ApplicationError('The default locale cannot be deleted');
    await deleteLocaleContent(tenant, project.schemaName, physical, code);
    await tx.query(compiledQuery({ text: 'DELETE FROM platform.locales WHERE project_id = $1 AND code = $2', values: [project.id, code] }));
  }
}
