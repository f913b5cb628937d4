// Environments (management API § Environments): a project linked to its parent, made as a copy of
// it, slug `{parent}--{name}`. It is a project like any other (its own schema `t_{id}`, model,
// locales, roles, settings, media rows), on its parent's cluster and plan, whose members are its
// parent's (projects.ts MEMBER_PROJECTS). Not copied: API tokens, webhooks, billing, content
// history, releases and schedules, the audit log.
//
// The copy runs in the background of the process that was asked (a heartbeat marks it alive; a
// copy whose process died reads as failed):
// 1. the parent's locales, end-user roles and settings replace the new project's defaults;
// 2. the parent's model is pushed onto it (the DDL a model push runs);
// 3. one REPEATABLE READ transaction on their cluster copies every table's rows (@cms/ddl
//    `copySchemaRows`): one snapshot, and no lock a writer of the parent waits for;
// 4. if the parent's model changed meanwhile, the rows go and 2–3 run again.
import { copySchemaRows, removeCopiedRows } from '@cms/ddl';
import { column, compiledQuery, detached, exec, rows, type Db } from '@cms/db';
import { ApplicationError, NotFoundError, ValidationError } from '@cms/errors';
import type { DatabasePool } from 'slonik';
import { ClusterMirror, projectPool, type ClusterPools } from './clusters.ts';
import type { ModelStore } from './model-store.ts';
import { ENVIRONMENT_NAME_PATTERN, environmentSlug, PROJECT_COLUMNS, type ProjectRecord } from './project-record.ts';
import type { ProjectService } from './projects.ts';
import type { ProjectRegistry } from './registry.ts';

export type EnvironmentStatus = 'copying' | 'ready' | 'failed';

export interface EnvironmentRecord {
  id: number;
  name: string;
  slug: string;
  status: EnvironmentStatus;
  error: string | null;
  createdAt: string;
}

/** How often a running copy says it is alive, and past how long without it a copy reads as failed. */
const HEARTBEAT_MS = 10_000;
const STALE_SECONDS = 60;
/** Copies started again when the parent's model changed during one. */
const COPY_ATTEMPTS = 3;

const STALE = `environment_status = 'copying' AND environment_heartbeat_at < now() - make_interval(secs => ${STALE_SECONDS})`;
const STATUS = `CASE WHEN ${STALE} THEN 'failed' ELSE environment_status END`;
const ENVIRONMENT_COLUMNS = `id, environment_name AS name, slug, ${STATUS} AS status,
  CASE WHEN ${STALE} THEN 'the copy stopped: the process running it ended' ELSE environment_error END AS error,
  created_at AS "createdAt"`;

/**
 * The schemas of project `projectId`'s environments (they share its stored media objects), read
 * through `db` on the project's cluster: there, `platform.projects` is the control plane's, or
 * its mirror (clusters.ts) with `parent_id`; environments live on their parent's cluster.
 */
export async function environmentSchemas(db: Db, projectId: number): Promise<string[]> {
  return column(db, 'SELECT schema_name FROM platform.projects WHERE parent_id = $1', [projectId]);
}

export interface CopyReport {
  tables: number;
  rows: number;
  ms: number;
}

