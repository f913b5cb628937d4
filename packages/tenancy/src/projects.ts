// Projects: each owns Postgres schema `t_{id}`. Create and delete are single transactions.
import { randomBytes } from 'node:crypto';
import { compiledQuery, quoteIdent, runMigrationsIn, type Db } from '@cms/db';
import { baseMigrationsFor } from '@cms/ddl';
import { ApplicationError, NotFoundError, ValidationError } from '@cms/errors';
import type { DatabasePool } from 'slonik';
import { copyControlRows, placeProject, projectTransaction, singleCluster, type ClusterPools } from './clusters.ts';
import { localeName, normaliseLocaleCode } from './locale-codes.ts';
import { isNewProjectSlug, MAX_SLUG_LENGTH, PROJECT_COLUMNS, schemaNameFor, type MemberProject, type ProjectRecord } from './project-record.ts';
import type { ProjectRegistry } from './registry.ts';
import type { SpareSchemas } from './spare-schemas.ts';
import { hasControlCharacters } from './text-checks.ts';

export interface CreateProjectInput {
  name: string;
  slug?: string;
  defaultLocale?: string;
  /**
   * A staged project (an in-place restore writes into one, then takes its schema): on the
   * cluster and plan of the project it stands in for (its limits apply), with no member, so no
   * account sees it.
   */
  stagedFor?: ProjectRecord;
  /**
   * An environment of `stagedFor` (environments.ts): its slug is `{parent}--{name}` (given as
   * `slug`, past the rule of new projects' slugs), status `copying`; its members are the parent's.
   */
  environmentName?: string;
}

/** Called inside the creating transaction (roles, …) so a project never exists half-made. */
export type ProjectInitializer = (tx: Db, project: ProjectRecord) => Promise<void>;

/** `name` → a slug of the contract's form (`project…` when the name has too few usable letters). */
export function slugFromName(name: string): string {
  let slug = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^[^a-z]+/, '').replace(/-+$/, '');
  slug = slug.slice(0, 40).replace(/-+$/, '');
  if (slug.length < 3) slug = `project${slug ? `-${slug}` : ''}`;
  return slug;
}

/** Projects joined with the membership of the account `$1` (its role in each). Environments have no members of their own. */
export const MEMBER_PROJECTS = `SELECT ${PROJECT_COLUMNS}, m.role FROM platform.projects
  JOIN (SELECT project_id, role FROM platform.project_members WHERE account_id = $1) m ON m.project_id = projects.id
  WHERE projects.deleted_at IS NULL`;

/**
 * Project `$2` (by slug) with the role of the account `$1` in it: an environment's members are its
 * parent's, with the same role, and it carries its parent's slug and name.
 */
const MEMBER_PROJECT_BY_SLUG = `SELECT ${PROJECT_COLUMNS}, m.role,
    CASE WHEN projects.parent_id IS NULL THEN NULL ELSE (SELECT json_build_object('slug', pp.slug, 'name', pp.name) FROM platform.projects pp WHERE pp.id = projects.parent_id) END AS parent
  FROM platform.projects
  CROSS JOIN LATERAL (SELECT role FROM platform.project_members WHERE account_id = $1 AND project_id = COALESCE(projects.parent_id, projects.id)) m
  WHERE projects.slug = $2 AND projects.deleted_at IS NULL`;

/** How long a deleted project can be restored by its owners before it is purged. */
export const RESTORE_WINDOW_DAYS = 7;

/** A deleted project with when it was deleted and when it will be purged. */
export interface DeletedProject extends MemberProject {
  deletedAt: string;
  purgeAt: string;
}

/** The deleted, still restorable projects the account `$1` owns (`$2`: the window in days). */
const DELETED_PROJECTS = `SELECT ${PROJECT_COLUMNS}, m.role,
    to_char(projects.deleted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "deletedAt",
    to_char((projects.deleted_at + make_interval(days => $2)) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "purgeAt"
  FROM platform.projects
  JOIN (SELECT project_id, role FROM platform.project_members WHERE account_id = $1 AND role = 'owner') m ON m.project_id = projects.id
  WHERE projects.deleted_at > now() - make_interval(days => $2) AND projects.parent_id IS NULL`;

