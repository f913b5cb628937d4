// A project's security settings (apps/gateway/src/management/security-settings.ts): the rule
// "members must use two-factor".
import { NO_PROJECT, withErrors } from '../errors.ts';
import { defineRoute } from '../route.ts';
import { answerWith } from '../shapes.ts';

const SecuritySettings = {
  type: 'object',
  required: ['requireTwoFactor'],
  properties: {
    requireTwoFactor: { type: 'boolean', description: 'While true, a member without two-factor gets 403 `TwoFactorSetupRequired` on every route of the project (owners included)' },
  },
} as const;

const answer = (description: string) => ({ ...answerWith('security', SecuritySettings, description), examples: [{ security: { requireTwoFactor: true } }] }) as const;

export const securitySettingsRoutes = {
  get: defineRoute({
    tags: ['Settings'],
    summary: 'Get the security settings',
    description: 'Any member.',
    response: withErrors({ 200: answer('The security settings') }, { 404: NO_PROJECT }),
  }),

  update: defineRoute({
    tags: ['Settings'],
    summary: 'Require two-factor of the members',
    description: 'Owners only, and only with two-factor on for their own account (so whoever turns the rule on is never locked out by it).',
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['requireTwoFactor'],
      properties: { requireTwoFactor: { type: 'boolean' } },
      examples: [{ requireTwoFactor: true }],
    },
    response: withErrors({ 200: answer('The security settings after the change') }, {
      400: 'A body other than `{requireTwoFactor: boolean}`',
      403: 'Not an owner, or (`TwoFactorSetupRequired`) the owner has no two-factor',
      404: NO_PROJECT,
    }),
  }),
};
