// A project's settings (apps/gateway/src/management/settings.ts): GraphQL, end users
// (users-permissions), CORS, delivery. Each PUT takes any subset of the keys and is checked by its
// handler (every bad or unknown key named in `details.errors`), so its body is shown (`docBody`),
// not validated: the keys of the answer, none required.
import { NO_PROJECT, withErrors } from '../errors.ts';
import { defineRoute } from '../route.ts';
import { answerWith, nullableString } from '../shapes.ts';

const EDITORS = 'Viewers may read the settings, not change them';
const BAD_KEYS = 'A body that is not an object, unknown keys or bad values: each named in `details.errors` (nothing is saved)';

export const GraphqlSettings = {
  type: 'object',
  description: 'The project\'s GraphQL settings (Strapi\'s `graphql.config`)',
  required: ['defaultLimit', 'maxLimit', 'depthLimit', 'costLimit', 'introspection', 'playground'],
  properties: {
    defaultLimit: { type: 'integer', minimum: 1, maximum: 10_000, description: 'Rows of a list without pagination (default 10)' },
    maxLimit: { type: 'integer', minimum: -1, maximum: 100_000, description: 'Largest page; -1: no maximum (the default)' },
    depthLimit: { type: 'integer', minimum: 0, maximum: 100, description: 'Deepest field nesting accepted; 0: no limit (default 10)' },
    costLimit: { type: 'integer', minimum: 0, maximum: 100_000_000, description: 'Largest estimated cost; 0: no limit (default 50000)' },
    introspection: { type: 'boolean', description: 'Schema introspection (default true; GraphiQL needs it)' },
    playground: { type: 'boolean', description: 'GraphiQL on `GET /graphql` for browsers (default true)' },
  },
  examples: [{ defaultLimit: 10, maxLimit: -1, depthLimit: 10, costLimit: 50000, introspection: true, playground: true }],
} as const;

export const UsersPermissionsSettings = {
  type: 'object',
  description: 'The project\'s end-user settings (Strapi\'s users-permissions advanced settings)',
  required: ['allowRegister', 'emailConfirmation', 'defaultRole', 'jwtExpiresIn', 'resetPasswordUrl', 'emailConfirmationRedirect'],
  properties: {
    allowRegister: { type: 'boolean', description: '`POST /api/auth/local/register` is open (default true)' },
    emailConfirmation: { type: 'boolean', description: 'New users confirm their e-mail before they can log in (default false)' },
    defaultRole: { type: 'string', description: 'Role type given to registered users: an existing role other than `public` (default `authenticated`)' },
    jwtExpiresIn: { type: 'integer', minimum: 60, maximum: 31_536_000, description: 'Lifetime of end-user JWTs, seconds (default 2592000: 30 days)' },
    resetPasswordUrl: { ...nullableString, description: 'The front end\'s page receiving `?code=` of a password reset (http(s); default null)' },
    emailConfirmationRedirect: { type: 'string', description: 'Where the e-mail confirmation redirects: an http(s) URL or a path (default `/`)' },
  },
  examples: [{ allowRegister: true, emailConfirmation: false, defaultRole: 'authenticated', jwtExpiresIn: 2592000, resetPasswordUrl: null, emailConfirmationRedirect: '/' }],
} as const;

export const CorsSettings = {
  type: 'object',
  description: 'Which web pages may call the project\'s APIs from a browser (Strapi\'s `strapi::cors`)',
  required: ['origins', 'credentials', 'maxAge'],
  properties: {
    origins: { type: 'array', items: { type: 'string' }, description: '`["*"]` (any origin, reflected; the default) or 1–100 exact origins `scheme://host[:port]`' },
    credentials: { type: 'boolean', description: '`Access-Control-Allow-Credentials: true` (default true)' },
    maxAge: { type: 'integer', minimum: 0, maximum: 31_536_000, description: '`Access-Control-Max-Age` of preflights, seconds (default 31536000)' },
  },
  examples: [{ origins: ['https://app.example.com'], credentials: true, maxAge: 31536000 }],
} as const;

export const DeliverySettings = {
  type: 'object',
  description: 'How long CDNs keep the project\'s public answers, and whether the gateways keep its answers in memory',
  required: ['sMaxAge', 'answerCache'],
  properties: {
    sMaxAge: { type: 'integer', minimum: 0, maximum: 31_536_000, description: '`s-maxage` of public published reads, seconds; 0: CDNs revalidate every time (default 60)' },
    answerCache: { type: 'boolean', description: 'false: every read runs its SQL (default true)' },
  },
  examples: [{ sMaxAge: 60, answerCache: true }],
} as const;

/** A PUT's body as shown: any subset of the settings' keys (the others keep their value). */
const changeOf = <const S extends { properties: object }>(schema: S, example: object) => ({
  type: 'object',
  description: 'The keys to change (any subset); the others keep their value',
  additionalProperties: false,
  properties: schema.properties,
  examples: [example],
}) as const;

const section = <const K extends string, const S extends { properties: object }>(key: K, schema: S, name: string, keys: string, example: object) => ({
  get: defineRoute({
    tags: ['Settings'],
    summary: `Get the ${name} settings`,
    description: 'The effective settings (defaults where none were set). Any member.',
    response: withErrors({ 200: answerWith(key, schema, `The ${name} settings`) }, { 404: NO_PROJECT }),
  }),
  update: defineRoute({
    tags: ['Settings'],
    summary: `Change the ${name} settings`,
    description: `The body is any subset of ${keys}, merged over the current settings; the answer is the effective settings. Owners and editors; the change applies on every instance at once.`,
    docBody: changeOf(schema, example),
    response: withErrors({ 200: answerWith(key, schema, `The ${name} settings after the change`) }, { 400: BAD_KEYS, 403: EDITORS, 404: NO_PROJECT }),
  }),
});

const graphql = section('graphql', GraphqlSettings, 'GraphQL', '`defaultLimit`, `maxLimit`, `depthLimit`, `costLimit`, `introspection`, `playground`',
  { maxLimit: 100, playground: false });
const usersPermissions = section('usersPermissions', UsersPermissionsSettings, 'end-user (users-permissions)',
  '`allowRegister`, `emailConfirmation`, `defaultRole`, `jwtExpiresIn`, `resetPasswordUrl`, `emailConfirmationRedirect`',
  { emailConfirmation: true, emailConfirmationRedirect: 'https://app.example.com/welcome' });
const cors = section('cors', CorsSettings, 'CORS', '`origins`, `credentials`, `maxAge` (an invalid origin is named as `["origins", "<index>"]`)',
  { origins: ['https://app.example.com', 'https://www.example.com'] });
const delivery = section('delivery', DeliverySettings, 'delivery', '`sMaxAge` (0–31536000) and `answerCache`', { sMaxAge: 300 });

export const settingsRoutes = {
  getGraphql: graphql.get,
  updateGraphql: graphql.update,
  getUsersPermissions: usersPermissions.get,
  updateUsersPermissions: usersPermissions.update,
  getCors: cors.get,
  updateCors: cors.update,
  getDelivery: delivery.get,
  updateDelivery: delivery.update,
};
