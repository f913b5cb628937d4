// The `/usage` report: real counts from the database (and this instance's unflushed requests).
import { compiledQuery, qualify, type Db } from '@cms/db';
import { documentCountSql } from './document-count.ts';
import { effectivePlan, type PlanHolder } from './effective-plan.ts';
import { planLimits, type PlanLimits } from './plans.ts';
import { currentPeriod, type UsageMeter } from './usage-meter.ts';

export interface UsageReport {
  period: string;
  requests: number;
  storageBytes: number;
  /** The project's content history on disk: its two tables with their indexes and TOAST. */
  historyBytes: number;
  documents: number;
  limits: PlanLimits;
}

export async function usageReport(
  db: Db,
  meter: UsageMeter,
  project: PlanHolder & { id: number; schemaName: string },
  contentTables: string[],
  tenantDb: Db = db,
): Promise<UsageReport> {
  const { period, monthStart } = currentPeriod();
  // `tenantDb`: the pool of the project's cluster, where its files and documents are.
  const requests = (await db.oneFirst(compiledQuery({
    text: 'SELECT COALESCE((SELECT requests FROM platform.usage_counters WHERE project_id = $1 AND period = $2::date), 0)',
    values: [project.id, monthStart],
  }))) as number | string;
  const row = (await tenantDb.one(compiledQuery({
    text: `SELECT
      COALESCE((SELECT round(sum(size) * 1000) FROM ${qualify(project.schemaName, 'files')}), 0) AS "storageBytes",
      COALESCE(pg_total_relation_size(to_regclass($1)), 0) + COALESCE(pg_total_relation_size(to_regclass($2)), 0) AS "historyBytes",
      ${documentCountSql(project.schemaName, contentTables)} AS documents`,
    // Sizes from the catalog, not a scan: the tables as Postgres stores them (dead rows until vacuumed included).
    values: [qualify(project.schemaName, 'history_versions'), qualify(project.schemaName, 'history_schemas')],
  }))) as { storageBytes: number | string; historyBytes: number | string; documents: number | string };
  return {
    period,
    requests: Number(requests) + meter.unflushed(project.id),
    storageBytes: Number(row.storageBytes),
    historyBytes: Number(row.historyBytes),
    documents: Number(row.documents),
    limits: planLimits(effectivePlan(project)),
  };
}
