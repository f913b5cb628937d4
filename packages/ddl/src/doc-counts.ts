// Exact totals without a scan per request (docs/performance.md, "Exact totals"). Every project
// schema keeps `doc_counts(tbl, status, locale, n)`, an append-only ledger written by triggers in
// the same transaction as each write:
// - rows with a status: how many rows of a counted table (content types, media files, end
//   users: the tables with `document_id` and `published_at`) each statement added (+) or removed
//   (−) per status and locale. Their sum per key is the number of rows, exact at every commit,
//   so an unfiltered list's total is one indexed read;
// - rows without a status (`status` NULL): one per statement that wrote the table. Their sum per
//   table only grows, so a cached filtered total is current while the sum over the tables it
//   reads is unchanged.
// Writers only insert: no row is updated in place, so concurrent writers of one type never wait
// for each other (a single counter row would serialise them through each commit). Now and then
// (1 statement in 32) a writer compacts its table's rows into one per key, in its own
// transaction; sums are unchanged in every snapshot. Compactions of one schema take turns under
// a try-lock, so a writer never waits for one. A migration runs the recount (`syncDocCounts`) last: it
// attaches the triggers to new tables and recounts every table from its rows, in the migration's
// transaction (types dropped, converted, draft & publish or i18n toggled). Write rows are only
// ever compacted, never dropped: a table's sum grows even across a drop and re-creation.
import type { DbTransaction } from '@cms/db';
import { compiledQuery, quoteIdent } from '@cms/db';

/** Tables of a project schema that are bookkeeping, never counted nor tracked. */
const UNTRACKED = `'doc_counts', 'schema_migrations', 'history_versions', 'history_schemas', 'releases', 'release_actions', 'scheduled_actions', 'live_events', 'live_head'`;
/** The advisory lock (two keys: this one and the schema's hash) of a schema's compactions. */
const LOCK = `hashtext('cms_doc_counts'), hashtext(TG_TABLE_SCHEMA)`;
const STATUS = `CASE WHEN "published_at" IS NULL THEN 'draft' ELSE 'published' END`;

// Attach the triggers to every table of the schema that lacks them and recount every counted
// table. The compaction lock keeps compactions out; the recount replaces, in ONE statement
// (one snapshot), exactly the ledger rows that snapshot sees: whatever committed before is in
// the recount, whatever commits after adds its own rows to it. The schema's tables are found
// through pg_depend (indexed on the namespace): pg_class has no index on relnamespace, and a
// scan of it grows with every project of the database.
// Run as an anonymous block (DO), not as a function of the schema: Postgres keeps a compiled
// function, with a plan for each of its statements, in every backend that has run it, for the
// backend's life, and every catalog change in the database (any project's DDL) makes every backend
// walk all the plans it keeps. One copy per project made each creation and migration slower than
// the last (docs/performance.md). A DO block's plans go with it. `{schema}`: the quoted schema.
const SYNC_BODY = `  DECLARE
    r record;
    counted boolean;
    loc text;
    recount text[] := '{}';
  BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('cms_doc_counts'), hashtext((SELECT nspname FROM pg_namespace WHERE oid = '{schema}'::regnamespace)::text));
    FOR r IN
      SELECT c.oid, c.relname FROM pg_depend d JOIN pg_class c ON c.oid = d.objid
      WHERE d.refclassid = 'pg_namespace'::regclass AND d.refobjid = '{schema}'::regnamespace AND d.classid = 'pg_class'::regclass
        AND c.relkind IN ('r', 'p') AND c.relname NOT IN (${UNTRACKED})
      ORDER BY c.relname
    LOOP
      counted := EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = r.oid AND attname = 'document_id' AND NOT attisdropped)
        AND EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = r.oid AND attname = 'published_at' AND NOT attisdropped);
      loc := CASE WHEN EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = r.oid AND attname = 'locale' AND NOT attisdropped) THEN 'locale' ELSE 'none' END;
      IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = r.oid AND tgname IN ('cms_count_insert', 'cms_track_writes')) THEN
        IF counted THEN
          EXECUTE format('CREATE TRIGGER "cms_count_insert" AFTER INSERT ON %s REFERENCING NEW TABLE AS "cms_new" FOR EACH STATEMENT EXECUTE FUNCTION {schema}."cms_count_rows"(%L)', r.oid::regclass, loc);
          EXECUTE format('CREATE TRIGGER "cms_count_update" AFTER UPDATE ON %s REFERENCING OLD TABLE AS "cms_old" NEW TABLE AS "cms_new" FOR EACH STATEMENT EXECUTE FUNCTION {schema}."cms_count_rows"(%L)', r.oid::regclass, loc);
          EXECUTE format('CREATE TRIGGER "cms_count_delete" AFTER DELETE ON %s REFERENCING OLD TABLE AS "cms_old" FOR EACH STATEMENT EXECUTE FUNCTION {schema}."cms_count_rows"(%L)', r.oid::regclass, loc);
          EXECUTE format('CREATE TRIGGER "cms_count_truncate" AFTER TRUNCATE ON %s FOR EACH STATEMENT EXECUTE FUNCTION {schema}."cms_count_truncate"()', r.oid::regclass);
        ELSE
          EXECUTE format('CREATE TRIGGER "cms_track_writes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %s FOR EACH STATEMENT EXECUTE FUNCTION {schema}."cms_track_writes"()', r.oid::regclass);
        END IF;
      END IF;
      -- One more write for every table: every cached filtered total of the schema is stale.
      recount := recount || format('SELECT %L, NULL, NULL, 1', r.relname);
      IF counted THEN
        recount := recount || format('SELECT %L, %s, %s, count(*) FROM %s GROUP BY 2, 3',
          r.relname, 'CASE WHEN "published_at" IS NULL THEN ''draft'' ELSE ''published'' END',
          CASE WHEN loc = 'locale' THEN 'coalesce("locale", '''')' ELSE '''''' END, r.oid::regclass);
      END IF;
    END LOOP;
    -- Write rows are never deleted here: their sums only grow, even for a table dropped and
    -- created again.
    EXECUTE 'WITH gone AS (DELETE FROM {schema}."doc_counts" WHERE "status" IS NOT NULL) '
      'INSERT INTO {schema}."doc_counts" ("tbl", "status", "locale", "n") '
      || CASE WHEN cardinality(recount) = 0 THEN 'SELECT NULL, NULL, NULL, 0 WHERE FALSE' ELSE array_to_string(recount, ' UNION ALL ') END;
  END`;

