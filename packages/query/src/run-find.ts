// Running a plan: the two statements of a list (page JSON + count), the one of a document.
// Callers that cache counts can run `renderFind(plan).data` themselves instead.
import { compiledQuery, type Db } from '@cms/db';
import type { QueryPlan } from './query-plan.ts';
import { renderFind, renderFindOne } from './render-find.ts';

export interface FindResult {
  /** The page as JSON array text, ready to splice into `{"data":…}`. */
  json: string;
  /** null when `withCount` is false */
  total: number | null;
}

export async function runFind(db: Db, plan: QueryPlan): Promise<FindResult> {
  const { data, count } = renderFind(plan);
  const [json, total] = await Promise.all([
    db.oneFirst(compiledQuery(data)) as Promise<unknown>,
    count ? (db.oneFirst(compiledQuery(count)) as Promise<unknown>) : Promise.resolve(null),
  ]);
  return { json: String(json), total: total === null ? null : Number(total) };
}

/** The document as JSON object text, or null when there is none. */
export async function runFindOne(db: Db, plan: QueryPlan, documentId: string | null): Promise<string | null> {
  const value = await db.maybeOneFirst(compiledQuery(renderFindOne(plan, documentId)));
  return value === null ? null : String(value);
}
