// The hot reads of a request — a document, a page with its total — are one statement each, outside
// any transaction. They run straight on an idle pooled connection, through the same session wrapper
// (sessions.ts: the plan's statement timeout, cancellation, prepared names, recycling) and taken and
// given back as slonik's pool does it, skipping slonik's per-statement machinery (a bound connection
// object, child loggers, an error race, interceptor loops, pool state counts): about 8% of a
// findOne's CPU. With no idle connection, slonik's own path runs (it waits for one or opens one).
// Results and errors are slonik's: the same row checks, and the driver's own error classes.
import { DataIntegrityError, NotFoundError, type DriverClient, type QuerySqlToken } from 'slonik';
import { currentRequestStats } from '@cms/telemetry';

export type LeanMethod = 'one' | 'oneFirst' | 'maybeOneFirst';
export const LEAN_METHODS: ReadonlySet<string> = new Set<LeanMethod>(['one', 'oneFirst', 'maybeOneFirst']);

/** Run `query` as slonik's `method` would, on `client` (acquired for it, released or destroyed after). */
export async function runLean(client: DriverClient, method: LeanMethod, query: QuerySqlToken): Promise<unknown> {
  const started = performance.now();
  let rows: ReadonlyArray<Record<string, unknown>>;
  try {
    // slonik's sql tag numbers its placeholders `$slonik_n` (executeQuery.ts turns them into `$n`).
    const text = query.sql.includes('$slonik_') ? query.sql.replaceAll('$slonik_', '$') : query.sql;
    rows = (await client.query(text, query.values as unknown[])).rows;
  } catch (err) {
    countStatement(started);
    // As slonik does after a failed statement: the connection is not reused.
    await client.destroy();
    throw err;
  }
  countStatement(started);
  await client.release();
  if (rows.length > 1) throw new DataIntegrityError(query);
  const row = rows[0];
  if (method === 'maybeOneFirst' && row === undefined) return null;
  if (row === undefined) throw new NotFoundError(query);
  if (method === 'one') return row;
  const keys = Object.keys(row);
  if (keys.length !== 1) throw new DataIntegrityError(query);
  return row[keys[0]!];
}

/** What the request-stats interceptor (telemetry.ts) counts for slonik's statements. */
function countStatement(started: number): void {
  const stats = currentRequestStats();
  if (stats) {
    stats.statements++;
    stats.dbMs += performance.now() - started;
  }
}
