// The control schema: accounts, projects, versioned models, locales, roles, tokens, usage.
// Forward-only: append new migrations, never edit applied ones.
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
];
