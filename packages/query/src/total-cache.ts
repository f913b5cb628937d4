// Running a list's total (render-total.ts). Kept and counted totals are read as they are; checked totals go
// through one bounded LRU shared by every project: a (SQL, values) → (write sum, total) entry
// answers while the write sum of the tables the filter reads is unchanged, and the statement
// itself tells (it counts only when the sum changed, in the same snapshot), so an entry can never
// answer a stale total. Entries are keyed by the SQL text, which names the project's schema
// (`t_<id>`, never reused), and a migration adds a write to every table of the schema, so an
// entry never outlives the model it was counted under.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { compiledQuery, type CompiledSql, type Db } from '@cms/db';
import type { TotalKind } from './render-total.ts';

/**
 * A total statement with its values bound (the cached version is appended when it runs);
 * `offset`: how many of them are the page's (a list and its total in one statement).
 */
export interface TotalSql extends CompiledSql {
  kind: TotalKind;
  offset: number;
}

/** The statement's row (`data` for a list) and the total it answers. */
export interface TotalRow {
  row: Record<string, unknown>;
  total: number;
}

interface Entry {
  version: string;
  total: number;
}

/** Distinct filtered totals held per process (each entry is a few hundred bytes). */
export const TOTAL_CACHE_MAX = 20_000;

export class TotalCache {
  private readonly entries: LRUCache<string, Entry>;
  hits = 0;
  misses = 0;

  constructor(max: number) {
    this.entries = new LRUCache<string, Entry>({ max });
  }

  /** Run the statement: its row and the list's total as of the statement's snapshot. */
  async run(db: Db, sql: TotalSql): Promise<TotalRow> {
    if (sql.kind !== 'checked') {
      const row = (await db.one(compiledQuery(sql))) as Record<string, unknown>;
      return { row, total: Number(row.count) };
    }
    // The key: the total's own text and values (the page's values don't change the count).
    const key = createHash('sha1').update(sql.text).update('\0').update(JSON.stringify(sql.values.slice(sql.offset), jsonSafe)).digest('base64');
    const entry = this.entries.get(key);
    const row = (await db.one(compiledQuery({ text: sql.text, values: [...sql.values, entry ? entry.version : '-1'] }))) as Record<string, unknown>;
    if (row.count === null) {
      // The write sum equals the entry's: nothing it counted has been written since.
      this.hits++;
      return { row, total: entry!.total };
    }
    this.misses++;
    const total = Number(row.count);
    this.entries.set(key, { version: String(row.version), total });
    return { row, total };
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}

const jsonSafe = (_key: string, value: unknown): unknown => (typeof value === 'bigint' ? `${value}n` : value);

/** The process's total cache (every project, every list). */
export const totalCache = new TotalCache(TOTAL_CACHE_MAX);

/** A total statement run through the process's cache. */
export function runTotal(db: Db, sql: TotalSql): Promise<TotalRow> {
  return totalCache.run(db, sql);
}
