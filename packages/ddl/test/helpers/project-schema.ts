// A project schema on the test database: base tables, migrations between models, and catalog
// snapshots to prove a refused migration changed nothing.
import { compiledQuery, runMigrations } from '@cms/db';
import type { Model } from '@cms/schema';
import type { DatabasePool } from 'slonik';
import { applyMigration, baseMigrationsFor, planMigration, type MigrationPlan, type PlanOptions } from '../../src/index.ts';

export const DEFAULT_LOCALE = 'en';

let counter = 0;

/** A fresh project schema with the base tables. */
export async function createProjectSchema(pool: DatabasePool): Promise<string> {
  const schema = `t_${process.pid}_${++counter}`;
  await runMigrations(pool, schema, baseMigrationsFor(schema));
  return schema;
}

/** Plan and apply `prev → next` in one transaction; returns the plan. */
export async function migrate(pool: DatabasePool, schema: string, prev: Model | null, next: Model, options: PlanOptions = {}): Promise<MigrationPlan> {
  const plan = planMigration(prev, next, options);
  await pool.transaction((tx) => applyMigration(tx, schema, plan, { defaultLocale: DEFAULT_LOCALE }));
  return plan;
}

export async function query<T = Record<string, unknown>>(pool: DatabasePool, text: string, values: unknown[] = []): Promise<T[]> {
  return (await pool.any(compiledQuery({ text, values }))) as unknown as T[];
}

export async function one<T = Record<string, unknown>>(pool: DatabasePool, text: string, values: unknown[] = []): Promise<T> {
  const rows = await query<T>(pool, text, values);
  if (rows.length !== 1) throw new Error(`expected one row, got ${rows.length}: ${text}`);
  return rows[0]!;
}

export interface ColumnInfo {
  type: string;
  nullable: boolean;
  default: string | null;
}

/** Column types as Postgres formats them (`format_type`), e.g. `timestamp(3) with time zone`. */
export async function columnsOf(pool: DatabasePool, schema: string, table: string): Promise<Record<string, ColumnInfo>> {
  const rows = await query<{ name: string; type: string; nullable: boolean; default: string | null }>(pool,
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable,
            pg_get_expr(d.adbin, d.adrelid) AS default
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE n.nspname = $1 AND c.relname = $2 AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`, [schema, table]);
  return Object.fromEntries(rows.map((r) => [r.name, { type: r.type, nullable: r.nullable, default: r.default }]));
}

export async function tablesOf(pool: DatabasePool, schema: string): Promise<string[]> {
  const rows = await query<{ t: string }>(pool, `SELECT table_name AS t FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`, [schema]);
  return rows.map((r) => r.t);
}

export async function indexesOf(pool: DatabasePool, schema: string, table: string): Promise<Record<string, string>> {
  const rows = await query<{ name: string; def: string }>(pool,
    `SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = $1 AND tablename = $2`, [schema, table]);
  return Object.fromEntries(rows.map((r) => [r.name, r.def]));
}

/** Columns, indexes and row counts of every table of a schema. */
export async function snapshotSchema(pool: DatabasePool, schema: string): Promise<unknown> {
  const columns = await query(pool,
    `SELECT table_name, column_name, data_type, is_nullable, column_default, ordinal_position
     FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, ordinal_position`, [schema]);
  const indexes = await query(pool, `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = $1 ORDER BY 1, 2`, [schema]);
  const counts: Record<string, number> = {};
  for (const t of await tablesOf(pool, schema)) {
    const row = await one<{ n: number }>(pool, `SELECT count(*)::int AS n FROM "${schema}"."${t}"`);
    counts[t] = row.n;
  }
  return { columns, indexes, counts };
}

/** Insert a row and return its id as a number. */
export async function insert(pool: DatabasePool, schema: string, table: string, values: Record<string, unknown>): Promise<number> {
  const cols = Object.keys(values);
  const row = await one<{ id: string }>(pool,
    `INSERT INTO "${schema}"."${table}" (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id::text AS id`,
    Object.values(values));
  return Number(row.id);
}

export async function insertFile(pool: DatabasePool, schema: string, name = 'a.png'): Promise<number> {
  return insert(pool, schema, 'files', {
    document_id: `file${++counter}`, name, hash: `h${counter}`, mime: 'image/png', size: 1.5, url: `/uploads/${name}`, provider: 'local',
  });
}

export function expectRefusal(pattern: RegExp) {
  return (error: unknown): boolean => {
    const e = error as { name?: string; message?: string; details?: { errors?: Array<{ path: string[] }> } };
    if (e.name !== 'ValidationError') throw error;
    if (!pattern.test(e.message ?? '')) throw new Error(`unexpected message: ${e.message}`);
    if (!Array.isArray(e.details?.errors) || !Array.isArray(e.details.errors[0]?.path)) throw new Error('details.errors[].path missing');
    return true;
  };
}
export { type MigrationPlan };
