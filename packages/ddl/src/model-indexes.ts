// The indexes a model implies on tables that already hold rows, built and dropped CONCURRENTLY
// once a migration has committed, so writes go on while they build: `index: true` attributes,
// link rows in order (`source_id, ord`, to-many sides) and inverse links in order
// (`target_document_id, inv_ord`). New tables get them in the migration itself (compile-tables.ts);
// here they are made sure of — missing ones built, INVALID ones (a failed concurrent build) rebuilt.
import { compiledQuery, qualify, quoteIdent, type Db } from '@cms/db';
import type { Model } from '@cms/schema';
import { COLUMNS, physicalModel, type PhysicalModel } from '@cms/tables';
import { attributeIndexStatements } from './compile-tables.ts';
import type { MigrationStep } from './migration-steps.ts';

const q = quoteIdent;
/** A concurrent build reads the whole table; the pool's per-statement limit is for API queries. */
const BUILD_TIMEOUT = '30min';

export interface ModelIndex {
  name: string;
  /** `CREATE INDEX CONCURRENTLY IF NOT EXISTS …` */
  create: string;
}

/** Every index of `physical` that `syncModelIndexes` maintains. */
export function modelIndexes(schema: string, physical: PhysicalModel): ModelIndex[] {
  const out: ModelIndex[] = [];
  for (const t of [...Object.values(physical.contentTypes), ...Object.values(physical.components)]) {
    const statements = attributeIndexStatements(schema, t, true);
    t.scalars.filter((s) => s.index).forEach((s, i) => out.push({ name: s.index!, create: statements[i]! }));
  }
  for (const link of Object.values(physical.linkTables)) {
    const table = qualify(schema, link.name);
    if (!link.toOne) {
      out.push({ name: link.indexes.order, create: `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${q(link.indexes.order)} ON ${table} (${q(COLUMNS.sourceId)}, ${q(COLUMNS.ord)})` });
    }
    if (link.kind === 'relation') {
      out.push({ name: link.indexes.inverseOrder, create: `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${q(link.indexes.inverseOrder)} ON ${table} (${q(COLUMNS.targetDocumentId)}, ${q(COLUMNS.invOrd)})` });
    }
  }
  return out;
}

export interface IndexSync {
  /** Indexes built (missing, or INVALID and rebuilt). */
  built: string[];
  dropped: string[];
}

/**
 * After a push commits (never inside a transaction: CONCURRENTLY cannot run in one): drop the
 * indexes the migration's `dropIndex` steps name, then build every model index that is missing or INVALID.
 * Each build waits for the transactions already running on its table but blocks no write.
 */
export async function syncModelIndexes(pool: { connect: <T>(fn: (db: Db) => Promise<T>) => Promise<T> }, schema: string, model: Model, steps: readonly MigrationStep[] = []): Promise<IndexSync> {
  const wanted = modelIndexes(schema, physicalModel(model));
  const drops = steps.flatMap((s) => (s.op === 'dropIndex' ? [s.index] : []));
  return pool.connect(async (db) => {
    const run = (text: string, values: unknown[] = []) => db.query(compiledQuery({ text, values }));
    const previous = (await db.oneFirst(compiledQuery({ text: `SELECT current_setting('statement_timeout')`, values: [] }))) as string;
    await run(`SELECT set_config('statement_timeout', $1, false)`, [BUILD_TIMEOUT]);
    try {
      for (const name of drops) await run(`DROP INDEX CONCURRENTLY IF EXISTS ${qualify(schema, name)}`);
      const present = (await db.any(compiledQuery({
        text: `SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i
               JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
               WHERE n.nspname = $1 AND c.relname = ANY($2::text[])`,
        values: [schema, wanted.map((w) => w.name)],
      }))) as unknown as Array<{ name: string; valid: boolean }>;
      const valid = new Set(present.filter((p) => p.valid).map((p) => p.name));
      const invalid = new Set(present.filter((p) => !p.valid).map((p) => p.name));
      const built: string[] = [];
      for (const index of wanted) {
        if (valid.has(index.name)) continue;
        // A concurrent build that failed leaves an INVALID index (not used, still maintained): replace it.
        if (invalid.has(index.name)) await run(`DROP INDEX CONCURRENTLY IF EXISTS ${qualify(schema, index.name)}`);
        await run(index.create);
        built.push(index.name);
      }
      return { built, dropped: drops };
    } finally {
      await run(`SELECT set_config('statement_timeout', $1, false)`, [previous]);
    }
  });
}
