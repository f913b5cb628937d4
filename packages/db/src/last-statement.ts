// What a caller knows of its transaction that a pooled session (sessions.ts) can use to save work,
// marked in the async context of the calls it concerns:
// - its last statement: the transaction's COMMIT is sent with it, in the same write and round trip
//   (batched-statement.ts), and the COMMIT slonik sends when the handler returns costs nothing.
//   Only a transaction of the session's own (no savepoint in it) commits early; elsewhere the mark
//   is ignored. The caller must run nothing after it in the transaction, and fail nothing: the
//   change is committed.
// - that its statements look rows up by key (a document write): it runs with generic plans
//   (`plan_cache_mode`, set with its START). Postgres otherwise plans such a prepared write
//   again at every run when its generic plan's estimate is the worse (a write's `unnest` of its
//   link arrays is estimated at 100 rows): 0.3 ms of planning per create, for the same plan.
import { AsyncLocalStorage } from 'node:async_hooks';

const marked = new AsyncLocalStorage<true>();
const keyed = new AsyncLocalStorage<true>();

/** Run `statement` (one statement) as its transaction's last. */
export function lastInTransaction<T>(statement: () => Promise<T>): Promise<T> {
  return marked.run(true, statement);
}

/** Whether the statement being run was marked as its transaction's last. */
export function markedLast(): boolean {
  return marked.getStore() === true;
}

/** Run `transaction` (one transaction, started in it) with generic plans for its prepared statements. */
export function withGenericPlans<T>(transaction: () => Promise<T>): Promise<T> {
  return keyed.run(true, transaction);
}

/** The statements that start a transaction started now: `START TRANSACTION` and its settings. */
export function transactionStart(): readonly string[] {
  return keyed.getStore() === true ? START_WITH_GENERIC_PLANS : START;
}

const START: readonly string[] = ['START TRANSACTION'];
const START_WITH_GENERIC_PLANS: readonly string[] = [...START, 'SET LOCAL plan_cache_mode = force_generic_plan'];