export class EnvironmentService {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly pools: ClusterPools,
    private readonly registry: ProjectRegistry,
    private readonly projects: ProjectService,
    private readonly models: ModelStore,
    private readonly onError: (err: unknown, environment: ProjectRecord) => void = () => {},
  ) {}

  private get pool(): DatabasePool {
    return this.pools.pool;
  }

  /** The parent's environments (any status), oldest first. */
  async list(parentId: number): Promise<EnvironmentRecord[]> {
    return rows<EnvironmentRecord>(this.pool,
      `SELECT ${ENVIRONMENT_COLUMNS} FROM platform.projects WHERE parent_id = $1 AND deleted_at IS NULL ORDER BY created_at, id`, [parentId]);
  }

  /** How many environments the parent has (what its plan's limit counts). */
  async count(parentId: number): Promise<number> {
    const [n] = await column(this.pool, 'SELECT count(*) FROM platform.projects WHERE parent_id = $1', [parentId]);
    return Number(n ?? 0);
  }

  /** One environment by name, as a project (404 when the parent has none of that name). */
  async projectOf(parentId: number, name: string): Promise<ProjectRecord & { environmentStatus: EnvironmentStatus }> {
    if (!ENVIRONMENT_NAME_PATTERN.test(name)) throw new NotFoundError('environment.notFound');
    const [row] = await rows<ProjectRecord & { environmentStatus: EnvironmentStatus }>(this.pool,
      `SELECT ${PROJECT_COLUMNS}, ${STATUS} AS "environmentStatus" FROM platform.projects WHERE parent_id = $1 AND environment_name = $2 AND deleted_at IS NULL`, [parentId, name]);
    if (!row) throw new NotFoundError('environment.notFound');
    return row;
  }

  /** The environments of `parentId` as projects (deleting the parent drops them). */
  async projectsOf(parentId: number): Promise<ProjectRecord[]> {
    return rows<ProjectRecord>(this.pool, `SELECT ${PROJECT_COLUMNS} FROM platform.projects WHERE parent_id = $1 ORDER BY id`, [parentId]);
  }

  /**
   * A new environment of `parent` named `name`, status `copying`; the copy starts in the
   * background. The caller checked the plan's limit.
   */
  async create(parent: ProjectRecord, name: string): Promise<EnvironmentRecord> {
    if (typeof name !== 'string' || !ENVIRONMENT_NAME_PATTERN.test(name)) {
      throw ValidationError.fromFieldErrors([{
        path: ['name'], message: 'name must match ^[a-z][a-z0-9-]{0,19}$', name: 'ValidationError', value: String(name).slice(0, 100),
      }]);
    }
    if (parent.parentId) throw new ValidationError('An environment cannot have environments of its own: create it from the parent project');
    const project = await this.projects.create(parent.accountId, {
      name: `${parent.name} (${name})`.slice(0, 100), slug: environmentSlug(parent.slug, name), defaultLocale: parent.defaultLocale,
      stagedFor: parent, environmentName: name,
    });
    // Read before the copy starts: the answer says `copying` however fast the copy is.
    const [record] = await rows<EnvironmentRecord>(this.pool, `SELECT ${ENVIRONMENT_COLUMNS} FROM platform.projects WHERE id = $1`, [project.id]);
    const run = detached(() => this.copy(project, parent).then(() => {}, (err: unknown) => this.onError(err, project)));
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
    return record!;
  }

  /** Resolves once the copies this process runs now have ended. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  /** Make `env` a copy of `parent`, marking it ready, or failed with the reason (and rethrowing). */
  async copy(env: ProjectRecord, parent: ProjectRecord): Promise<CopyReport> {
    const heartbeat = setInterval(() => {
      void exec(this.pool, 'UPDATE platform.projects SET environment_heartbeat_at = now() WHERE id = $1', [env.id]).catch(() => {});
    }, HEARTBEAT_MS);
    heartbeat.unref();
    try {
      await this.copyControlRows(env, parent);
      const report = await this.copyContent(env, parent);
      await exec(this.pool, "UPDATE platform.projects SET environment_status = 'ready', environment_error = NULL WHERE id = $1", [env.id]);
      await this.registry.invalidate({ projectId: env.id, slug: env.slug, scope: 'model' });
      return report;
    } catch (err) {
      const message = (err as Error)?.message ?? String(err);
      await exec(this.pool, "UPDATE platform.projects SET environment_status = 'failed', environment_error = $2 WHERE id = $1 AND environment_status = 'copying'",
        [env.id, message.slice(0, 1000)]).catch(() => {});
      await this.registry.invalidate({ projectId: env.id, slug: env.slug, scope: 'project' }).catch(() => {});
      throw err;
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Locales, end-user roles and settings of the parent (not its tokens, webhooks, billing). */
  private async copyControlRows(env: ProjectRecord, parent: ProjectRecord): Promise<void> {
    await this.pool.transaction(async (tx) => {
      await exec(tx, 'DELETE FROM platform.locales WHERE project_id = $1', [env.id]);
      await exec(tx, `INSERT INTO platform.locales (project_id, code, name, is_default, created_at)
        SELECT $1, code, name, is_default, created_at FROM platform.locales WHERE project_id = $2`, [env.id, parent.id]);
      await exec(tx, 'DELETE FROM platform.roles WHERE project_id = $1', [env.id]);
      await exec(tx, `INSERT INTO platform.roles (project_id, type, name, description, permissions)
        SELECT $1, type, name, description, permissions FROM platform.roles WHERE project_id = $2 ORDER BY id`, [env.id, parent.id]);
      await exec(tx, `UPDATE platform.projects e SET settings = p.settings, default_locale = p.default_locale
        FROM platform.projects p WHERE e.id = $1 AND p.id = $2`, [env.id, parent.id]);
    });
    // Another cluster keeps copies of the roles (a user's populated role).
    await new ClusterMirror(this.pools).sync(env.id);
    await this.registry.invalidate({ projectId: env.id, slug: env.slug, scope: 'project' });
  }

  private async copyContent(env: ProjectRecord, parent: ProjectRecord): Promise<CopyReport> {
    const pool = projectPool(this.pools, parent);
    for (let attempt = 1; ; attempt++) {
      const model = await this.models.current(parent.id);
      const schema = await this.schemaOf(parent.id);
      await this.models.push(env, model.raw);
      const started = performance.now();
      let copied;
      try {
        copied = await pool.transaction(async (tx) => {
          await tx.query(compiledQuery({ text: 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ', values: [] }));
          return copySchemaRows(tx, schema, env.schemaName);
        });
      } catch (err) {
        // A column or table the parent's model changed under the copy: start again on the new model.
        if (attempt >= COPY_ATTEMPTS || (await this.models.current(parent.id)).version === model.version) throw err;
        continue;
      }
      const ms = performance.now() - started;
      if ((await this.models.current(parent.id)).version === model.version) {
        return { tables: copied.length, rows: copied.reduce((n, t) => n + t.rows, 0), ms: Math.round(ms) };
      }
      if (attempt >= COPY_ATTEMPTS) throw new ApplicationError('The parent project\'s model kept changing during the copy: try again', {}, 409);
      await removeCopiedRows(pool, env.schemaName, copied.map((t) => t.table));
    }
  }

  /** The parent's schema now (an in-place restore swaps it). */
  private async schemaOf(projectId: number): Promise<string> {
    const [schema] = await column(this.pool, 'SELECT schema_name FROM platform.projects WHERE id = $1', [projectId]);
    if (!schema) throw new NotFoundError();
    return schema;
  }
}
