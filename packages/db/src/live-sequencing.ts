// The live change log's sequencer as one function in each cluster's `platform` schema (control
// migration 0016, cluster migration c0003), so a write's events are positioned in one round trip
// instead of four (BEGIN, the head's lock, the positioning, COMMIT). @cms/live calls it.
//
// The head's row lock is taken by its own statement: in READ COMMITTED each statement of a
// volatile function takes a new snapshot, so the next one sees the rows any other sequencer
// committed while this one waited (positions are given once, without gaps).
//
// The unsequenced rows are read by a plain index scan of the partial index, never a bitmap scan
// (which the planner picks for the LIMIT): positioning a row leaves its entry in the partial index
// until a vacuum, and only a plain scan marks such entries dead as it passes them. With bitmap
// scans every call walked every row positioned since the last vacuum (26,000 entries, 1.8 ms a
// call after a few minutes of creates); with a plain scan, only those positioned since the last call.
export const SEQUENCE_LIVE_EVENTS_FUNCTION = `CREATE OR REPLACE FUNCTION platform.sequence_live_events(schema_name text, max_rows integer)
RETURNS TABLE ("position" text, "event" text, uid text, "documentId" text, locale text, status text, "createdAt" text)
LANGUAGE plpgsql VOLATILE SET enable_bitmapscan = off AS $fn$
DECLARE
  head_position bigint;
BEGIN
  EXECUTE format('SELECT "position" FROM %1$I."live_head" FOR UPDATE', schema_name) INTO head_position;
  RETURN QUERY EXECUTE format($q$
    WITH pending AS (
      SELECT "id", $1 + row_number() OVER (ORDER BY "id") AS next FROM %1$I."live_events"
      WHERE "position" IS NULL ORDER BY "id" LIMIT $2
    ), positioned AS (
      UPDATE %1$I."live_events" e SET "position" = p.next FROM pending p WHERE e."id" = p."id"
      RETURNING e."position", e."event", e."content_type", e."document_id", e."locale", e."status", e."created_at"
    ), moved AS (
      UPDATE %1$I."live_head" SET "position" = (SELECT max("position") FROM positioned) WHERE EXISTS (SELECT 1 FROM positioned)
    )
    SELECT "position"::text, "event", "content_type", "document_id", "locale", "status",
           to_char("created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    FROM positioned ORDER BY "position"$q$, schema_name) USING head_position, max_rows;
END
$fn$`;
