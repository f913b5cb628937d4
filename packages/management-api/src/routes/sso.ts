// A project's single sign-on connection (`ssoRoutes` of apps/gateway/src/management/sso.ts;
// signing in through it: routes/sso-login.ts). Owners only; the enterprise plan for all but DELETE.
import { NO_PROJECT, withErrors } from '../errors.ts';
import { defineRoute, noBody, noContent } from '../route.ts';
import { dateTime, nullableDateTime } from '../shapes.ts';

const OWNERS = 'Only owners; or (`details: {limit: "singleSignOn", plan}`) the project is not on the enterprise plan';

/** A connection as answered: the client secret is write-only (only that it is set). */
const SsoConnection = {
  type: 'object',
  description: 'The project\'s OpenID Connect connection',
  required: ['issuer', 'clientId', 'clientSecretSet', 'emailDomain', 'defaultRole', 'domainVerification', 'createdAt', 'updatedAt'],
  properties: {
    issuer: { type: 'string' },
    clientId: { type: 'string' },
    clientSecretSet: { type: 'boolean', description: 'Always true: the secret is write-only' },
    emailDomain: { type: 'string', description: 'Lower case; claimed platform-wide once proved' },
    defaultRole: { type: 'string', enum: ['editor', 'viewer'], description: 'The role of members created by their first sign-in' },
    domainVerification: {
      type: 'object',
      description: 'The DNS TXT record proving the domain; sign-in works once it is verified',
      required: ['name', 'value', 'verified', 'verifiedAt'],
      properties: {
        name: { type: 'string', description: '`_cms-sso.{domain}`' },
        value: { type: 'string', description: '`cms-sso-verification={token}`' },
        verified: { type: 'boolean' },
        verifiedAt: nullableDateTime,
      },
    },
    createdAt: dateTime,
    updatedAt: dateTime,
  },
  examples: [{
    issuer: 'https://login.example.com', clientId: 'cms', clientSecretSet: true, emailDomain: 'example.com', defaultRole: 'editor',
    domainVerification: { name: '_cms-sso.example.com', value: 'cms-sso-verification=3f9a…', verified: true, verifiedAt: '2026-11-23T06:10:00.000Z' },
    createdAt: '2026-11-23T06:00:00.000Z', updatedAt: '2026-11-23T06:10:00.000Z',
  }],
} as const;

const answer = (description: string, nullable: boolean) => ({
  description,
  type: 'object',
  required: ['sso', 'callbackUrl'],
  properties: {
    sso: nullable ? { ...SsoConnection, type: ['object', 'null'], description: 'The connection; null when none is set up' } : SsoConnection,
    callbackUrl: { type: 'string', description: '`{origin}/v1/auth/sso/callback`: what to register at the provider' },
  },
}) as const;

export const ssoRoutes = {
  get: defineRoute({
    tags: ['Single sign-on'],
    summary: 'Get the single sign-on connection',
    description: '`sso` is null when none is set up.',
    response: withErrors({ 200: answer('The connection, or null', true) }, { 403: OWNERS, 404: NO_PROJECT }),
  }),

  put: defineRoute({
    tags: ['Single sign-on'],
    summary: 'Set up the single sign-on connection',
    description: 'Creates or replaces it. The issuer\'s discovery document is read first (https, a public address, code flow, PKCE `S256`, `client_secret_basic` or `client_secret_post`). `clientSecret` is required when creating, kept when an update leaves it out. A new domain needs a new proof.',
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['issuer', 'clientId', 'emailDomain', 'defaultRole'],
      properties: {
        issuer: { type: 'string', maxLength: 500 },
        clientId: { type: 'string', maxLength: 500 },
        clientSecret: { type: 'string', maxLength: 2000 },
        emailDomain: { type: 'string', maxLength: 253 },
        defaultRole: { type: 'string', maxLength: 50, description: '`editor` or `viewer`' },
      },
      examples: [{ issuer: 'https://login.example.com', clientId: 'cms', clientSecret: '…', emailDomain: 'example.com', defaultRole: 'editor' }],
    },
    response: withErrors({ 200: answer('The connection', false) }, {
      400: 'A bad field; an issuer whose discovery fails says which check on `issuer`; an environment',
      403: OWNERS,
      404: NO_PROJECT,
      409: 'Another project already uses single sign-on for this e-mail domain',
    }),
  }),

  verifyDomain: defineRoute({
    tags: ['Single sign-on'],
    summary: 'Verify the e-mail domain',
    description: 'Checks the DNS TXT record `domainVerification.name` for `domainVerification.value`. Owners only, enterprise plan.',
    docBody: noBody(),
    response: withErrors({ 200: answer('The connection, its domain verified', false) }, {
      400: 'The record was not found or holds something else (on `emailDomain`, saying what was found)',
      403: OWNERS,
      404: 'No such project or connection',
      409: 'Another project proved the domain first',
    }),
  }),

  remove: defineRoute({
    tags: ['Single sign-on'],
    summary: 'Remove the single sign-on connection',
    description: 'On any plan (a downgraded project frees its domain); every session it opened ends at once.',
    response: withErrors({ 204: noContent('Removed') }, { 403: 'Only owners', 404: 'No such project or connection' }),
  }),
};
