// Statements that ride in another statement of the same transaction as data-modifying CTEs, so
// a write's side records (its history version, its audit entries) cost no round trip of their
// own. Every CTE of one statement reads the snapshot taken when the statement starts: it sees what
// earlier statements of the transaction wrote, never what its sibling CTEs write.
import { exec } from './exec.ts';
import { lastInTransaction } from './last-statement.ts';
import { compiledQuery, type CompiledSql, type Db } from './sql.ts';

/**
 * CTE bodies (`INSERT …`, no WITH of their own) with placeholders `$1…` into `values`. A body may
 * read an earlier CTE of the same statement as `$cte0`, `$cte1`… (its index in `ctes`).
 */
export interface CarriedStatement {
  readonly ctes: readonly string[];
  readonly values: readonly unknown[];
  /**
   * What the statement answers: a scalar expression (over `$cte…` and the placeholders), handed to
   * `deliver` once the carrying statement has run.
   */
  readonly output?: { readonly expression: string; deliver(value: unknown): void };
}

/** The CTEs and outputs of a statement carrying some. */
export interface Carried {
  /** `name AS (…)`, in the order a WITH lists them. */
  ctes: string[];
  /** The outputs' expressions, their CTE names and placeholders resolved, with where each goes. */
  outputs: Array<{ expression: string; deliver(value: unknown): void }>;
}

/**
 * `$n` placeholders of `text` moved on by `by`; quoted strings and identifiers are left as they
 * are (a literal `'$1'` is no placeholder).
 */
export function shiftPlaceholders(text: string, by: number): string {
  if (by === 0) return text;
  // A model's statements come back with the same texts and shifts: every write, after the first,
  // finds them here instead of scanning kilobytes of SQL (a text kept by its model hashes once).
  let byShift = shiftedTexts.get(text);
  if (byShift === undefined) {
    if (shiftedTexts.size >= SHIFTED_TEXTS_MAX) shiftedTexts.clear();
    shiftedTexts.set(text, (byShift = new Map()));
  }
  let shifted = byShift.get(by);
  if (shifted === undefined) {
    shifted = text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\$(\d+)/g, (match, n: string | undefined) => (n === undefined ? match : `$${Number(n) + by}`));
    byShift.set(by, shifted);
  }
  return shifted;
}
const shiftedTexts = new Map<string, Map<number, string>>();
const SHIFTED_TEXTS_MAX = 500;

/**
 * The CTEs (`name AS (…)`) of a statement carrying `carried`, their values appended to `values`
 * (the statement's own placeholders come first); none when nothing is carried. Postgres runs
 * data-modifying CTEs no one reads after the main statement, the last listed first: they are
 * listed in reverse, so their rows get ids (and a history's versions their order) as given. A CTE
 * another one reads runs when it is read, and is listed first (a WITH refers back only).
 */
export function carriedWith(carried: readonly CarriedStatement[], values: unknown[]): Carried {
  const read: string[] = [];
  const unread: string[] = [];
  const outputs: Carried['outputs'] = [];
  let count = 0;
  for (const statement of carried) {
    const by = values.length;
    const names = statement.ctes.map(() => `carried${count++}`);
    const named = (text: string) => {
      const shifted = shiftPlaceholders(text, by);
      return shifted.includes('$cte') ? shifted.replace(/\$cte(\d+)/g, (_, k: string) => names[Number(k)]!) : shifted;
    };
    const readHere = new Set<number>();
    for (const body of statement.ctes) if (body.includes('$cte')) for (const [, k] of body.matchAll(/\$cte(\d+)/g)) readHere.add(Number(k));
    statement.ctes.forEach((body, i) => (readHere.has(i) ? read : unread).push(`${names[i]} AS (${named(body)})`));
    if (statement.output) outputs.push({ expression: named(statement.output.expression), deliver: statement.output.deliver });
    values.push(...statement.values);
  }
  return { ctes: [...read, ...unread.reverse()], outputs };
}

/**
 * Run carried statements in one statement (nothing else to ride in), and `main` (a SELECT of one
 * column, `$1…` into its own values) last in it: its first row's value, or null (undefined without
 * `main`). `main` reads the snapshot the carried statements read: what the transaction stored before.
 * `last`: the statement is its transaction's last (last-statement.ts: committed with it).
 */
export async function runCarried(db: Db, carried: readonly CarriedStatement[], main?: CompiledSql, last = false): Promise<unknown> {
  const values: unknown[] = main ? [...main.values] : [];
  const { ctes, outputs } = carriedWith(carried, values);
  const run = <T>(statement: () => Promise<T>) => (last ? lastInTransaction(statement) : statement());
  if (outputs.length > 0) {
    const selected = outputs.map((o, i) => `(${o.expression}) AS "o${i}"`);
    if (main) ctes.push(`main AS (${main.text})`);
    const text = `WITH ${ctes.join(', ')} SELECT ${main ? '(SELECT * FROM main) AS "main", ' : ''}${selected.join(', ')}`;
    const row = (await run(() => db.one(compiledQuery({ text, values })))) as Record<string, unknown>;
    outputs.forEach((o, i) => o.deliver(row[`o${i}`]));
    return main ? row.main ?? null : undefined;
  }
  if (main) {
    const text = ctes.length ? `WITH ${ctes.join(', ')}, main AS (${main.text}) SELECT * FROM main` : main.text;
    return run(() => db.maybeOneFirst(compiledQuery({ text, values })));
  }
  if (ctes.length) await run(() => exec(db, `WITH ${ctes.join(', ')} SELECT 1`, values));
  return undefined;
}
