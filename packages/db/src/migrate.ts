// Forward-only migrations, each applied once in its own transaction, serialised across
// instances with an advisory lock.
import { sql, type DatabasePool } from 'slonik';
import { compiledQuery } from './sql.ts';

export interface Migration {
  id: string;
  /** One or more statements; run in order inside the migration's transaction. */
  statements: string[];
}

const LOCK_KEY = 7_340_001;

export async function runMigrations(pool: DatabasePool, schema: string, migrations: readonly Migration[]): Promise<string[]> {
  const applied: string[] = [];
  await pool.transaction(async (tx) => {
    await tx.query(sql.unsafe`SELECT pg_advisory_xact_lock(${LOCK_KEY})`);
    await tx.query(compiledQuery({ text: `CREATE SCHEMA IF NOT EXISTS "${schema}"`, values: [] }));
    await tx.query(compiledQuery({
      text: `CREATE TABLE IF NOT EXISTS "${schema}".schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
      values: [],
    }));
    const done = new Set(await tx.anyFirst(compiledQuery({ text: `SELECT id FROM "${schema}".schema_migrations`, values: [] })) as string[]);
    for (const m of migrations) {
      if (done.has(m.id)) continue;
      for (const statement of m.statements) await tx.query(compiledQuery({ text: statement, values: [] }));
      await tx.query(compiledQuery({ text: `INSERT INTO "${schema}".schema_migrations (id) VALUES ($1)`, values: [m.id] }));
      applied.push(m.id);
    }
  });
  return applied;
}
