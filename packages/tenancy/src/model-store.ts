// A project's content model lives in platform.schema_versions. A push validates the new model,
// diffs it against the current one, applies the migration in the project schema, and records
// the new version — all in one transaction — then invalidates the project on every instance.
import { compiledQuery, type Db } from '@cms/db';
import { ApplicationError } from '@cms/errors';
import { applyMigration, isDestructive, planMigration, syncModelIndexes, type MigrationPlan } from '@cms/ddl';
import { parseModel, type Model, type RawModel } from '@cms/schema';
import type { DatabasePool } from 'slonik';
import { clusterOf, projectPool, projectTransaction, singleCluster, type ClusterPools } from './clusters.ts';
import type { ProjectRecord } from './project-record.ts';
import type { ProjectRegistry } from './registry.ts';

export interface ModelVersion {
  version: number;
  raw: RawModel;
}

export interface PushResult extends ModelVersion {
  changed: boolean;
  steps: MigrationPlan['steps'];
}

export interface PushOptions {
  renames?: Record<string, Record<string, string>>;
  /** Refuse (409) unless the model is still at this version: an editor's stale copy never wins. */
  expectedVersion?: number;
}

/** One step of a rehearsed push, as a model editor shows it before applying. */
export interface PlannedChange {
  op: string;
  /** uid of the content type or component */
  type: string;
  attribute: string | null;
  description: string;
  /** applying it deletes stored data */
  destructive: boolean;
}

export type ModelChange = RawModel | ((current: RawModel) => RawModel);

const EMPTY: RawModel = { contentTypes: {}, components: {} };
// Migrations may rewrite big tables; the pool's per-statement limit is meant for API queries.
const MIGRATION_STATEMENT_TIMEOUT = '5min';

export function toRawModel(input: { contentTypes?: unknown; components?: unknown }): RawModel {
  return {
    contentTypes: (input.contentTypes ?? {}) as RawModel['contentTypes'],
    components: (input.components ?? {}) as RawModel['components'],
  };
}

export class ModelStore {
  /**
   * `checks` are what the API layers require of a model beyond its own validity (e.g. GraphQL
   * names that do not collide); each throws (or rejects with) a ValidationError to refuse the push.
   */
  constructor(
    private readonly pool: DatabasePool,
    private readonly registry: ProjectRegistry,
    private readonly checks: ReadonlyArray<(model: Model) => void | Promise<void>> = [],
    private readonly pools: ClusterPools = singleCluster(pool),
  ) {}

  async current(projectId: number, db: Db = this.pool): Promise<ModelVersion> {
    const row = (await db.maybeOne(compiledQuery({
      text: `SELECT v.version, v.model FROM platform.projects p
             JOIN platform.schema_versions v ON v.project_id = p.id AND v.version = p.model_version
             WHERE p.id = $1`,
      values: [projectId],
    }))) as { version: number; model: RawModel } | null;
    return row ? { version: row.version, raw: row.model } : { version: 0, raw: EMPTY };
  }

  private async validate(raw: RawModel): Promise<Model> {
    const model = parseModel(raw);
    for (const check of this.checks) await check(model);
    return model;
  }

  /**
   * Make the project's model equal to `change` (declarative), or to `change(current)` computed
   * under the project's row lock, so concurrent partial edits never lose each other.
   * Throws ValidationError; nothing changes then.
   */
  async push(project: ProjectRecord, change: ModelChange, options: PushOptions = {}): Promise<PushResult> {
    // A whole model is validated before taking the lock; a derived one once it is computed.
    if (typeof change !== 'function') await this.validate(change);
    const result = await projectTransaction(this.pools, project, (tx, tenant) => this.migrate(tx, tenant, project, change, options));
    if (result.changed) await this.registry.invalidate({ projectId: project.id, slug: project.slug, scope: 'model' });
    await this.buildIndexes(project, result);
    return result;
  }

  /**
   * The model's indexes on tables with rows, built CONCURRENTLY now that the migration committed
   * (writes go on meanwhile); a push also rebuilds any left INVALID by a failed build.
   */
  private async buildIndexes(project: ProjectRecord, result: PushResult): Promise<void> {
    try {
      await syncModelIndexes(projectPool(this.pools, project), project.schemaName, parseModel(result.raw), result.steps);
    } catch (error) {
      throw new ApplicationError(
        `The model is applied (version ${result.version}), but building its indexes failed (${(error as Error).message}); apply it again to retry`,
        { version: result.version }, 503);
    }
  }

