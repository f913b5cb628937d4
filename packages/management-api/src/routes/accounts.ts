// Accounts and their sessions (apps/gateway/src/management/accounts.ts).
import { PUBLIC } from '../document.ts';
import { withErrors } from '../errors.ts';
import { defineRoute, noBody, noContent, positiveId } from '../route.ts';
import { answerWith, listOf } from '../shapes.ts';

const password = { type: 'string', maxLength: 1000 } as const;
const email = { type: 'string', maxLength: 254 } as const;
const linkToken = { type: 'string', maxLength: 200, description: 'The token of the mailed link' } as const;

const credentials = {
  type: 'object',
  additionalProperties: false,
  required: ['email', 'password'],
  properties: { email, password },
} as const;

/** `{token, account}`: a new session's token (also set as the dashboard's cookies) and its account. */
const signedIn = (description: string) => ({
  description,
  type: 'object',
  required: ['token', 'account'],
  properties: {
    token: { type: 'string', description: 'The session token (`cms_s_…`): `Authorization: Bearer <token>` on every other call' },
    account: { $ref: 'Account#' },
  },
  examples: [{ token: 'cms_s_…', account: { id: 1, email: 'me@example.com', name: 'Ada', emailVerified: false, twoFactorEnabled: false } }],
}) as const;

const accountAnswer = (description: string) => answerWith('account', { $ref: 'Account#' }, description);

