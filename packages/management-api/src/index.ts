// The management API (`/v1`) described once, as JSON Schema: the shapes its routes answer with,
// the error envelope, what the OpenAPI document says of authentication and tags. Browser-safe (no
// Node import; openapi-fetch only): the gateway validates and serializes with these, the dashboard and
// the CLI may validate with them (`sharedSchemas` into any JSON Schema 2020-12 validator) and call
// the API with the typed client generated from the document they make (client.ts, `make client`).
import { ErrorEnvelope } from './errors.ts';
import { Account, ApiToken, AuditEntry, Invitation, Locale, Member, Pagination, PermissionMap, Project, Role, Session, Webhook } from './shapes.ts';

export { ErrorEnvelope, errorResponse, withErrors, type ErrorStatus } from './errors.ts';
export { Account, ApiToken, AuditEntry, Invitation, Locale, Member, Pagination, PermissionMap, Project, Role, Session, WEBHOOK_EVENTS, Webhook } from './shapes.ts';
export { PUBLIC, SECURITY_SCHEMES, TAGS, sessionSecurity, type Tag } from './document.ts';
export { defineRoute, noContent, type RouteSchema } from './route.ts';
export { createManagementClient, type AnswerOf, type ManagementClient, type ManagementClientOptions, type components, type operations, type paths } from './client.ts';

/** Every shared schema (each with its `$id`), for `app.addSchema` and for a client's validator. */
export const sharedSchemas = [ErrorEnvelope, PermissionMap, Account, Session, Project, Member, Invitation, ApiToken, Role, Locale, Webhook, Pagination, AuditEntry] as const;

// Each route module's schemas (one module per route file of apps/gateway/src/management, one line each).
export * from './routes/accounts.ts';
export * from './routes/api-tokens.ts';
export * from './routes/audit-logs.ts';
export * from './routes/billing-webhook.ts';
export * from './routes/billing.ts';
export * from './routes/content.ts';
export * from './routes/email-settings.ts';
export * from './routes/environments.ts';
export * from './routes/exports.ts';
export * from './routes/history.ts';
export * from './routes/import.ts';
export * from './routes/locales.ts';
export * from './routes/media.ts';
export * from './routes/openapi.ts';
export * from './routes/preview.ts';
export * from './routes/projects.ts';
export * from './routes/releases.ts';
export * from './routes/restores.ts';
export * from './routes/roles.ts';
export * from './routes/scheduled-actions.ts';
export * from './routes/schema.ts';
export * from './routes/security-settings.ts';
export * from './routes/settings.ts';
export * from './routes/sso-login.ts';
export * from './routes/sso.ts';
export * from './routes/team.ts';
export * from './routes/two-factor.ts';
export * from './routes/usage.ts';
export * from './routes/webhooks.ts';