  /**
   * Run the push in a transaction that is always rolled back: the steps it would take, or the
   * refusal it would end with (data that would be lost is only known by trying), changing nothing.
   */
  async rehearse(project: ProjectRecord, change: ModelChange, options: PushOptions = {}): Promise<{ changed: boolean; changes: PlannedChange[] }> {
    if (typeof change !== 'function') await this.validate(change);
    try {
      await projectTransaction(this.pools, project, async (tx, tenant) => {
        throw new Rehearsal(await this.migrate(tx, tenant, project, change, options));
      });
    } catch (error) {
      if (!(error instanceof Rehearsal)) throw error;
      const changes = error.result.steps.map((step) => ({
        op: step.op, type: step.type, attribute: 'attribute' in step ? step.attribute : null, description: step.description, destructive: isDestructive(step),
      }));
      return { changed: error.result.changed, changes };
    }
    throw new Error('unreachable: a rehearsal always rolls back');
  }

  /**
   * Whether the change would delete data, planned against the current model without touching
   * the project's tables (no lock, no migration run), and the version it was planned against.
   */
  async plannedAgainst(projectId: number, change: ModelChange, options: PushOptions = {}): Promise<{ version: number; destructive: boolean }> {
    const current = await this.current(projectId);
    const input = typeof change === 'function' ? change(current.raw) : change;
    const next = await this.validate(input);
    const plan = planMigration(parseModel(current.raw), next, { renames: options.renames });
    return { version: current.version, destructive: plan.steps.some(isDestructive) };
  }

  /** `tx` on the control plane, `tenant` on the project's cluster (the same transaction on `main`). */
  private async migrate(tx: Db, tenant: Db, project: ProjectRecord, change: ModelChange, options: PushOptions): Promise<PushResult> {
    // Serialise pushes of one project: the row lock is held until commit (a move takes it too).
    const locked = (await tx.maybeOne(compiledQuery({
      text: 'SELECT model_version, default_locale, schema_name, cluster FROM platform.projects WHERE id = $1 FOR UPDATE',
      values: [project.id],
    }))) as { model_version: number; default_locale: string; schema_name: string; cluster: string } | null;
    if (!locked) throw new Error(`project ${project.id} vanished during a schema push`);
    if (locked.cluster !== clusterOf(project)) {
      throw new ApplicationError('The project was just moved to another database cluster: apply the change again', {}, 409);
    }
    const current = await this.current(project.id, tx);
    if (options.expectedVersion !== undefined && options.expectedVersion !== current.version) {
      throw new ApplicationError(`The model changed since version ${options.expectedVersion} (it is now version ${current.version}): reload it and apply again`, { version: current.version }, 409);
    }
    const input = typeof change === 'function' ? change(current.raw) : change;
    const next = await this.validate(input);
    // Compare as text: key order is meaningful (attribute order is the response order).
    if (JSON.stringify(current.raw) === JSON.stringify(input)) return { ...current, changed: false, steps: [] };
    const plan = planMigration(parseModel(current.raw), next, { renames: options.renames });
    await tenant.query(compiledQuery({ text: `SET LOCAL statement_timeout = '${MIGRATION_STATEMENT_TIMEOUT}'`, values: [] }));
    await applyMigration(tenant, locked.schema_name, plan, { defaultLocale: locked.default_locale });
    const version = locked.model_version + 1;
    await tx.query(compiledQuery({
      text: 'INSERT INTO platform.schema_versions (project_id, version, model, migration) VALUES ($1, $2, $3::json, $4::jsonb)',
      values: [project.id, version, JSON.stringify(input), JSON.stringify(plan.steps)],
    }));
    await tx.query(compiledQuery({ text: 'UPDATE platform.projects SET model_version = $2 WHERE id = $1', values: [project.id, version] }));
    return { version, raw: input, changed: true, steps: plan.steps };
  }
}

/** Carries a rehearsed push's result out of the transaction it rolls back. */
class Rehearsal {
  constructor(readonly result: PushResult) {}
}
