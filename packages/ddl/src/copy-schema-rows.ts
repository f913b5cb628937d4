// Copying a project schema's rows into another schema of the same model (an environment, made as
// a copy of its parent: @cms/tenancy environments.ts). The caller runs it in ONE transaction
// opened REPEATABLE READ, so every table is read in the same snapshot while the source keeps
// taking writes: plain reads take ACCESS SHARE locks, which no writer waits for. Unlike
// `pg_dump --snapshot` (a project move), it needs no other process, and runs on PGlite too.
//
// The target's tables exist already (base migrations + the same model's DDL). Columns are named
// on both sides: tables altered over time keep their columns in another order than the target's
// fresh ones. The row-count ledger (`doc_counts`) is not copied: its triggers count the inserted
// rows on the target, per statement, as for any write.
import { exec, qualify, quoteIdent, rows, type Db } from '@cms/db';

/** Bookkeeping and history that a copy leaves behind (the target starts its own). */
export const UNCOPIED_TABLES: ReadonlySet<string> = new Set([
  'doc_counts', 'schema_migrations', 'history_versions', 'history_schemas', 'live_events', 'live_head',
  'releases', 'release_actions', 'scheduled_actions',
]);

export interface CopiedTable {
  table: string;
  rows: number;
}

/**
 * Order tables so that a table comes after the tables its foreign keys reference (a cycle, or a
 * reference to itself, keeps the given order for what remains). Pure, exported for its test.
 */
export function referencedFirst(tables: readonly string[], references: ReadonlyArray<{ table: string; references: string }>): string[] {
  const known = new Set(tables);
  const needs = new Map<string, Set<string>>(tables.map((t) => [t, new Set<string>()]));
  for (const r of references) {
    if (r.table !== r.references && known.has(r.table) && known.has(r.references)) needs.get(r.table)!.add(r.references);
  }
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const next = tables.find((t) => !placed.has(t) && [...needs.get(t)!].every((n) => placed.has(n)))
      ?? tables.find((t) => !placed.has(t))!;
    placed.add(next);
    ordered.push(next);
  }
  return ordered;
}

/**
 * Copy every table of `from` (but UNCOPIED_TABLES) into the same table of `to`, ids included,
 * then move each identity sequence of `to` past the ids copied. Run inside the caller's
 * REPEATABLE READ transaction `tx`. Resolves with the tables and rows copied.
 */
export async function copySchemaRows(tx: Db, from: string, to: string): Promise<CopiedTable[]> {
  const tables = (await rows<{ name: string }>(tx,
    'SELECT tablename AS name FROM pg_tables WHERE schemaname = $1 ORDER BY tablename', [from]))
    .map((t) => t.name).filter((t) => !UNCOPIED_TABLES.has(t));
  const references = await rows<{ table: string; references: string }>(tx,
    `SELECT c.relname AS "table", r.relname AS "references" FROM pg_constraint k
       JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class r ON r.oid = k.confrelid
     WHERE k.contype = 'f' AND c.relnamespace = $1::regnamespace`, [quoteIdent(from)]);
  const copied: CopiedTable[] = [];
  for (const table of referencedFirst(tables, references)) {
    const columns = await rows<{ name: string; identity: boolean }>(tx,
      `SELECT attname AS name, attidentity <> '' AS identity FROM pg_attribute
       WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum`,
      [qualify(from, table)]);
    const list = columns.map((c) => quoteIdent(c.name)).join(', ');
    const [inserted] = await rows<{ n: number | string }>(tx,
      `WITH copied AS (INSERT INTO ${qualify(to, table)} (${list}) OVERRIDING SYSTEM VALUE SELECT ${list} FROM ${qualify(from, table)} RETURNING 1)
       SELECT count(*) AS n FROM copied`);
    copied.push({ table, rows: Number(inserted?.n ?? 0) });
    for (const c of columns.filter((col) => col.identity)) {
      await rows(tx,
        `SELECT setval(pg_get_serial_sequence($1, $2), m) FROM (SELECT max(${quoteIdent(c.name)}) AS m FROM ${qualify(to, table)}) x WHERE m IS NOT NULL`,
        [qualify(to, table), c.name]);
    }
  }
  return copied;
}

/** Empty the tables a copy filled (to copy again after the source's model changed). */
export async function removeCopiedRows(db: Db, schema: string, tables: readonly string[]): Promise<void> {
  if (tables.length === 0) return;
  await exec(db, `TRUNCATE ${tables.map((t) => qualify(schema, t)).join(', ')} CASCADE`);
}