/** Called after a project was purged, for what lives outside Postgres (media objects, archives). */
export type ProjectFinalizer = (project: ProjectRecord) => Promise<void>;

export class ProjectService {
  constructor(
    private readonly pool: DatabasePool,
    private readonly registry: ProjectRegistry,
    private readonly initializers: ProjectInitializer[] = [],
    private readonly finalizers: ProjectFinalizer[] = [],
    private readonly pools: ClusterPools = singleCluster(pool),
    private readonly spares: SpareSchemas | null = null,
  ) {}

  /**
   * A new project; its creator is its first owner. It goes to the cluster the placement policy
   * picks (clusters.ts `placeProject`); operators pin a project elsewhere by moving it.
   */
  async create(accountId: number, input: CreateProjectInput): Promise<MemberProject> {
    const name = input.name.trim();
    if (!name || name.length > 100) {
      throw ValidationError.fromFieldErrors([{ path: ['name'], message: 'name must be between 1 and 100 characters', name: 'ValidationError' }]);
    }
    if (hasControlCharacters(name)) {
      throw ValidationError.fromFieldErrors([{ path: ['name'], message: 'name must not contain control characters', name: 'ValidationError' }]);
    }
    // `--` is kept for environments' slugs (`{parent}--{name}`): no project can take one.
    if (input.slug !== undefined && input.environmentName === undefined && !isNewProjectSlug(input.slug)) {
      throw ValidationError.fromFieldErrors([{
        path: ['slug'], message: 'slug must match ^[a-z][a-z0-9-]{1,38}[a-z0-9]$ and must not contain "--"', name: 'ValidationError', value: input.slug.slice(0, 100),
      }]);
    }
    const defaultLocale = normaliseLocaleCode(input.defaultLocale ?? 'en', ['defaultLocale']);
    const staged = input.stagedFor;
    const cluster = staged?.cluster ?? await placeProject(this.pools);
    for (let attempt = 0; attempt < 5; attempt++) {
      const slug = input.slug ?? (attempt === 0 ? slugFromName(name) : `${slugFromName(name).slice(0, 33).replace(/-+$/, '')}-${randomBytes(3).toString('hex')}`);
      const created = await this.tryCreate(accountId, name, slug, defaultLocale, cluster, staged, input.environmentName);
      if (created) {
        this.spares?.refill(cluster);
        await this.registry.invalidate({ projectId: created.id, slug, scope: 'project' });
        return created;
      }
      if (input.environmentName !== undefined) throw new ApplicationError(`The environment name "${input.environmentName}" is already taken`, {}, 409);
      if (input.slug !== undefined) throw new ApplicationError(`The slug "${slug}" is already taken`, {}, 409);
    }
    throw new ApplicationError('Could not find a free slug; please choose one', {}, 409);
  }

