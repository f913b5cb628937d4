// Thin wrappers running compiled SQL (quoted identifiers, `$n` values) in the caller's transaction.
import { sqlStateOf } from '@cms/errors';
import type { DatabasePool } from 'slonik';
import { compiledQuery, type Db } from './sql.ts';

export async function exec(db: Db, text: string, values: readonly unknown[] = []): Promise<void> {
  await db.query(compiledQuery({ text, values }));
}

export async function rows<T = Record<string, unknown>>(db: Db, text: string, values: readonly unknown[] = []): Promise<T[]> {
  return (await db.any(compiledQuery({ text, values }))) as unknown as T[];
}

/** First column of every row, as text (ids are read back as text: bigint parsers differ between pools). */
export async function column(db: Db, text: string, values: readonly unknown[] = []): Promise<string[]> {
  return ((await db.anyFirst(compiledQuery({ text, values }))) as unknown[]).map((v) => String(v));
}

/** Whether `SELECT …` returns a row. */
export async function exists(db: Db, selectText: string, values: readonly unknown[] = []): Promise<boolean> {
  return (await db.oneFirst(compiledQuery({ text: `SELECT EXISTS (${selectText})`, values }))) as boolean;
}

/** Whether the database answers a trivial statement (readiness probes). */
export async function reachable(db: Db): Promise<boolean> {
  return db.oneFirst(compiledQuery({ text: 'SELECT 1', values: [] })).then(() => true, () => false);
}

/** SQLSTATE of a Postgres error, looking through driver wrappers. */
export function sqlState(error: unknown): string | undefined {
  // slonik turns 22P02 (invalid_text_representation) into an InvalidInputError without the code.
  if (error instanceof Error && error.constructor.name === 'InvalidInputError') return '22P02';
  return sqlStateOf(error);
}

/**
 * Runs `fn` holding the session advisory lock `key` on a connection of its own, or resolves
 * null at once when another session holds it. `fn` works through the pool (the embedded Postgres
 * serves one transaction at a time, so no transaction stays open while it runs).
 */
export async function withTryLock<T>(pool: DatabasePool, key: number, fn: () => Promise<T>): Promise<T | null> {
  return pool.connect(async (lock) => {
    const got = await lock.oneFirst(compiledQuery({ text: 'SELECT pg_try_advisory_lock($1)', values: [key] }));
    if (!got) return null;
    try {
      return await fn();
    } finally {
      await lock.query(compiledQuery({ text: 'SELECT pg_advisory_unlock($1)', values: [key] }));
    }
  });
}

/**
 * The rows of a query a page at a time through a cursor, in one pass however large the result
 * (window functions over the whole result computed once). Must run inside a transaction (`db`
 * is its connection); other statements may run between pages.
 */
export async function* cursorRows<T = Record<string, unknown>>(db: Db, text: string, values: readonly unknown[] = [], pageSize = 1000): AsyncGenerator<T[]> {
  const name = `cur_${(cursorCount = (cursorCount + 1) % 1_000_000)}`;
  await exec(db, `DECLARE ${name} NO SCROLL CURSOR FOR ${text}`, values);
  try {
    for (;;) {
      const page = await rows<T>(db, `FETCH ${pageSize} FROM ${name}`);
      if (page.length) yield page;
      if (page.length < pageSize) return;
    }
  } finally {
    await exec(db, `CLOSE ${name}`).catch(() => {});
  }
}
let cursorCount = 0;
