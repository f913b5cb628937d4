// A plan's document limit, made to hold under concurrent creates on any number of instances.
//
// platform.document_quota keeps, per project, `at_most`: an upper bound of its document count.
// Every create of a new document raises it by one as the last statement of its own transaction
// (`UPDATE … SET at_most = at_most + 1`), which locks the project's row until that transaction
// ends: creates of one project pass this point one at a time, across every gateway, for the
// length of a commit. While the bound is within the limit the create goes through without
// counting anything. Past it — near the limit only — the documents are counted exactly (this
// transaction's own new one included, everything committed before the lock was granted
// included), the bound is reset to that count, and the create is refused if the count passes the
// limit: its transaction rolls back, document and bound with it. So the limit is never passed,
// by any number of gateways (the issue allows one document per gateway).
//
// Deletes leave the bound alone (it stays an upper bound); it is counted again when it reaches
// the limit. A model change can turn one document into several (a type made non-localized), so
// the bound is valid for the model version it was counted at only.
import { column, exec, type Db } from '@cms/db';
import { ForbiddenError } from '@cms/errors';
import { documentCountSql } from './document-count.ts';
import { effectivePlan, type PlanHolder } from './effective-plan.ts';
import { planLimits } from './plans.ts';

/** The model version a create runs on: its content tables are where documents are counted. */
export interface QuotaModel {
  schemaName: string;
  version: number;
  physical: { contentTypes: Record<string, { table: string }> };
}

/** What a create runs last in its transaction (see @cms/documents `DocumentStore.admitDocument`). */
export type DocumentAdmission = (tx: Db) => Promise<void>;

export class DocumentQuota {
  /** Projects whose bound this process has counted once: bounds are only kept while limits are enforced. */
  private readonly counted = new Set<number>();

  /**
   * `enforced`: refuse creates past the plan's limit (PLAN_LIMITS). Without it creates pay
   * nothing here (no row lock, no serialisation), and the bounds go stale; so an enforcing
   * process trusts a project's bound only after counting it once itself.
   */
  constructor(private readonly enforced: boolean) {}

  admission(project: PlanHolder & { id: number }, model: QuotaModel): DocumentAdmission | undefined {
    if (!this.enforced) return undefined;
    const plan = effectivePlan(project);
    const max = planLimits(plan).documents;
    return async (tx) => {
      const values = [project.id, model.version];
      if (this.counted.has(project.id)) {
        const [raised] = await column(tx,
          'UPDATE platform.document_quota SET at_most = at_most + 1 WHERE project_id = $1 AND model_version = $2 RETURNING at_most', values);
        if (raised !== undefined && Number(raised) <= max) return;
      }
      // No bound for this model yet, or past the limit: count, holding the row (created if need be).
      await exec(tx, `INSERT INTO platform.document_quota (project_id, model_version, at_most) VALUES ($1, $2, 0)
        ON CONFLICT (project_id) DO UPDATE SET model_version = EXCLUDED.model_version`, values);
      const tables = Object.values(model.physical.contentTypes).map((t) => t.table);
      const [counted] = await column(tx, `SELECT ${documentCountSql(model.schemaName, tables)}`);
      const documents = Number(counted);
      await exec(tx, 'UPDATE platform.document_quota SET at_most = $2 WHERE project_id = $1', [project.id, documents]);
      this.counted.add(project.id);
      if (documents > max) {
        throw new ForbiddenError(`This project has reached its ${plan} plan's limit of ${max} documents: upgrade the plan or delete documents`, {
          limit: 'documents', plan, max,
        });
      }
    };
  }
}