  private async tryCreate(
    accountId: number, name: string, slug: string, defaultLocale: string, cluster: string, stagedFor: ProjectRecord | undefined,
    environmentName: string | undefined,
  ): Promise<MemberProject | null> {
    // The control rows and the project's schema commit together (the schema first, when it is
    // on another cluster: see projectTransaction).
    return projectTransaction(this.pools, { cluster }, async (tx, tenant) => {
      const inserted = (await tx.maybeOne(compiledQuery({
        text: `INSERT INTO platform.projects (account_id, slug, name, default_locale, schema_name, cluster)
               VALUES ($1, $2, $3, $4, 'pending:' || $2, $5) ON CONFLICT (slug) DO NOTHING RETURNING id`,
        values: [accountId, slug, name, defaultLocale, cluster],
      }))) as { id: number } | null;
      if (!inserted) return null;
      const schema = schemaNameFor(inserted.id);
      const base = baseMigrationsFor(schema);
      const project = (await tx.one(compiledQuery({
        text: `UPDATE platform.projects SET schema_name = $2, base_version = $3, plan = coalesce($4, plan), plan_grace_until = $5,
                 parent_id = $6, environment_name = $7, environment_status = CASE WHEN $7::text IS NULL THEN NULL ELSE 'copying' END,
                 environment_heartbeat_at = CASE WHEN $7::text IS NULL THEN NULL ELSE now() END
               WHERE id = $1 RETURNING ${PROJECT_COLUMNS}`,
        values: [inserted.id, schema, base.length, stagedFor?.plan ?? null, stagedFor?.planGraceUntil ?? null,
          environmentName === undefined ? null : stagedFor!.id, environmentName ?? null],
      }))) as unknown as ProjectRecord;
      if (!stagedFor) {
        await tx.query(compiledQuery({
          text: "INSERT INTO platform.project_members (project_id, account_id, role) VALUES ($1, $2, 'owner')",
          values: [project.id, accountId],
        }));
      }
      // A spare schema made ahead (spare-schemas.ts), else built here.
      if (!(await this.spares?.claim(tenant, schema))) {
        await tenant.query(compiledQuery({ text: `CREATE SCHEMA ${quoteIdent(schema)}`, values: [] }));
        await runMigrationsIn(tenant, schema, base);
      }
      await tx.query(compiledQuery({
        text: 'INSERT INTO platform.locales (project_id, code, name, is_default) VALUES ($1, $2, $3, true)',
        values: [project.id, defaultLocale, localeName(defaultLocale)],
      }));
      for (const init of this.initializers) await init(tx, project);
      if (tenant !== tx) await copyControlRows(tx, tenant, project.id);
      return { ...project, role: 'owner' as const };
    });
  }

  /** The projects the account is a member of (any role), with its role in each. */
  async listForAccount(accountId: number): Promise<MemberProject[]> {
    // Environments (no members of their own) are reached through their parent, not listed.
    return (await this.pool.any(compiledQuery({ text: `${MEMBER_PROJECTS} ORDER BY id`, values: [accountId] }))) as unknown as MemberProject[];
  }

  /**
   * A project the account is a member of, by slug, with its role; 404 for unknown slugs and for
   * projects the account is no member of alike (no existence leak).
   */
  async getForAccount(accountId: number, slug: string): Promise<MemberProject> {
    const row = slug.length <= MAX_SLUG_LENGTH
      ? await this.pool.maybeOne(compiledQuery({ text: MEMBER_PROJECT_BY_SLUG, values: [accountId, slug] }))
      : null;
    if (!row) throw new NotFoundError();
    return row as unknown as MemberProject;
  }

