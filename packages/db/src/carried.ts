// Statements that ride in another statement of the same transaction as data-modifying CTEs, so
// a write's side records (its history version, its audit entries) cost no round trip of their
// own. Every CTE of one statement reads the snapshot taken when the statement starts: it sees what
// earlier statements of the transaction wrote, never what its sibling CTEs write.
import { exec } from './exec.ts';
import { lastInTransaction } from './last-statement.ts';
import { compiledQuery, type CompiledSql, type Db } from './sql.ts';

/** CTE bodies (`INSERT …`, no WITH of their own) with placeholders `$1…` into `values`. */
export interface CarriedStatement {
  readonly ctes: readonly string[];
  readonly values: readonly unknown[];
}

/**
 * `$n` placeholders of `text` moved on by `by`; quoted strings and identifiers are left as they
 * are (a literal `'$1'` is no placeholder).
 */
export function shiftPlaceholders(text: string, by: number): string {
  if (by === 0) return text;
  return text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\$(\d+)/g, (match, n: string | undefined) => (n === undefined ? match : `$${Number(n) + by}`));
}

/**
 * The CTEs (`name AS (…)`) of a statement carrying `carried`, their values appended to `values`
 * (the statement's own placeholders come first); none when nothing is carried. Postgres runs
 * data-modifying CTEs no one reads after the main statement, the last listed first: they are
 * listed in reverse, so their rows get ids (and a history's versions their order) as given.
 */
export function carriedWith(carried: readonly CarriedStatement[], values: unknown[]): string[] {
  const ctes: string[] = [];
  for (const statement of carried) {
    const by = values.length;
    for (const body of statement.ctes) ctes.push(`carried${ctes.length} AS (${shiftPlaceholders(body, by)})`);
    values.push(...statement.values);
  }
  return ctes.reverse();
}

/**
 * Run carried statements in one statement (nothing else to ride in), and `main` (a SELECT of one
 * column, `$1…` into its own values) last in it: its first row's value, or null (undefined without
 * `main`). `main` reads the snapshot the carried statements read: what the transaction stored before.
 * `last`: the statement is its transaction's last (last-statement.ts: committed with it).
 */
export async function runCarried(db: Db, carried: readonly CarriedStatement[], main?: CompiledSql, last = false): Promise<unknown> {
  const values: unknown[] = main ? [...main.values] : [];
  const ctes = carriedWith(carried, values);
  const run = <T>(statement: () => Promise<T>) => (last ? lastInTransaction(statement) : statement());
  if (main) {
    const text = ctes.length ? `WITH ${ctes.join(', ')}, main AS (${main.text}) SELECT * FROM main` : main.text;
    return run(() => db.maybeOneFirst(compiledQuery({ text, values })));
  }
  if (ctes.length) await run(() => exec(db, `WITH ${ctes.join(', ')} SELECT 1`, values));
  return undefined;
}
