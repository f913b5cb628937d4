// Two-factor sign-in (apps/gateway/src/management/two-factor.ts, docs/two-factor.md).
import { withErrors } from '../errors.ts';
import { defineRoute, noBody } from '../route.ts';

const codeBody = {
  type: 'object', additionalProperties: false, required: ['code'],
  properties: { code: { type: 'string', maxLength: 64, minLength: 1, description: 'A TOTP code of the authenticator, or an unused recovery code' } },
  examples: [{ code: '123456' }],
} as const;

const WRONG_CODE = 'The code is not correct (`details.errors` on `code`)';
const TOO_MANY = 'Too many wrong codes for this account: try again later';

export const twoFactorRoutes = {
  status: defineRoute({
    tags: ['Two-factor'],
    summary: 'Whether two-factor is on',
    description: 'Whether sign-in asks the account for a second factor, and how many recovery codes are left.',
    response: withErrors({
      200: {
        description: 'Two-factor sign-in of the account',
        type: 'object',
        required: ['enabled', 'recoveryCodesLeft'],
        properties: { enabled: { type: 'boolean' }, recoveryCodesLeft: { type: 'integer', description: 'Unused recovery codes (0 when off)' } },
        examples: [{ enabled: true, recoveryCodesLeft: 10 }],
      },
    }, { 401: 'No valid session' }),
  }),

  setup: defineRoute({
    tags: ['Two-factor'],
    summary: 'Set up an authenticator',
    description: 'A new secret, shown this once; two-factor is on once `POST /v1/auth/2fa/enable` confirms a code of it. A second setup replaces the first.',
    docBody: noBody(),
    response: withErrors({
      200: {
        description: 'The secret (RFC 6238: SHA-1, 6 digits, 30 s)',
        type: 'object',
        required: ['secret', 'otpauthUrl'],
        properties: {
          secret: { type: 'string', description: 'Base32, to type into an authenticator app' },
          otpauthUrl: { type: 'string', description: '`otpauth://totp/…`, for a QR code' },
        },
        examples: [{ secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/Content%20platform:me%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Content%20platform' }],
      },
    }, { 401: 'No valid session', 409: 'Two-factor is on already: turn it off first' }),
  }),

  enable: defineRoute({
    tags: ['Two-factor'],
    summary: 'Turn two-factor on',
    description: 'With a code of the secret from setup. Answers the ten recovery codes, once (earlier ones stop working).',
    body: codeBody,
    response: withErrors({
      200: {
        description: 'On; the recovery codes',
        type: 'object',
        required: ['recoveryCodes'],
        properties: { recoveryCodes: { type: 'array', items: { type: 'string' }, description: 'Ten single-use codes, each instead of a TOTP code once' } },
        examples: [{ recoveryCodes: ['a1b2-c3d4-e5f6', 'g7h8-i9j0-k1l2'] }],
      },
    }, { 400: WRONG_CODE, 401: 'No valid session', 429: TOO_MANY }),
  }),

  disable: defineRoute({
    tags: ['Two-factor'],
    summary: 'Turn two-factor off',
    description: 'With a TOTP code or a recovery code.',
    body: codeBody,
    response: withErrors({
      200: {
        description: 'Off',
        type: 'object',
        required: ['twoFactorEnabled'],
        properties: { twoFactorEnabled: { type: 'boolean', const: false } },
      },
    }, { 400: WRONG_CODE, 401: 'No valid session', 429: TOO_MANY }),
  }),
};
