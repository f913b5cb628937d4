// A project's locales. Deleting one also deletes that locale's content.
import { compiledQuery, qualify, type Db } from '@cms/db';
import { deleteVersionRows, type PhysicalModel } from '@cms/ddl';
import { ApplicationError, NotFoundError } from '@cms/errors';
import type { DatabasePool } from 'slonik';
import { localeName, normaliseLocaleCode } from './locale-codes.ts';
import type { ProjectRecord } from './project-record.ts';
import type { LocaleRecord, ProjectRegistry } from './registry.ts';

const COLUMNS = `code, name, is_default AS "isDefault", created_at AS "createdAt"`;

export class LocaleService {
  constructor(private readonly pool: DatabasePool, private readonly registry: ProjectRegistry) {}

  async list(projectId: number, db: Db = this.pool): Promise<LocaleRecord[]> {
    return (await db.any(compiledQuery({ text: `SELECT ${COLUMNS} FROM platform.locales WHERE project_id = $1 ORDER BY created_at, code`, values: [projectId] }))) as unknown as LocaleRecord[];
  }

  async add(project: ProjectRecord, input: { code: unknown; name?: string; isDefault?: boolean }): Promise<LocaleRecord> {
    const code = normaliseLocaleCode(input.code);
    const locale = await this.pool.transaction(async (tx) => {
      const row = (await tx.maybeOne(compiledQuery({
        text: `INSERT INTO platform.locales (project_id, code, name) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
        values: [project.id, code, input.name?.trim() || localeName(code)],
      }))) as LocaleRecord | null;
      if (!row) throw new ApplicationError(`The locale "${code}" already exists`, {}, 409);
      if (input.isDefault) {
        await tx.query(compiledQuery({ text: 'UPDATE platform.locales SET is_default = (code = $2) WHERE project_id = $1', values: [project.id, code] }));
        await tx.query(compiledQuery({ text: 'UPDATE platform.projects SET default_locale = $2 WHERE id = $1', values: [project.id, code] }));
        row.isDefault = true;
      }
      return row;
    });
    await this.registry.invalidate({ projectId: project.id, slug: project.slug, scope: 'project' });
    return locale;
  }

  /** Removes the locale and every content row in it (links cascade; component rows are deleted with their owners). */
  async remove(project: ProjectRecord, code: string, physical: PhysicalModel): Promise<void> {
    await this.pool.transaction(async (tx) => {
      const row = (await tx.maybeOne(compiledQuery({
        text: 'SELECT is_default AS "isDefault" FROM platform.locales WHERE project_id = $1 AND code = $2 FOR UPDATE',
        values: [project.id, code],
      }))) as { isDefault: boolean } | null;
      if (!row) throw new NotFoundError();
      if (row.isDefault) throw new ApplicationError('The default locale cannot be deleted');
      for (const type of Object.values(physical.contentTypes)) {
        if (!type.localized) continue;
        const ids = (await tx.anyFirst(compiledQuery({
          text: `SELECT id FROM ${qualify(project.schemaName, type.table)} WHERE locale = $1`,
          values: [code],
        }))) as number[];
        if (ids.length) await deleteVersionRows(tx, project.schemaName, physical, type.uid, ids);
      }
      // Links from other rows to versions in this locale point at nothing now.
      for (const link of Object.values(physical.linkTables)) {
        if (link.kind !== 'relation' || !link.targetLocalized) continue;
        await tx.query(compiledQuery({ text: `DELETE FROM ${qualify(project.schemaName, link.name)} WHERE target_locale = $1`, values: [code] }));
      }
      await tx.query(compiledQuery({ text: 'DELETE FROM platform.locales WHERE project_id = $1 AND code = $2', values: [project.id, code] }));
    });
    await this.registry.invalidate({ projectId: project.id, slug: project.slug, scope: 'project' });
  }
}
