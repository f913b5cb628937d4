// The objects several `/v1` routes answer with, as JSON Schema with an `$id` (a component of the
// document: `{ $ref: 'Project#' }` in a route's schema). Each lists exactly the keys the gateway
// writes today (fastify serializes through these schemas: an unlisted key would be dropped, a
// `null` under a non-nullable type coerced), `required` only where the key is always there.

const dateTime = { type: 'string', format: 'date-time' } as const;
const nullableDateTime = { type: ['string', 'null'], format: 'date-time' } as const;
const nullableString = { type: ['string', 'null'] } as const;

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
    role: { type: 'string', enum: ['owner', 'editor', 'viewer'] },
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
  type: 'object',
  required: ['accountId', 'email', 'name', 'role', 'createdAt'],
  properties: {
    accountId: { type: 'integer' },
    email: { type: 'string' },
    name: nullableString,
    role: { type: 'string', enum: ['owner', 'editor', 'viewer'] },
    createdAt: dateTime,
  },
} as const;

/** A pending invitation to a project's team. */
export const Invitation = {
  $id: 'Invitation',
  type: 'object',
  required: ['id', 'email', 'role', 'createdAt', 'expiresAt'],
  properties: {
    id: { type: 'integer' },
    email: { type: 'string' },
    role: { type: 'string', enum: ['owner', 'editor', 'viewer'] },
    createdAt: dateTime,
    expiresAt: dateTime,
  },
} as const;

/** An API token of a project's content API (never its key). */
export const ApiToken = {
  $id: 'ApiToken',
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
} as const;

/** An end-user role of a project (users-and-permissions). */
export const Role = {
  $id: 'Role',
  type: 'object',
  required: ['type', 'name', 'permissions'],
  properties: {
    type: { type: 'string', description: '`public`, `authenticated` or a custom role\'s key' },
    name: { type: 'string' },
    permissions: { $ref: 'PermissionMap#' },
  },
} as const;

/** A locale of a project. */
export const Locale = {
  $id: 'Locale',
  type: 'object',
  required: ['code', 'name', 'isDefault'],
  properties: {
    code: { type: 'string', description: 'BCP-47-like: `en`, `fr`, `pt-BR`' },
    name: { type: 'string' },
    isDefault: { type: 'boolean' },
  },
} as const;

/** A project webhook (never its signing secret). */
export const Webhook = {
  $id: 'Webhook',
  type: 'object',
  required: ['id', 'name', 'url', 'events', 'headers', 'enabled', 'createdAt', 'updatedAt'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    url: { type: 'string' },
    events: {
      type: 'array',
      items: { type: 'string', enum: ['entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish', 'media.create', 'media.update', 'media.delete', 'releases.publish'] },
    },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    enabled: { type: 'boolean' },
    createdAt: dateTime,
    updatedAt: dateTime,
  },
} as const;

/** `meta.pagination` of the paged lists (Strapi's page-based pagination). */
export const Pagination = {
  $id: 'Pagination',
  type: 'object',
  required: ['page', 'pageSize', 'pageCount', 'total'],
  properties: {
    page: { type: 'integer' },
    pageSize: { type: 'integer' },
    pageCount: { type: 'integer' },
    total: { type: 'integer' },
  },
} as const;

/** An entry of an audit log (a project's or an account's own). */
export const AuditEntry = {
  $id: 'AuditEntry',
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
} as const;
