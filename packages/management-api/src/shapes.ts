// The objects several `/v1` routes answer with, as JSON Schema with an `$id` (a component of the
// document: `{ $ref: 'Project#' }` in a route's schema). Each lists exactly the keys the gateway
// writes today (fastify serializes through these schemas: an unlisted key would be dropped, a
// `null` under a non-nullable type coerced), `required` only where the key is always there.

// The building blocks every route module uses (one definition each).
export const dateTime = { type: 'string', format: 'date-time' } as const;
export const nullableDateTime = { type: ['string', 'null'], format: 'date-time' } as const;
export const nullableString = { type: ['string', 'null'] } as const;
export const nullableInteger = { type: ['integer', 'null'] } as const;
export const nullableNumber = { type: ['number', 'null'] } as const;
/** A string or null of at most `maxLength` characters (request bodies). */
export const nullableText = (maxLength: number) => ({ type: ['string', 'null'], maxLength }) as const;

/** A member's role in a project. */
export const projectRole = { type: 'string', enum: ['owner', 'editor', 'viewer'] } as const;

/** What a release action or a scheduled action does to its document-locale. */
export const publishAction = { type: 'string', enum: ['publish', 'unpublish'] } as const;

/** The state of an export, a backup or a restore (written in the background). */
export const archiveStatus = { type: 'string', enum: ['running', 'done', 'failed'] } as const;

/**
 * The events a webhook may listen to: the one list (@cms/webhooks takes it from here, the layer
 * below it; the `Webhook` shape and the webhook routes' bodies name it).
 */
export const WEBHOOK_EVENTS = [
  'entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish',
  'media.create', 'media.update', 'media.delete',
  'releases.publish',
] as const;

/**
 * `{[key]: schema}`, the answer of a route that answers one object under one key (`{project}`,
 * `{webhook}`, `{data}`, …), described as `description`.
 */
export const answerWith = <const K extends string, const S extends object>(key: K, schema: S, description: string) => ({
  description,
  type: 'object',
  required: [key],
  properties: { [key]: schema } as Record<K, S>,
}) as const;

/** `{[key]: [item]}`, the answer of a route that lists items under one key (`{projects: […]}`). */
export const listOf = <const K extends string, const S extends object>(key: K, items: S, description: string, listDescription?: string) =>
  answerWith(key, { type: 'array', items, ...(listDescription ? { description: listDescription } : {}) } as const, description);

/**
 * `{data: [item], meta: {pagination, …}}`, a page of a paged list (Strapi's envelope); `meta` adds
 * keys (always present) beside `pagination`.
 */
export const pageOf = <const S extends object, const M extends Record<string, object> = Record<never, never>>(items: S, description: string, meta?: M) => ({
  description,
  type: 'object',
  required: ['data', 'meta'],
  properties: {
    data: { type: 'array', items },
    meta: {
      type: 'object',
      required: ['pagination', ...Object.keys(meta ?? {})],
      properties: { pagination: { $ref: 'Pagination#' }, ...meta } as { pagination: { $ref: 'Pagination#' } } & M,
    },
  },
}) as const;

/** `{uid: [action]}`: what a role or an API token may do, per content type uid (and `plugin::upload`). */
export const PermissionMap = {
  $id: 'PermissionMap',
  description: 'Allowed actions per content type uid (`find`, `findOne`, `create`, `update`, `delete`, `createLocalization`) and `plugin::upload` (`find`, `findOne`, `upload`, `update`, `destroy`)',
  type: 'object',
  additionalProperties: { type: 'array', items: { type: 'string' } },
  examples: [{ 'api::article.article': ['find', 'findOne'] }],
} as const;

/** A platform account (the signed-in person). */
export const Account = {
  $id: 'Account',
  description: 'A platform account',
  type: 'object',
  required: ['id', 'email', 'name', 'emailVerified', 'twoFactorEnabled'],
  properties: {
    id: { type: 'integer' },
    email: { type: 'string' },
    name: nullableString,
    emailVerified: { type: 'boolean', description: 'The address was confirmed through the mailed link' },
    twoFactorEnabled: { type: 'boolean', description: 'Sign-in asks for a TOTP or recovery code' },
  },
  examples: [{ id: 1, email: 'me@example.com', name: 'Ada', emailVerified: true, twoFactorEnabled: false }],
} as const;

/** One of the account's sessions (`GET /v1/auth/sessions`). */
export const Session = {
  $id: 'Session',
  description: 'A signed-in session of the account',
  type: 'object',
  required: ['id', 'createdAt', 'lastUsedAt', 'expiresAt', 'userAgent', 'device', 'ip', 'lastSeenIp', 'current'],
  properties: {
    id: { type: 'integer' },
    createdAt: dateTime,
    lastUsedAt: dateTime,
    expiresAt: dateTime,
    userAgent: nullableString,
    device: { type: 'string', description: 'A label made from the user agent ("Chrome 120 on macOS")' },
    ip: { ...nullableString, description: 'The client IP at sign-in' },
    lastSeenIp: { ...nullableString, description: 'The client IP of its last use' },
    current: { type: 'boolean', description: 'The session of this request' },
  },
  examples: [{
    id: 12, createdAt: '2026-11-23T06:00:00.000Z', lastUsedAt: '2026-11-29T09:30:00.000Z', expiresAt: '2026-12-23T06:00:00.000Z',
    userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    device: 'Chrome 120 on macOS', ip: '203.0.113.7', lastSeenIp: '203.0.113.9', current: true,
  }],
} as const;

