// The audit log's table (@cms/audit audit-rows.ts), on the control plane (0012_audit_log) and on
// every other cluster (c0004_audit_log): a project's entries live on its cluster, written in the
// same transaction as the change they record; an account's own (`project_id` NULL) on the control
// plane. No foreign keys: a deleted account's or project's entries stay until retention or the
// project's purge. Append-only: a trigger refuses UPDATE and TRUNCATE, and DELETE unless the
// transaction set `cms.audit_retention` (retention, a purge, a move's source copy).
export const AUDIT_LOG_STATEMENTS = [
  `CREATE TABLE platform.audit_logs (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    project_id bigint,
    account_id bigint,
    action text NOT NULL,
    actor_type text NOT NULL CHECK (actor_type IN ('account', 'api-token', 'end-user', 'system')),
    actor_id text,
    actor_email text,
    ip text,
    user_agent text,
    payload jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX audit_logs_project_idx ON platform.audit_logs (project_id, created_at DESC, id DESC) WHERE project_id IS NOT NULL`,
  `CREATE INDEX audit_logs_account_idx ON platform.audit_logs (account_id, created_at DESC, id DESC) WHERE project_id IS NULL`,
  // Retention of the accounts' logs (one cutoff for all of them).
  `CREATE INDEX audit_logs_account_age_idx ON platform.audit_logs (created_at) WHERE project_id IS NULL`,
  `CREATE FUNCTION platform.audit_logs_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'DELETE' AND current_setting('cms.audit_retention', true) = 'on' THEN
      RETURN OLD;
    END IF;
    RAISE EXCEPTION 'audit log entries cannot be changed or deleted (%)', TG_OP USING ERRCODE = '42501';
  END $$`,
  `CREATE TRIGGER audit_logs_append_only BEFORE UPDATE OR DELETE ON platform.audit_logs FOR EACH ROW EXECUTE FUNCTION platform.audit_logs_append_only()`,
  `CREATE TRIGGER audit_logs_no_truncate BEFORE TRUNCATE ON platform.audit_logs FOR EACH STATEMENT EXECUTE FUNCTION platform.audit_logs_append_only()`,
];
