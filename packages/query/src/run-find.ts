// Running a plan once: the one statement of a list (page JSON + total), the one of a document,
// the count alone. Reads that recur go through the read cache (read-cache.ts) instead.
import { compiledQuery, type CompiledSql, type Db } from '@cms/db';
import { compileRead } from './compiled-read.ts';
import type { FindResult } from './find-result.ts';
import type { QueryPlan } from './query-plan.ts';
import { bindParams } from './plan-values.ts';
import { totalTemplate } from './render-total.ts';
import { runTotal } from './total-cache.ts';

export type { FindResult };

export function runFind(db: Db, plan: QueryPlan): Promise<FindResult> {
  return compileRead(plan).find(db);
}

/** The document as JSON object text, or null when there is none. */
export function runFindOne(db: Db, plan: QueryPlan, documentId: string | null): Promise<string | null> {
  return compileRead(plan).findOne(db, documentId);
}

/** `runFindOne`'s statement, to run inside another (a write's answer, read in the write's last statement). */
export function findOneStatement(plan: QueryPlan, documentId: string | null): CompiledSql {
  return compileRead(plan).findOneSql(documentId);
}

/** How many rows the plan's list matches, whatever its page (`GET /api/users/count`). */
export async function runCount(db: Db, plan: QueryPlan): Promise<number> {
  const t = totalTemplate(plan);
  return (await runTotal(db, { kind: t.kind, offset: t.offset, text: t.text, values: bindParams(t.params, plan.values) })).total;
}
