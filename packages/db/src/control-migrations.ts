// The control schema: accounts, projects, versioned models, locales, roles, tokens, usage,
// project members and invitations, account e-mail tokens, billing, usage by day and route.
// Forward-only: append new migrations, never edit applied ones.
import { AUDIT_LOG_STATEMENTS } from './audit-log-table.ts';
import { SEQUENCE_LIVE_EVENTS_FUNCTION } from './live-sequencing.ts';
import type { Migration } from './migrate.ts';

export const CONTROL_SCHEMA = 'platform';

export const controlMigrations: Migration[] = [
  {
    id: '0001_init',
    statements: [
      `CREATE TABLE platform.accounts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        email text NOT NULL,
        name text,
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE UNIQUE INDEX accounts_email_key ON platform.accounts (lower(email))`,
      `CREATE TABLE platform.projects (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_id bigint NOT NULL REFERENCES platform.accounts(id) ON DELETE CASCADE,
        slug text NOT NULL UNIQUE,
        name text NOT NULL,
        default_locale text NOT NULL DEFAULT 'en',
        plan text NOT NULL DEFAULT 'free',
        schema_name text NOT NULL UNIQUE,
        model_version integer NOT NULL DEFAULT 0,
        base_version integer NOT NULL DEFAULT 0,
        settings jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX projects_account_idx ON platform.projects (account_id)`,
      `CREATE TABLE platform.schema_versions (
        project_id bigint NOT NULL REFERENCES platform.projects(id) ON DELETE CASCADE,
        version integer NOT NULL,
        model json NOT NULL, -- json, not jsonb: declaration order of types and attributes matters
        migration jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, version)
      )`,
      `CREATE TABLE platform.locales (
        project_id bigint NOT NULL REFERENCES platform.projects(id) ON DELETE CASCADE,
        code text NOT NULL,
        name text NOT NULL,
        is_default boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, code)
      )`,
      `CREATE UNIQUE INDEX locales_one_default ON platform.locales (project_id) WHERE is_default`,
      `CREATE TABLE platform.roles (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id bigint NOT NULL REFERENCES platform.projects(id) ON DELETE CASCADE,
        type text NOT NULL,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        permissions jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (project_id, type)
      )`,
      `CREATE TABLE platform.api_tokens (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id bigint NOT NULL REFERENCES platform.projects(id) ON DELETE CASCADE,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        type text NOT NULL,
        permissions jsonb NOT NULL DEFAULT '{}',
        key_hash text NOT NULL UNIQUE,
        expires_at timestamptz,
        last_used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (project_id, name)
      )`,
      `CREATE TABLE platform.usage_counters (
        project_id bigint NOT NULL REFERENCES platform.projects(id) ON DELETE CASCADE,
        period date NOT NULL,
        requests bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (project_id, period)
      )`,
    ],
  },
  {
    id: '0002_sessions',
    statements: [
      // Account sessions (dashboard cookies and Bearer automation): listed and revoked server-side.
      `CREATE TABLE platform.sessions (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_id bigint NOT NULL REFERENCES platform.accounts(id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        user_agent text,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`,
      `CREATE INDEX sessions_account_idx ON platform.sessions (account_id)`,
    ],
  },
  {
    id: '0003_project_members',
    statements: [
      // Who may manage a project, and how: owners (everything), editors (all but deleting the
      // project, its team and billing), viewers (read only).
      `CREATE TABLE platform.project_members (
        project_id bigint NOT NULL REFERENCES platform.projects(id) ON DELETE CASCADE,
        account_id bigint NOT NULL REFERENCES platform.accounts(id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, account_id)
      )`,
      `CREATE INDEX project_members_account_idx ON platform.project_members (account_id)`,
      // Every existing project's creator is its owner.
      `INSERT INTO platform.project_members (project_id, account_id, role, created_at)
        SELECT id, account_id, 'owner', created_at FROM platform.projects`,
      // projects.account_id is now the project's primary owner (kept pointing at one of its
      // owners); deleting an account must hand its shared projects over first, never cascade a
      // project row away with its schema left behind.
      `ALTER TABLE platform.projects DROP CONSTRAINT projects_account_id_fkey`,
      `ALTER TABLE platform.projects ADD CONSTRAINT projects_account_id_fkey
        FOREIGN KEY (account_id) REFERENCES platform.accounts(id) ON DELETE RESTRICT`,
      // Invitations by e-mail: the link's token is random and only its keyed hash is stored.
      `CREATE TABLE platform.project_invitations (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id bigint NOT NULL REFERENCES platform.projects(id) ON DELETE CASCADE,
        email text NOT NULL,
        role text NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
        token_hash text NOT NULL UNIQUE,
        invited_by bigint REFERENCES platform.accounts(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz
      )`,
      `CREATE INDEX project_invitations_project_idx ON platform.project_invitations (project_id)`,
    ],
  },
  {
    id: '0004_account_email',
    statements: [
      `ALTER TABLE platform.accounts ADD COLUMN email_verified_at timestamptz`,
      // Single-use links mailed to an account (e-mail verification, password reset): random
      // tokens of which only the keyed hash is stored.
      `CREATE TABLE platform.account_tokens (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_id bigint NOT NULL REFERENCES platform.accounts(id) ON DELETE CASCADE,
        purpose text NOT NULL CHECK (purpose IN ('verify-email', 'reset-password')),
        token_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`,
      `CREATE INDEX account_tokens_account_idx ON platform.account_tokens (account_id)`,
    ],
  },
  {
    id: '0005_billing',
    statements: [
      // A project whose payment failed keeps `plan` until this moment, then is on `free` (decided
      // when the plan is read, so nothing has to run at that moment).
      `ALTER TABLE platform.projects ADD COLUMN plan_grace_until timestamptz`,
      // One Stripe customer per account, reused by every checkout it starts.
      `CREATE TABLE platform.billing_customers (
        account_id bigint PRIMARY KEY REFERENCES platform.accounts(id) ON DELETE CASCADE,
        customer_id text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      // Every Stripe subscription paying for a project, as last fetched from Stripe. `event_at`
      // is the `created` time of the newest event applied: older events are ignored.
      `CREATE TABLE platform.subscriptions (
        id text PRIMARY KEY,
        project_id bigint NOT NULL REFERENCES platform.projects(id) ON DELETE CASCADE,
        account_id bigint REFERENCES platform.accounts(id) ON DELETE SET NULL,
        customer_id text NOT NULL,
        plan text NOT NULL,
        status text NOT NULL,
        current_period_end timestamptz,
        cancel_at_period_end boolean NOT NULL DEFAULT false,
        grace_until timestamptz,
        event_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX subscriptions_project_idx ON platform.subscriptions (project_id)`,
      // Webhook events applied, by Stripe's event id: inserted in the transaction that applies
      // the event, so a second delivery (even concurrent, to another instance) changes nothing.
      `CREATE TABLE platform.stripe_events (
        id text PRIMARY KEY,
        type text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now()
      )`,
      // An upper bound of each project's document count, raised by every create in its own
      // transaction (see @cms/billing document-quota.ts); counted again when it passes the limit.
      `CREATE TABLE platform.document_quota (
        project_id bigint PRIMARY KEY REFERENCES platform.projects(id) ON DELETE CASCADE,
        model_version integer NOT NULL,
        at_most bigint NOT NULL
      )`,
    ],
  },
  {
    id: '0006_usage_detail',
    statements: [
      // Per project and UTC day: metered requests and the requests refused with 429, by the
      // limit that refused them (written with usage_counters by the meter, @cms/billing).
      `CREATE TABLE platform.usage_daily (
        project_id bigint NOT NULL REFERENCES platform.projects(id) ON DELETE CASCADE,
        day date NOT NULL,
        requests bigint NOT NULL DEFAULT 0,
        rejected_per_second bigint NOT NULL DEFAULT 0,
        rejected_monthly bigint NOT NULL DEFAULT 0,
        rejected_auth bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (project_id, day)
      )`,
      // Per project and UTC day: requests by route (`GET /api/articles/:documentId`), at most
      // 200 routes a day plus 'other'; kept 90 days (pruned by day).
      `CREATE TABLE platform.usage_routes (
        project_id bigint NOT NULL REFERENCES platform.projects(id) ON DELETE CASCADE,
        day date NOT NULL,
        route text NOT NULL,
        requests bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (project_id, day, route)
      )`,
      `CREATE INDEX usage_routes_day_idx ON platform.usage_routes (day)`,
    ],
  },
  {
    id: '0007_webhooks',
    statements: [
      // A project's webhooks. The signing secret is kept encrypted (AES-256-GCM under a key
      // derived from APP_SECRET): deliveries need it back to sign, so a hash would not do.
      `CREATE TABLE platform.webhooks (
        id bigserial PRIMARY KEY,
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
      // One row per (event, webhook), inserted in the transaction of the change (the outbox):
      // `outbox` is true until the relay hands the row to the queue (or, without Redis, until the
      // in-process loop is done with it). `run` counts replays.
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
      // Every attempt of a delivery: the delivery log.
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
    ],
  },
  {
    id: '0008_clusters',
    statements: [
      // The Postgres clusters projects are placed on (docs/operations.md § More than one Postgres
      // cluster). Their URLs stay in the configuration (DATABASE_URL is `main`, DATABASE_URLS the
      // others): a row names one and says whether new projects may land there.
      `CREATE TABLE platform.clusters (
        name text PRIMARY KEY,
        state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'draining')),
        pinned_only boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `INSERT INTO platform.clusters (name) VALUES ('main')`,
      `ALTER TABLE platform.projects ADD COLUMN cluster text NOT NULL DEFAULT 'main' REFERENCES platform.clusters(name)`,
      `CREATE INDEX projects_cluster_idx ON platform.projects (cluster)`,
    ],
  },
  {
    id: '0009_archives_and_deleted_projects',
    statements: [
      // Exports and backups of a project: archives in Strapi's data-transfer format kept in the
      // media storage under `storage_key`. `heartbeat_at` is moved on while the archive is being
      // written: a running row whose heartbeat stopped (its process died) is reported failed.
      `CREATE TABLE platform.project_archives (
        id text PRIMARY KEY,
        project_id bigint NOT NULL REFERENCES platform.projects(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('export', 'manual', 'scheduled')),
        status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'failed')),
        storage_key text NOT NULL,
        size bigint,
        counts jsonb,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        expires_at timestamptz,
        heartbeat_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX project_archives_project_idx ON platform.project_archives (project_id, created_at DESC)`,
      // A deleted project answers 404 at once and is kept (schema, media, tokens, archives) until
      // it is restored or purged, 7 days later.
      // Restores of a backup: into the project itself (`in-place`: written into a staged project
      // whose schema the project then takes) or into a new project. `into_project_id` is the
      // project being written (staged or new).
      `CREATE TABLE platform.project_restores (
        id text PRIMARY KEY,
        project_id bigint NOT NULL REFERENCES platform.projects(id) ON DELETE CASCADE,
        archive_id text NOT NULL,
        target text NOT NULL CHECK (target IN ('in-place', 'new-project')),
        status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'failed')),
        into_project_id bigint REFERENCES platform.projects(id) ON DELETE SET NULL,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        heartbeat_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX project_restores_project_idx ON platform.project_restores (project_id, created_at DESC)`,
      `ALTER TABLE platform.projects ADD COLUMN deleted_at timestamptz`,
      `CREATE INDEX projects_deleted_idx ON platform.projects (deleted_at) WHERE deleted_at IS NOT NULL`,
    ],
  },
  {
    id: '0010_history_retention',
    statements: [
      // When the maintenance round last deleted the project's content history past its plan's
      // retention (at most once a day per project, `@cms/documents` history-retention.ts).
      `ALTER TABLE platform.projects ADD COLUMN history_pruned_at timestamptz`,
    ],
  },
  {
    id: '0011_content_schedules',
    statements: [
      // The due index of scheduled releases and scheduled actions (@cms/releases
      // schedule-index.ts): one row per pending schedule, written in the same transaction as the
      // schedule's own row in the project's schema, so the scheduler finds what is due with one
      // indexed query whatever the number of projects. The project's row is the truth; this one
      // only says when to look. Each cluster's platform schema has its own (c0002).
      `CREATE TABLE platform.content_schedules (
        project_id bigint NOT NULL REFERENCES platform.projects(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('release', 'action')),
        target_id bigint NOT NULL,
        run_at timestamptz NOT NULL,
        PRIMARY KEY (project_id, kind, target_id)
      )`,
      `CREATE INDEX content_schedules_due_idx ON platform.content_schedules (run_at)`,
    ],
  },
  {
    // The audit log (audit-log-table.ts, @cms/audit, docs/audit-log.md). Each cluster's platform schema has its own (c0004).
    id: '0012_audit_log',
    statements: AUDIT_LOG_STATEMENTS,
  },
  {
    id: '0013_two_factor',
    statements: [
      // Two-factor sign-in (@cms/auth two-factor.ts, docs/two-factor.md). The TOTP secrets are
      // AES-256-GCM ciphertexts under a key derived from APP_SECRET: `pending_secret` from setup
      // until a code confirms it, `secret` once enabled (`enabled_at`). `last_step` is the last
      // accepted time step: a code of that step or an earlier one is never accepted again.
      `CREATE TABLE platform.account_two_factor (
        account_id bigint PRIMARY KEY REFERENCES platform.accounts(id) ON DELETE CASCADE,
        secret text,
        pending_secret text,
        last_step bigint NOT NULL DEFAULT 0,
        enabled_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      // Single-use recovery codes, stored as keyed hashes; `used_at` once spent.
      `CREATE TABLE platform.account_recovery_codes (
        account_id bigint NOT NULL REFERENCES platform.accounts(id) ON DELETE CASCADE,
        code_hash text NOT NULL,
        used_at timestamptz,
        PRIMARY KEY (account_id, code_hash)
      )`,
    ],
  },
  {
    id: '0014_sign_in_security',
    statements: [
      // Where a session was opened from and last used from (docs/sessions.md): the client IP at
      // sign-in and the IP of its last use (written with the once-a-minute touch of `verify`).
      `ALTER TABLE platform.sessions ADD COLUMN ip text, ADD COLUMN last_seen_ip text`,
      // The devices each account has signed in from, so a sign-in from a new one is mailed
      // (@cms/auth known-devices.ts): a keyed hash of the browser's device cookie, or of the user
      // agent and IP of a client without cookies. Only the most recently seen ones are kept.
      `CREATE TABLE platform.account_devices (
        account_id bigint NOT NULL REFERENCES platform.accounts(id) ON DELETE CASCADE,
        device_hash text NOT NULL,
        first_seen_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (account_id, device_hash)
      )`,
    ],
  },
  {
    id: '0015_single_sign_on',
    statements: [
      // Single sign-on with OpenID Connect (docs/single-sign-on.md, @cms/auth sso/): one identity
      // provider per project (enterprise plan) for one e-mail domain. The domain serves sign-in
      // once the project proved it holds it (a DNS TXT record with `domain_token`), and then for
      // that project only. The client secret is an AES-256-GCM ciphertext under a key derived
      // from APP_SECRET.
      `CREATE TABLE platform.sso_connections (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        project_id bigint NOT NULL UNIQUE REFERENCES platform.projects(id) ON DELETE CASCADE,
        issuer text NOT NULL,
        client_id text NOT NULL,
        client_secret text NOT NULL,
        email_domain text NOT NULL,
        default_role text NOT NULL CHECK (default_role IN ('editor', 'viewer')),
        domain_token text NOT NULL,
        domain_verified_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE UNIQUE INDEX sso_connections_domain_key ON platform.sso_connections (lower(email_domain)) WHERE domain_verified_at IS NOT NULL`,
      `CREATE INDEX sso_connections_domain_idx ON platform.sso_connections (lower(email_domain))`,
      // The accounts provisioned by single sign-on, the project whose connection made them, and the
      // provider's subject each is linked to. A removed connection leaves its accounts managed by
      // none (connection_id null): a new connection of the same project may take them over; a
      // password account, or another project's connection, never.
      `CREATE TABLE platform.sso_identities (
        account_id bigint PRIMARY KEY REFERENCES platform.accounts(id) ON DELETE CASCADE,
        connection_id bigint REFERENCES platform.sso_connections(id) ON DELETE SET NULL,
        project_id bigint NOT NULL,
        subject text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE UNIQUE INDEX sso_identities_subject_key ON platform.sso_identities (connection_id, subject)`,
      // The sessions opened by single sign-on: the provider's refresh token (sealed) and when the
      // provider last confirmed the account. A session whose connection is gone (null) is ended
      // at its next use.
      `CREATE TABLE platform.sso_sessions (
        session_id bigint PRIMARY KEY REFERENCES platform.sessions(id) ON DELETE CASCADE,
        connection_id bigint REFERENCES platform.sso_connections(id) ON DELETE SET NULL,
        refresh_token text NOT NULL,
        checked_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX sso_sessions_connection_idx ON platform.sso_sessions (connection_id)`,
    ],
  },
  {
    // The live change log's sequencer (live-sequencing.ts): positions a project's committed
    // events in one statement. Each cluster's platform schema has its own (c0003).
    id: '0016_live_sequencing',
    statements: [SEQUENCE_LIVE_EVENTS_FUNCTION],
  },
  {
    // Environments (management API § Environments, @cms/tenancy environments.ts): a project that
    // is a copy of its parent, slug `{parent}--{name}`, on the parent's cluster and plan, whose
    // members are the parent's. The copy runs in the background: `copying` (with a heartbeat: a
    // copy whose process died reads as failed), then `ready` or `failed` with the reason. The
    // platform drops a parent's environments before the parent (the cascade is a safety net).
    id: '0017_environments',
    statements: [
      `ALTER TABLE platform.projects
        ADD COLUMN parent_id bigint REFERENCES platform.projects(id) ON DELETE CASCADE,
        ADD COLUMN environment_name text,
        ADD COLUMN environment_status text CHECK (environment_status IN ('copying', 'ready', 'failed')),
        ADD COLUMN environment_error text,
        ADD COLUMN environment_heartbeat_at timestamptz,
        ADD CONSTRAINT projects_environment_check CHECK ((parent_id IS NULL) = (environment_name IS NULL) AND (parent_id IS NULL) = (environment_status IS NULL))`,
      `CREATE UNIQUE INDEX projects_environment_key ON platform.projects (parent_id, environment_name) WHERE parent_id IS NOT NULL`,
    ],
  },
  {
    // The sequencer reads unsequenced events by a plain index scan (live-sequencing.ts).
    id: '0018_live_sequencing_index_scan',
    statements: [SEQUENCE_LIVE_EVENTS_FUNCTION],
  },
];