export const accountRoutes = {
  signup: defineRoute({
    tags: ['Accounts'],
    summary: 'Sign up',
    description: 'Creates an account and signs it in; a link to verify the address is mailed. Rate-limited per client IP and per address.',
    security: PUBLIC,
    body: {
      ...credentials,
      properties: { ...credentials.properties, name: { type: 'string', maxLength: 200 } },
      examples: [{ email: 'me@example.com', password: 'a long password', name: 'Ada' }],
    },
    response: withErrors({ 201: signedIn('Signed up and signed in') }, {
      400: 'A malformed e-mail, a password of fewer than 8 characters, or an address already used',
      429: 'Too many attempts from this IP or for this address',
    }),
  }),

  login: defineRoute({
    tags: ['Accounts'],
    summary: 'Log in',
    description: 'A new session for the e-mail and password. With two-factor on, answers 401 `TwoFactorRequired` until `code` (a TOTP or unused recovery code) is sent too. Failed attempts lock the account and the client IP for a while.',
    security: PUBLIC,
    body: {
      ...credentials,
      properties: { ...credentials.properties, code: { type: 'string', maxLength: 64, description: 'The second factor, for an account with two-factor on' } },
      examples: [{ email: 'me@example.com', password: 'a long password' }],
    },
    response: withErrors({ 200: signedIn('Signed in') }, {
      401: 'Wrong e-mail or password (`UnauthorizedError`), or the second factor is missing or wrong (`TwoFactorRequired`)',
      429: 'Too many failed attempts: locked for a while',
    }),
  }),

  me: defineRoute({
    tags: ['Accounts'],
    summary: 'The signed-in account',
    description: 'The account of the session token (or cookie); 401 without a valid one.',
    response: withErrors({ 200: accountAnswer('The account of the session') }, { 401: 'No valid session' }),
  }),

  session: defineRoute({
    tags: ['Accounts'],
    summary: 'Who is signed in, if anyone',
    description: 'The dashboard\'s check at page load: `account` is null for a visitor (where `GET /v1/auth/me` answers 401).',
    security: [{}, { sessionToken: [] }, { sessionCookie: [] }],
    response: withErrors({
      200: {
        description: 'The session\'s account, or null',
        type: 'object',
        required: ['account'],
        properties: { account: { anyOf: [{ $ref: 'Account#' }, { type: 'null' }] } },
      },
    }),
  }),

  logout: defineRoute({
    tags: ['Accounts'],
    summary: 'Log out',
    description: 'Ends this session (and clears the dashboard\'s cookies).',
    docBody: noBody(),
    response: withErrors({ 204: noContent('Logged out') }, { 401: 'No valid session' }),
  }),

  listSessions: defineRoute({
    tags: ['Accounts'],
    summary: 'List the account\'s sessions',
    description: 'Every unexpired session, most recently used first; `current` marks this one.',
    response: withErrors({
      200: listOf('sessions', { $ref: 'Session#' }, 'The sessions'),
    }, { 401: 'No valid session' }),
  }),

  deleteSessions: defineRoute({
    tags: ['Accounts'],
    summary: 'Log out everywhere',
    description: 'Ends every session of the account, this one included.',
    response: withErrors({ 204: noContent('Every session ended') }, { 401: 'No valid session' }),
  }),

  deleteSession: defineRoute({
    tags: ['Accounts'],
    summary: 'End one session',
    description: 'One of the account\'s sessions, by its id (`GET /v1/auth/sessions`); ending this one clears the dashboard\'s cookies.',
    docParams: { id: positiveId('The session\'s `id`; a malformed one names nothing (404)') },
    response: withErrors({ 204: noContent('The session ended') }, { 401: 'No valid session', 404: 'The account has no such session' }),
  }),

  changePassword: defineRoute({
    tags: ['Accounts'],
    summary: 'Change the password',
    description: 'Needs the current password; ends every other session of the account.',
    body: {
      type: 'object', additionalProperties: false, required: ['currentPassword', 'password'],
      properties: { currentPassword: password, password: { ...password, description: 'At least 8 characters' } },
      examples: [{ currentPassword: 'a long password', password: 'a longer password' }],
    },
    response: withErrors({ 204: noContent('Changed') }, { 400: 'The current password is not correct, or the new one is too short', 401: 'No valid session' }),
  }),

  sendVerification: defineRoute({
    tags: ['Accounts'],
    summary: 'Mail a new verification link',
    description: 'Nothing is sent (still 204) when the address is verified already.',
    docBody: noBody(),
    response: withErrors({ 204: noContent('Sent (or nothing to verify)') }, { 401: 'No valid session', 429: 'One was asked for less than a minute ago' }),
  }),

  verifyEmail: defineRoute({
    tags: ['Accounts'],
    summary: 'Verify the e-mail address',
    description: 'With the token of the mailed link (the dashboard\'s `/verify-email` page); no session needed.',
    security: PUBLIC,
    body: { type: 'object', additionalProperties: false, required: ['token'], properties: { token: linkToken }, examples: [{ token: 'the token of the link' }] },
    response: withErrors({ 200: accountAnswer('The account, its address verified') }, { 400: 'The link is invalid or has expired', 429: 'Too many attempts' }),
  }),

  forgotPassword: defineRoute({
    tags: ['Accounts'],
    summary: 'Mail a password reset link',
    description: 'Always 204 at once, known address or not (no enumeration); an account of a single sign-on connection gets no link.',
    security: PUBLIC,
    body: { type: 'object', additionalProperties: false, required: ['email'], properties: { email }, examples: [{ email: 'me@example.com' }] },
    response: withErrors({ 204: noContent('Accepted') }, { 400: 'A malformed e-mail', 429: 'Too many attempts' }),
  }),

  resetPassword: defineRoute({
    tags: ['Accounts'],
    summary: 'Set a new password with a mailed link',
    description: 'Sets the password, marks the address verified and ends every session of the account.',
    security: PUBLIC,
    body: {
      type: 'object', additionalProperties: false, required: ['token', 'password'], properties: { token: linkToken, password },
      examples: [{ token: 'the token of the link', password: 'a new long password' }],
    },
    response: withErrors({ 204: noContent('Password set') }, { 400: 'The link is invalid or has expired, or the password is too short', 429: 'Too many attempts' }),
  }),

  deleteAccount: defineRoute({
    tags: ['Accounts'],
    summary: 'Delete the account',
    description: 'Needs the password. Deletes the account, its sessions and memberships, and the projects it is the only owner of.',
    body: { type: 'object', additionalProperties: false, required: ['password'], properties: { password }, examples: [{ password: 'a long password' }] },
    response: withErrors({ 204: noContent('Deleted') }, { 400: 'The password is not correct', 401: 'No valid session' }),
  }),
};
