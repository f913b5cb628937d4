// Forward-only migrations, each applied once in its own transaction, serialised across
// instances with an advisory lock.
import type { DatabasePool, DatabaseTransactionConnection } from 'slonik';
import { compiledQuery, quoteIdent } from './sql.ts';

export interface Migration {
  id: string;
  /** One or more statements; run in order inside the migration's transaction. */
  statements: string[];
}

const LOCK_KEY = 734_001;

export async function runMigrations(pool: DatabasePool, schema: string, migrations: readonly Migration[]): Promise<string[]> {
  return pool.transaction((tx) => runMigrationsIn(tx, schema, migrations));
}

/** The same, inside the caller's transaction (e.g. a project's base tables while creating it). */
export async function runMigrationsIn(tx: DatabaseTransactionConnection, schema: string, migrations: readonly Migration[]): Promise<string[]> {
  const applied: string[] = [];
  const table = `${quoteIdent(schema)}.schema_migrations`;
  // One lock per schema: instances starting together migrate it once; other schemas proceed.
  // Function bodies are not checked when created: the check compiles each function into the
  // backend's cache for its whole life (the schema's functions are compiled when first run anyway).
  await tx.query(compiledQuery({
    text: "SELECT pg_advisory_xact_lock($1, hashtext($2)), set_config('check_function_bodies', 'off', true)",
    values: [LOCK_KEY, schema],
  }));
  await tx.query(compiledQuery({ text: `CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`, values: [] }));
  await tx.query(compiledQuery({ text: `CREATE TABLE IF NOT EXISTS ${table} (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`, values: [] }));
  const done = new Set((await tx.anyFirst(compiledQuery({ text: `SELECT id FROM ${table}`, values: [] }))) as string[]);
  for (const m of migrations) {
    if (done.has(m.id)) continue;
    for (const statement of m.statements) await tx.query(compiledQuery({ text: statement, values: [] }));
    await tx.query(compiledQuery({ text: `INSERT INTO ${table} (id) VALUES ($1)`, values: [m.id] }));
    applied.push(m.id);
  }
  return applied;
}
