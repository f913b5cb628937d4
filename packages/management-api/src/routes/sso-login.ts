// Signing in through single sign-on (apps/gateway/src/management/sso.ts, ssoLoginRoutes).
import { PUBLIC } from '../document.ts';
import { withErrors } from '../errors.ts';
import { defineRoute } from '../route.ts';

export const ssoLoginRoutes = {
  start: defineRoute({
    tags: ['Single sign-on'],
    summary: 'Start signing in through single sign-on',
    description: 'The identity provider\'s authorization URL for a work e-mail: open it in the browser, which comes back to `GET /v1/auth/sso/callback`. Sets the pending sign-in\'s cookie.',
    security: PUBLIC,
    body: { type: 'object', additionalProperties: false, required: ['email'], properties: { email: { type: 'string', maxLength: 254 } }, examples: [{ email: 'ada@example.com' }] },
    response: withErrors({
      200: {
        description: 'Where to send the browser',
        type: 'object',
        required: ['url'],
        properties: { url: { type: 'string', description: 'The provider\'s authorization URL' } },
      },
    }, { 404: 'Single sign-on is not set up for this address\'s domain (or its project\'s plan has none)', 429: 'Too many attempts from this IP' }),
  }),

  callback: defineRoute({
    tags: ['Single sign-on'],
    summary: 'Where the identity provider sends the browser back',
    description: 'Completes the code flow (`code`, `state`, … in the query, as the provider sends them), provisions or links the account, opens a session (cookies) and redirects to the project\'s page; a refusal redirects to `/login?sso_error=<code>`. Not called by scripts.',
    security: PUBLIC,
    response: withErrors({
      303: {
        description: 'To the dashboard: the project\'s page, or the sign-in page with `sso_error`',
        type: 'null',
        headers: { location: { type: 'string' } },
      },
    }),
  }),
};
