// Running a plan once: the two statements of a list (page JSON + count), the one of a document.
// Servers that see the same query shape again keep a `compileRead` instead.
import type { Db } from '@cms/db';
import { compileRead } from './compiled-read.ts';
import type { FindResult } from './find-result.ts';

export type { FindResult };
import type { QueryPlan } from './query-plan.ts';


export function runFind(db: Db, plan: QueryPlan): Promise<FindResult> {
  return compileRead(plan).find(db);
}

/** The document as JSON object text, or null when there is none. */
export function runFindOne(db: Db, plan: QueryPlan, documentId: string | null): Promise<string | null> {
  return compileRead(plan).findOne(db, documentId);
}