/** The recount as one statement (`{schema}`: the quoted schema). */
const SYNC_COUNTS_BLOCK = `DO $fn$
${SYNC_BODY} $fn$`;

// The function base_0004 created before (and base_0006 replaced), dropped by base_0007.
const SYNC_COUNTS = `CREATE OR REPLACE FUNCTION {schema}."cms_sync_counts"() RETURNS void LANGUAGE plpgsql AS $fn$
${SYNC_BODY} $fn$`;

/**
 * The ledger's functions (`{schema}`: the quoted schema; their bodies name it, so a renamed schema
 * needs them again: spare-schemas.ts). Triggers call them by oid and keep working meanwhile.
 */
export const countFunctionStatements: string[] = [
  // Counted tables: rows in and out per (status, locale), and the write itself. TG_ARGV[0] =
  // 'locale' when the table has a locale column (content types), else rows count under ''.
  `CREATE OR REPLACE FUNCTION {schema}."cms_count_rows"() RETURNS trigger LANGUAGE plpgsql AS $fn$
  BEGIN
    IF TG_OP = 'INSERT' THEN
      IF TG_ARGV[0] = 'locale' THEN
        INSERT INTO {schema}."doc_counts" ("tbl", "status", "locale", "n")
          SELECT TG_TABLE_NAME, ${STATUS}, coalesce("locale", ''), count(*) FROM "cms_new" GROUP BY 2, 3
          UNION ALL SELECT TG_TABLE_NAME, NULL, NULL, 1;
      ELSE
        INSERT INTO {schema}."doc_counts" ("tbl", "status", "locale", "n")
          SELECT TG_TABLE_NAME, ${STATUS}, '', count(*) FROM "cms_new" GROUP BY 2
          UNION ALL SELECT TG_TABLE_NAME, NULL, NULL, 1;
      END IF;
    ELSIF TG_OP = 'DELETE' THEN
      IF TG_ARGV[0] = 'locale' THEN
        INSERT INTO {schema}."doc_counts" ("tbl", "status", "locale", "n")
          SELECT TG_TABLE_NAME, ${STATUS}, coalesce("locale", ''), -count(*) FROM "cms_old" GROUP BY 2, 3
          UNION ALL SELECT TG_TABLE_NAME, NULL, NULL, 1;
      ELSE
        INSERT INTO {schema}."doc_counts" ("tbl", "status", "locale", "n")
          SELECT TG_TABLE_NAME, ${STATUS}, '', -count(*) FROM "cms_old" GROUP BY 2
          UNION ALL SELECT TG_TABLE_NAME, NULL, NULL, 1;
      END IF;
    ELSE
      -- UPDATE: rows whose status or locale changed move between keys.
      IF TG_ARGV[0] = 'locale' THEN
        INSERT INTO {schema}."doc_counts" ("tbl", "status", "locale", "n")
          SELECT TG_TABLE_NAME, s, l, sum(d) FROM (
            SELECT ${STATUS} AS s, coalesce("locale", '') AS l, 1 AS d FROM "cms_new"
            UNION ALL SELECT ${STATUS}, coalesce("locale", ''), -1 FROM "cms_old"
          ) x GROUP BY s, l HAVING sum(d) <> 0
          UNION ALL SELECT TG_TABLE_NAME, NULL, NULL, 1;
      ELSE
        INSERT INTO {schema}."doc_counts" ("tbl", "status", "locale", "n")
          SELECT TG_TABLE_NAME, s, '', sum(d) FROM (
            SELECT ${STATUS} AS s, 1 AS d FROM "cms_new"
            UNION ALL SELECT ${STATUS}, -1 FROM "cms_old"
          ) x GROUP BY s HAVING sum(d) <> 0
          UNION ALL SELECT TG_TABLE_NAME, NULL, NULL, 1;
      END IF;
    END IF;
    IF random() < 0.03125 AND pg_try_advisory_xact_lock(${LOCK}) THEN
      PERFORM {schema}."cms_compact_counts"(TG_TABLE_NAME);
    END IF;
    RETURN NULL;
  END $fn$`,
  // Other tables (components, link tables, folders): a write is recorded, nothing counted.
  `CREATE OR REPLACE FUNCTION {schema}."cms_track_writes"() RETURNS trigger LANGUAGE plpgsql AS $fn$
  BEGIN
    INSERT INTO {schema}."doc_counts" ("tbl", "status", "locale", "n") VALUES (TG_TABLE_NAME, NULL, NULL, 1);
    IF random() < 0.03125 AND pg_try_advisory_xact_lock(${LOCK}) THEN
      PERFORM {schema}."cms_compact_counts"(TG_TABLE_NAME);
    END IF;
    RETURN NULL;
  END $fn$`,
  // TRUNCATE of a counted table: its rows' counts go. TRUNCATE holds the table exclusively, so
  // no other writer of it (nor a compaction of its rows) is in flight.
  `CREATE OR REPLACE FUNCTION {schema}."cms_count_truncate"() RETURNS trigger LANGUAGE plpgsql AS $fn$
  BEGIN
    INSERT INTO {schema}."doc_counts" ("tbl", "status", "locale", "n")
      SELECT TG_TABLE_NAME, "status", "locale", -sum("n") FROM {schema}."doc_counts"
      WHERE "tbl" = TG_TABLE_NAME AND "status" IS NOT NULL GROUP BY 2, 3 HAVING sum("n") <> 0
      UNION ALL SELECT TG_TABLE_NAME, NULL, NULL, 1;
    RETURN NULL;
  END $fn$`,
  // One row per key for a table (the caller holds the schema's compaction lock). The DELETE
  // and the INSERT are one statement: rows written after its snapshot stay as they are.
  `CREATE OR REPLACE FUNCTION {schema}."cms_compact_counts"(t text) RETURNS void LANGUAGE sql AS $fn$
    WITH gone AS (DELETE FROM {schema}."doc_counts" WHERE "tbl" = t RETURNING "status", "locale", "n")
    INSERT INTO {schema}."doc_counts" ("tbl", "status", "locale", "n")
      SELECT t, "status", "locale", sum("n") FROM gone GROUP BY 2, 3
  $fn$`,
];

