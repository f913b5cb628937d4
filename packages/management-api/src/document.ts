// What the OpenAPI document of `/v1` says besides its routes: tags (every operation names one of
// these), the ways to authenticate, and which of them an operation accepts.

/** Every operation's group, in the order the document lists them. */
export const TAGS = [
  { name: 'Accounts', description: 'Sign-up, login, sessions, passwords, e-mail verification, account deletion' },
  { name: 'Two-factor', description: 'TOTP sign-in: setup, enable (recovery codes), disable' },
  { name: 'Single sign-on', description: 'Signing in through a project\'s OpenID Connect provider, and the connection' },
  { name: 'Audit log', description: 'A project\'s audit log and the account\'s own (read-only)' },
  { name: 'Projects', description: 'Projects: create, list, rename, delete, restore' },
  { name: 'Team', description: 'Members, roles and invitations' },
  { name: 'Schema', description: 'The content model: content types and components (Strapi v5 `schema.json`), migrations' },
  { name: 'Content', description: 'Documents of the content manager (the dashboard\'s view of the content API)' },
  { name: 'History', description: 'Content history: versions and restores' },
  { name: 'Locales', description: 'A project\'s locales (i18n)' },
  { name: 'Media', description: 'The media library: folders' },
  { name: 'Roles', description: 'End-user roles and their permissions (users-and-permissions)' },
  { name: 'API tokens', description: 'Content API tokens' },
  { name: 'Usage', description: 'Requests, storage and documents against the plan' },
  { name: 'Billing', description: 'Plans, Stripe Checkout and portal, Stripe\'s webhook' },
  { name: 'Settings', description: 'A project\'s settings: GraphQL, CORS, security, e-mail' },
  { name: 'Preview', description: 'Draft access and preview URLs' },
  { name: 'Webhooks', description: 'Project webhooks, their deliveries and replays' },
  { name: 'Releases', description: 'Content releases and their actions' },
  { name: 'Scheduled actions', description: 'Scheduled publishing of single documents' },
  { name: 'Imports', description: 'Imports of Strapi projects and exports' },
  { name: 'Exports and backups', description: 'Exports, backups and restores' },
  { name: 'Environments', description: 'Environments (copies of a project) and promoting their model' },
  { name: 'OpenAPI', description: 'The OpenAPI documents: this one, and each project\'s content API' },
] as const;

export type Tag = (typeof TAGS)[number]['name'];

/** How a `/v1` caller authenticates: a session token (automation), or the dashboard's cookie. */
export const SECURITY_SCHEMES = {
  sessionToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'cms_s_…',
    description: 'The `token` answered by `POST /v1/auth/login` (or `/v1/auth/signup`), as `Authorization: Bearer cms_s_…`. No CSRF token needed.',
  },
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'cms_session',
    description: 'The dashboard\'s session: an HttpOnly, SameSite=Strict cookie set at sign-in (path `/v1`). A request with it that changes something (not GET, HEAD or OPTIONS) also sends `x-csrf-token` (403 without).',
  },
  csrfToken: {
    type: 'apiKey',
    in: 'header',
    name: 'x-csrf-token',
    description: 'The value of the readable `cms_csrf` cookie, echoed by the dashboard on every changing request made with the session cookie.',
  },
} as const;

/** What a signed-in operation accepts: a bearer token, or the cookie (with the CSRF header when `changes`). */
export function sessionSecurity(changes: boolean): Array<Record<string, string[]>> {
  return [{ sessionToken: [] }, changes ? { sessionCookie: [], csrfToken: [] } : { sessionCookie: [] }];
}

/** An operation open to anyone (sign-up, login, the mailed links, this document): `security: PUBLIC`. */
export const PUBLIC: [] = [];