/** A project as its members see it (the contract's keys, the caller's role, an environment's parent). */
export const Project = {
  $id: 'Project',
  description: 'A project, with the caller\'s role in it; URLs as seen from the request\'s origin',
  type: 'object',
  required: ['id', 'slug', 'name', 'defaultLocale', 'apiUrl', 'graphqlUrl', 'plan', 'createdAt', 'role'],
  properties: {
    id: { type: 'integer' },
    slug: { type: 'string', description: '`^[a-z][a-z0-9-]{1,38}[a-z0-9]$`; an environment\'s is `{parent}--{name}`' },
    name: { type: 'string' },
    defaultLocale: { type: 'string' },
    apiUrl: { type: 'string', description: 'The content API base, ending in `/api`' },
    graphqlUrl: { type: 'string' },
    plan: { type: 'string', enum: ['free', 'pro', 'enterprise'], description: 'The plan that applies now (`free` past a payment\'s grace period)' },
    createdAt: dateTime,
    role: { ...projectRole, description: 'The caller\'s role in it' },
    parent: {
      type: 'object',
      description: 'An environment\'s parent project (absent on other projects)',
      required: ['slug', 'name'],
      properties: { slug: { type: 'string' }, name: { type: 'string' } },
    },
    environment: { ...nullableString, description: 'An environment\'s name (absent on other projects)' },
  },
  examples: [{
    id: 1, slug: 'my-blog', name: 'My blog', defaultLocale: 'en', apiUrl: 'https://cms.example.com/p/my-blog/api',
    graphqlUrl: 'https://cms.example.com/p/my-blog/graphql', plan: 'free', createdAt: '2026-11-23T06:00:00.000Z', role: 'owner',
  }],
} as const;

/** A member of a project's team. */
export const Member = {
  $id: 'Member',
  description: 'A member of a project\'s team',
  type: 'object',
  required: ['accountId', 'email', 'name', 'role', 'createdAt'],
  properties: {
    accountId: { type: 'integer' },
    email: { type: 'string' },
    name: nullableString,
    role: projectRole,
    createdAt: { ...dateTime, description: 'When they joined' },
  },
  examples: [{ accountId: 1, email: 'me@example.com', name: 'Ada', role: 'owner', createdAt: '2026-11-23T06:00:00.000Z' }],
} as const;

/** A pending invitation to a project's team. */
export const Invitation = {
  $id: 'Invitation',
  description: 'A pending invitation to a project\'s team (its link is mailed, valid 7 days and once)',
  type: 'object',
  required: ['id', 'email', 'role', 'createdAt', 'expiresAt'],
  properties: {
    id: { type: 'integer' },
    email: { type: 'string' },
    role: { ...projectRole, description: 'The role given when it is accepted' },
    createdAt: dateTime,
    expiresAt: dateTime,
  },
  examples: [{ id: 4, email: 'colleague@example.com', role: 'editor', createdAt: '2026-11-23T06:00:00.000Z', expiresAt: '2026-11-30T06:00:00.000Z' }],
} as const;

/** An API token of a project's content API (never its key). */
export const ApiToken = {
  $id: 'ApiToken',
  description: 'A content API token (never its access key)',
  type: 'object',
  required: ['id', 'name', 'type', 'permissions', 'expiresAt', 'createdAt'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    type: { type: 'string', enum: ['read-only', 'full-access', 'custom'] },
    permissions: { $ref: 'PermissionMap#' },
    expiresAt: { ...nullableDateTime, description: 'Null: never expires' },
    createdAt: dateTime,
  },
  examples: [{ id: 2, name: 'Website', type: 'read-only', permissions: {}, expiresAt: '2027-02-21T06:00:00.000Z', createdAt: '2026-11-23T06:00:00.000Z' }],
} as const;

/** An end-user role of a project (users-and-permissions). */
export const Role = {
  $id: 'Role',
  description: 'An end-user role (users-and-permissions) and what it may do',
  type: 'object',
  required: ['type', 'name', 'permissions'],
  properties: {
    type: { type: 'string', description: '`public`, `authenticated` or a custom role\'s key' },
    name: { type: 'string' },
    permissions: { $ref: 'PermissionMap#' },
  },
  examples: [{ type: 'public', name: 'Public', permissions: { 'api::article.article': ['find', 'findOne'] } }],
} as const;

