// base_0005: the link-table indexes `compile-tables.ts` creates since, for schemas created before:
// (source_id, ord) on to-many link tables and (target_document_id, inv_ord) on relation link
// tables, which replaces the index on target_document_id alone. Names as `indexNames.order` and
// `indexNames.inverseOrder` compute them (`shortenLinkIndexName`: md5, so SQL can too).
// Runs in the upgrade's transaction (a plain CREATE INDEX: the link tables' writes wait for it, once).
// (Its table lookup was changed since to one that does not grow with the database: same result.)
const SHORTEN = (name: string) => `(CASE WHEN octet_length(${name}) <= 63 THEN ${name} ELSE left(${name}, 54) || '_' || left(md5(${name}), 8) END)`;

export const linkOrderIndexStatements: string[] = [
  `DO $$
  DECLARE
    t record;
    old regclass;
  BEGIN
    -- The schema's tables through pg_depend (indexed on the namespace): pg_class has no index on
    -- relnamespace, and a scan of it grows with every project of the database. Not LIKE 'lnk\\_%':
    -- the planner would scan pg_class's name index for every link table of every schema instead.
    FOR t IN SELECT c.oid, c.relname FROM pg_depend d JOIN pg_class c ON c.oid = d.objid
             WHERE d.refclassid = 'pg_namespace'::regclass AND d.refobjid = '{schema}'::regnamespace
               AND d.classid = 'pg_class'::regclass AND c.relkind = 'r' AND left(c.relname, 4) = 'lnk_'
    LOOP
      -- To-many sides only: a to-one side's unique index on source_id alone serves its one link.
      IF NOT EXISTS (SELECT 1 FROM pg_index i JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = i.indkey[0]
                     WHERE i.indrelid = t.oid AND i.indisunique AND i.indnatts = 1 AND a.attname = 'source_id') THEN
        EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %s (source_id, ord)', ${SHORTEN(`(t.relname || '$order_idx')`)}, t.oid::regclass);
      END IF;
      IF EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = t.oid AND attname = 'inv_ord' AND NOT attisdropped) THEN
        FOR old IN SELECT i.indexrelid::regclass FROM pg_index i JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = i.indkey[0]
                   WHERE i.indrelid = t.oid AND NOT i.indisunique AND i.indnatts = 1 AND a.attname = 'target_document_id'
        LOOP
          EXECUTE format('DROP INDEX %s', old);
        END LOOP;
        EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %s (target_document_id, inv_ord)', ${SHORTEN(`(t.relname || '$inv_order_idx')`)}, t.oid::regclass);
      END IF;
    END LOOP;
  END $$`,
];
