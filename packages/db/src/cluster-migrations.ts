// The `platform` schema of a project cluster other than the control plane's (DATABASE_URLS).
// A project's own transactions there write and read a few control tables in the same
// transaction as its content: the webhook outbox (`webhook_deliveries`, with the webhooks it
// fans out to), the document quota's bound, and the roles a user's `role` populates from. Those
// tables exist here with the control schema's names and columns, so the same SQL runs on
// either cluster:
//
// - `projects` (id and schema only), `roles` and `webhooks` are copies of the control rows of
//   the projects placed here, kept by @cms/tenancy `ClusterMirror` (written on every change of
//   them, before the change's invalidation is published);
// - `webhook_deliveries`, `webhook_attempts` and `document_quota` are this cluster's own: the
//   outbox of its projects' changes, relayed by a webhook runtime per cluster;
// - `content_schedules` too: the due index of its projects' scheduled releases and actions.
//
// Forward-only, as the control migrations; ids start with `c` (one `schema_migrations` table).
import { AUDIT_LOG_STATEMENTS } from './audit-log-table.ts';
import { SEQUENCE_LIVE_EVENTS_FUNCTION } from './live-sequencing.ts';
import type { Migration } from './migrate.ts';

export const clusterMigrations: Migration[] = [
  {
    id: 'c0001_project_cluster',
    statements: [
      `CREATE TABLE platform.projects (
        id bigint PRIMARY KEY,
        schema_name text NOT NULL UNIQUE
      )`,
      `CREATE TABLE platform.roles (
        id bigint PRIMARY KEY,
        project_id bigint NOT NULL REFERENCES platform.projects(id) ON DELETE CASCADE,
        type text NOT NULL,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        permissions jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (project_id, type)
      )`,
      `CREATE TABLE platform.webhooks (
        id bigint PRIMARY KEY,
        project_id bigint NOT NULL REFERENCES platform.projects(id) ON DELETE CASCADE,
        name text NOT NULL,
        url text NOT NULL,
        events text[] NOT NULL,
        headers jsonb NOT NULL DEFAULT '{}',
        enabled boolean NOT NULL DEFAULT true,
        secret_box text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX webhooks_project_idx ON platform.webhooks (project_id)`,
      `CREATE TABLE platform.webhook_deliveries (
        id bigserial PRIMARY KEY,
        project_id bigint NOT NULL REFERENCES platform.projects(id) ON DELETE CASCADE,
        webhook_id bigint NOT NULL REFERENCES platform.webhooks(id) ON DELETE CASCADE,
        event text NOT NULL,
        body text NOT NULL,
        status text NOT NULL DEFAULT 'pending',
        outbox boolean NOT NULL DEFAULT true,
        run integer NOT NULL DEFAULT 0,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        locked_until timestamptz,
        response_status integer,
        duration_ms integer,
        error text,
        response_excerpt text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX webhook_deliveries_outbox_idx ON platform.webhook_deliveries (next_attempt_at) WHERE outbox`,
      `CREATE INDEX webhook_deliveries_webhook_idx ON platform.webhook_deliveries (webhook_id, id DESC)`,
      `CREATE TABLE platform.webhook_attempts (
        id bigserial PRIMARY KEY,
        delivery_id bigint NOT NULL REFERENCES platform.webhook_deliveries(id) ON DELETE CASCADE,
        run integer NOT NULL,
        attempt integer NOT NULL,
        response_status integer,
        error text,
        duration_ms integer NOT NULL,
        response_excerpt text,
        at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX webhook_attempts_delivery_idx ON platform.webhook_attempts (delivery_id)`,
      `CREATE TABLE platform.document_quota (
        project_id bigint PRIMARY KEY REFERENCES platform.projects(id) ON DELETE CASCADE,
        model_version integer NOT NULL,
        at_most bigint NOT NULL
      )`,
    ],
  },
  {
    // The due index of this cluster's projects' schedules (control migration 0011). No foreign
    // key: the copy of a project's row here may go (a move) while rows of it remain; the
    // scheduler drops rows whose project no longer exists.
    id: 'c0002_content_schedules',
    statements: [
      `CREATE TABLE platform.content_schedules (
        project_id bigint NOT NULL,
        kind text NOT NULL CHECK (kind IN ('release', 'action')),
        target_id bigint NOT NULL,
        run_at timestamptz NOT NULL,
        PRIMARY KEY (project_id, kind, target_id)
      )`,
      `CREATE INDEX content_schedules_due_idx ON platform.content_schedules (run_at)`,
    ],
  },
  {
    // The live log's sequencer, as on the control plane (control migration 0016).
    id: 'c0003_live_sequencing',
    statements: [SEQUENCE_LIVE_EVENTS_FUNCTION],
  },
  {
    // The audit log of this cluster's projects (control migration 0012).
    id: 'c0004_audit_log',
    statements: AUDIT_LOG_STATEMENTS,
  },
  {
    // Environments (control migration 0017): a project's copy of its parent's id, so a file
    // delete in the project's transaction finds the environments sharing its stored objects.
    id: 'c0005_environments',
    statements: ['ALTER TABLE platform.projects ADD COLUMN parent_id bigint'],
  },
  {
    // As on the control plane (control migration 0018).
    id: 'c0006_live_sequencing_index_scan',
    statements: [SEQUENCE_LIVE_EVENTS_FUNCTION],
  },
];