/** The statements of base migration `base_0004_doc_counts` (`{schema}`: the quoted schema). */
export const docCountsStatements: string[] = [
  `CREATE TABLE {schema}."doc_counts" (
    "tbl" text NOT NULL,
    "status" text,
    "locale" text,
    "n" bigint NOT NULL
  )`,
  `CREATE INDEX "doc_counts$key" ON {schema}."doc_counts" ("tbl", "status", "locale") INCLUDE ("n")`,
  ...countFunctionStatements,
  SYNC_COUNTS_BLOCK,
];

/**
 * Base migration `base_0006_sync_counts_by_namespace`: schemas made before find their tables
 * through pg_depend too (a new schema's base_0004 already did; replacing it again is cheap).
 */
export const syncCountsByNamespaceStatements: string[] = [SYNC_COUNTS];

/** Base migration `base_0007_sync_counts_block`: the recount is a DO block since (SYNC_BODY). */
export const dropSyncCountsFunctionStatements: string[] = [`DROP FUNCTION IF EXISTS {schema}."cms_sync_counts"()`];

/** Attach the count triggers to new tables and recount, last in a migration's transaction. */
export async function syncDocCounts(tx: DbTransaction, schema: string): Promise<void> {
  await tx.query(compiledQuery({ text: SYNC_COUNTS_BLOCK.split('{schema}').join(quoteIdent(schema)), values: [] }));
}