  /** A new display name (the slug, and so every URL, stays). */
  async rename<P extends ProjectRecord>(project: P, name: string): Promise<P> {
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > 100) {
      throw ValidationError.fromFieldErrors([{ path: ['name'], message: 'name must be 1 to 100 characters', name: 'ValidationError', value: name.slice(0, 100) }]);
    }
    await this.pool.query(compiledQuery({ text: 'UPDATE platform.projects SET name = $2 WHERE id = $1', values: [project.id, trimmed] }));
    await this.registry.invalidate({ projectId: project.id, slug: project.slug, scope: 'project' });
    return { ...project, name: trimmed };
  }

  /** Replace one section of the project's settings (e.g. `graphql`); every instance sees it within the invalidation. */
  async updateSettings(project: ProjectRecord, section: string, value: unknown): Promise<void> {
    await this.pool.query(compiledQuery({
      text: 'UPDATE platform.projects SET settings = jsonb_set(settings, ARRAY[$2::text], $3::jsonb) WHERE id = $1',
      values: [project.id, section, JSON.stringify(value)],
    }));
    await this.registry.invalidate({ projectId: project.id, slug: project.slug, scope: 'project' });
  }

  /**
   * Deleting a project: it answers 404 at once on every instance, and everything it holds stays
   * (schema, media, tokens, archives) for RESTORE_WINDOW_DAYS, restorable by its owners; `purge`
   * drops it then.
   */
  async delete(project: ProjectRecord): Promise<void> {
    await this.pool.query(compiledQuery({ text: 'UPDATE platform.projects SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL', values: [project.id] }));
    await this.registry.invalidate({ projectId: project.id, slug: project.slug, scope: 'deleted' });
  }

  /** The account's deleted projects it owns and may still restore, the most recently deleted first. */
  async listDeletedForAccount(accountId: number): Promise<DeletedProject[]> {
    return (await this.pool.any(compiledQuery({ text: `${DELETED_PROJECTS} ORDER BY deleted_at DESC, id`, values: [accountId, RESTORE_WINDOW_DAYS] }))) as unknown as DeletedProject[];
  }

  /** One of them by slug; 404 like any project the account cannot see. */
  async getDeletedForAccount(accountId: number, slug: string): Promise<DeletedProject> {
    const row = slug.length <= 40
      ? await this.pool.maybeOne(compiledQuery({ text: `${DELETED_PROJECTS} AND slug = $3`, values: [accountId, RESTORE_WINDOW_DAYS, slug] }))
      : null;
    if (!row) throw new NotFoundError();
    return row as unknown as DeletedProject;
  }

  /** A deleted project back as it was (its slug was kept for it); false when it was not deleted. */
  async restore(project: ProjectRecord): Promise<boolean> {
    const restored = await this.pool.maybeOne(compiledQuery({
      text: 'UPDATE platform.projects SET deleted_at = NULL WHERE id = $1 AND deleted_at IS NOT NULL RETURNING id', values: [project.id],
    }));
    await this.registry.invalidate({ projectId: project.id, slug: project.slug, scope: 'project' });
    return restored !== null;
  }

  /**
   * Project `id`'s slug and whether it is deleted (restorable), or null when there is no such
   * project: what background work holding only an id (a schedule) needs to find it again.
   */
  async slugOf(id: number): Promise<{ slug: string; deleted: boolean } | null> {
    const row = await this.pool.maybeOne(compiledQuery({
      text: 'SELECT slug, deleted_at IS NOT NULL AS deleted FROM platform.projects WHERE id = $1', values: [id],
    }));
    return row as { slug: string; deleted: boolean } | null;
  }

  /** Deleted projects past their restore window at `now`, oldest first (the purge job's work). */
  async expiredDeleted(now: Date, limit = 50): Promise<ProjectRecord[]> {
    return (await this.pool.any(compiledQuery({
      text: `SELECT ${PROJECT_COLUMNS} FROM platform.projects WHERE deleted_at IS NOT NULL AND deleted_at < $1::timestamptz - make_interval(days => $2)
             ORDER BY deleted_at LIMIT $3`,
      values: [now.toISOString(), RESTORE_WINDOW_DAYS, limit],
    }))) as unknown as ProjectRecord[];
  }

  /**
   * An in-place restore's switch, in one control-plane transaction: `live` takes the schema of
   * `staged` (the restored content), its model (as a new model version), its locales and default
   * locale, and the end-user roles it lacks; `staged` takes `live`'s previous schema, for the
   * caller to purge. Both must be on the same cluster. Every instance then reloads `live`.
   */
  async adoptStagedSchema(live: ProjectRecord, staged: ProjectRecord): Promise<void> {
    await this.pool.transaction(async (tx) => {
      const rows = (await tx.any(compiledQuery({
        text: 'SELECT id::int AS id, schema_name AS "schemaName", model_version AS "modelVersion", cluster FROM platform.projects WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE',
        values: [[live.id, staged.id]],
      }))) as unknown as Array<{ id: number; schemaName: string; modelVersion: number; cluster: string }>;
      const l = rows.find((r) => r.id === live.id);
      const s = rows.find((r) => r.id === staged.id);
      if (!l || !s) throw new NotFoundError();
      if (l.cluster !== s.cluster) throw new ApplicationError('A restore must stage the project on its own cluster', {}, 409);
      const run = (text: string, values: unknown[]) => tx.query(compiledQuery({ text, values }));
      await run(`INSERT INTO platform.schema_versions (project_id, version, model)
                 SELECT $1, $2, model FROM platform.schema_versions WHERE project_id = $3 AND version = $4`, [l.id, l.modelVersion + 1, s.id, s.modelVersion]);
      // schema_name is unique: through a placeholder, one row at a time.
      await run("UPDATE platform.projects SET schema_name = 'swap:' || id WHERE id = $1", [s.id]);
      await run(`UPDATE platform.projects SET schema_name = $2, model_version = $3,
                   default_locale = (SELECT default_locale FROM platform.projects WHERE id = $4) WHERE id = $1`, [l.id, s.schemaName, l.modelVersion + 1, s.id]);
      await run('UPDATE platform.projects SET schema_name = $2 WHERE id = $1', [s.id, l.schemaName]);
      await run('DELETE FROM platform.locales WHERE project_id = $1', [l.id]);
      await run(`INSERT INTO platform.locales (project_id, code, name, is_default, created_at)
                 SELECT $1, code, name, is_default, created_at FROM platform.locales WHERE project_id = $2`, [l.id, s.id]);
      await run(`INSERT INTO platform.roles (project_id, type, name, description, permissions)
                 SELECT $1, type, name, description, permissions FROM platform.roles WHERE project_id = $2 ON CONFLICT (project_id, type) DO NOTHING`, [l.id, s.id]);
    });
    await this.registry.invalidate({ projectId: live.id, slug: live.slug, scope: 'model' });
    await this.registry.invalidate({ projectId: staged.id, slug: staged.slug, scope: 'model' });
  }

  /** Drop the project and everything it holds (schema, control rows, then the finalizers: media and archives). */
  async purge(project: ProjectRecord): Promise<void> {
    await projectTransaction(this.pools, project, async (tx, tenant) => {
      await tenant.query(compiledQuery({ text: `DROP SCHEMA IF EXISTS ${quoteIdent(project.schemaName)} CASCADE`, values: [] }));
      // On another cluster: its copies of the project's control rows, outbox and quota too.
      if (tenant !== tx) await tenant.query(compiledQuery({ text: 'DELETE FROM platform.projects WHERE id = $1', values: [project.id] }));
      await tx.query(compiledQuery({ text: 'DELETE FROM platform.projects WHERE id = $1', values: [project.id] }));
    });
    await this.registry.invalidate({ projectId: project.id, slug: project.slug, scope: 'deleted' });
    for (const finalize of this.finalizers) await finalize(project);
  }
}

/**
 * Bring every project schema created before the newest base migration up to date (run at
 * start; each schema is migrated under its own advisory lock, so instances may start together).
 * Resolves with how many projects were upgraded.
 */
export async function upgradeProjectSchemas(pool: DatabasePool, pools: ClusterPools = singleCluster(pool)): Promise<number> {
  const target = baseMigrationsFor('x').length;
  const stale = (await pool.any(compiledQuery({
    text: 'SELECT id, schema_name AS "schemaName", cluster FROM platform.projects WHERE base_version < $1 AND schema_name NOT LIKE \'pending:%\' ORDER BY id',
    values: [target],
  }))) as unknown as Array<{ id: number; schemaName: string; cluster: string }>;
  for (const project of stale) {
    await projectTransaction(pools, project, async (tx, tenant) => {
      await runMigrationsIn(tenant, project.schemaName, baseMigrationsFor(project.schemaName));
      await tx.query(compiledQuery({ text: 'UPDATE platform.projects SET base_version = $2 WHERE id = $1', values: [project.id, target] }));
    });
  }
  return stale.length;
}