/** A locale of a project. */
export const Locale = {
  $id: 'Locale',
  description: 'A locale of a project',
  type: 'object',
  required: ['code', 'name', 'isDefault'],
  properties: {
    code: { type: 'string', description: 'BCP-47-like: `en`, `fr`, `pt-BR`' },
    name: { type: 'string' },
    isDefault: { type: 'boolean', description: 'The project\'s default locale (exactly one is)' },
  },
  examples: [{ code: 'en', name: 'English', isDefault: true }],
} as const;

/** A project webhook (never its signing secret). */
export const Webhook = {
  $id: 'Webhook',
  description: 'A project webhook (never its signing secret)',
  type: 'object',
  required: ['id', 'name', 'url', 'events', 'headers', 'enabled', 'createdAt', 'updatedAt'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    url: { type: 'string' },
    events: { type: 'array', items: { type: 'string', enum: WEBHOOK_EVENTS }, description: 'The events it is sent' },
    headers: { type: 'object', additionalProperties: { type: 'string' }, description: 'Extra request headers of every delivery' },
    enabled: { type: 'boolean', description: 'Deliveries are sent' },
    createdAt: dateTime,
    updatedAt: dateTime,
  },
  examples: [{
    id: 5, name: 'Rebuild the site', url: 'https://hooks.example.com/rebuild', events: ['entry.publish', 'entry.unpublish'], headers: {},
    enabled: true, createdAt: '2026-11-23T06:00:00.000Z', updatedAt: '2026-11-23T06:00:00.000Z',
  }],
} as const;

/** `meta.pagination` of the paged lists (Strapi's page-based pagination). */
export const Pagination = {
  $id: 'Pagination',
  description: 'Which page this is, of how many',
  type: 'object',
  required: ['page', 'pageSize', 'pageCount', 'total'],
  properties: {
    page: { type: 'integer' },
    pageSize: { type: 'integer' },
    pageCount: { type: 'integer' },
    total: { type: 'integer', description: 'Items on every page' },
  },
  examples: [{ page: 1, pageSize: 25, pageCount: 4, total: 87 }],
} as const;

/** An entry of an audit log (a project's or an account's own). */
export const AuditEntry = {
  $id: 'AuditEntry',
  description: 'An entry of an audit log',
  type: 'object',
  required: ['id', 'action', 'actor', 'ip', 'userAgent', 'payload', 'date'],
  properties: {
    id: { type: 'integer' },
    action: { type: 'string', description: 'Strapi\'s action names where it has them (`entry.create`, `admin.auth.success`, …)' },
    actor: {
      type: 'object',
      required: ['type', 'id'],
      properties: {
        type: { type: 'string', enum: ['account', 'api-token', 'end-user', 'system'] },
        id: { ...nullableString, description: 'The account\'s, API token\'s or end user\'s id; null for the system' },
        email: { type: 'string', description: 'An account actor\'s e-mail' },
      },
    },
    ip: nullableString,
    userAgent: nullableString,
    payload: { type: 'object', additionalProperties: true, description: 'A summary of the change (secrets redacted)' },
    date: dateTime,
  },
  examples: [{
    id: 301, action: 'entry.create', actor: { type: 'account', id: '1', email: 'me@example.com' }, ip: '203.0.113.7',
    userAgent: 'Mozilla/5.0', payload: { uid: 'api::article.article', documentId: 'a1b2c3d4e5f6g7h8i9j0k1l2', locale: 'en' }, date: '2026-11-29T09:30:00.000Z',
  }],
} as const;

/** A plan's metered limits (`/usage` and `/billing`), inlined where used (no `$id`). */
export const PlanLimits = {
  type: 'object',
  description: 'The limits of a plan',
  required: ['requestsPerMonth', 'requestsPerSecond', 'storageBytes', 'documents', 'maxUploadBytes'],
  properties: {
    requestsPerMonth: { type: 'integer' },
    requestsPerSecond: { type: 'integer' },
    storageBytes: { type: 'integer', description: 'The media library\'s files' },
    documents: { type: 'integer' },
    maxUploadBytes: { type: 'integer', description: 'The largest file one upload takes' },
  },
  examples: [{ requestsPerMonth: 100000, requestsPerSecond: 50, storageBytes: 1073741824, documents: 10000, maxUploadBytes: 52428800 }],
} as const;

/** A project's usage this month (`/usage` adds the plan's `limits`; `/billing` shows it as `usage`), inlined where used. */
export const MonthlyUsage = {
  type: 'object',
  description: 'The project\'s usage this month',
  required: ['period', 'requests', 'storageBytes', 'historyBytes', 'documents'],
  properties: {
    period: { type: 'string', description: 'The month, `YYYY-MM` (UTC)' },
    requests: { type: 'integer', description: 'Metered requests of the project\'s APIs this month (its environments\' included)' },
    storageBytes: { type: 'integer', description: 'The media library\'s files, counted against `limits.storageBytes`' },
    historyBytes: { type: 'integer', description: 'The content history on disk (kept per plan, not counted against `storageBytes`)' },
    documents: { type: 'integer', description: 'Documents, counted against `limits.documents`' },
  },
  examples: [{ period: '2026-11', requests: 1234, storageBytes: 52000, historyBytes: 16384, documents: 42 }],
} as const;
