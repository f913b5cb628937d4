// Stripe's webhook (apps/gateway/src/management/billing-webhook.ts).
import { PUBLIC } from '../document.ts';
import { withErrors } from '../errors.ts';
import { defineRoute } from '../route.ts';

export const billingWebhookRoutes = {
  webhook: defineRoute({
    tags: ['Billing'],
    summary: 'Stripe\'s webhook',
    description: 'Called by Stripe, not by clients: its event as the raw body (read as bytes, whatever the content type: the signature covers them exactly), '
      + 'authenticated by the `Stripe-Signature` header (`STRIPE_WEBHOOK_SECRET`), no session. A subscription\'s events set its project\'s plan; '
      + 'each event is applied once, an older one than the last applied is ignored. 501 when billing is not configured.',
    security: PUBLIC,
    docBody: {
      description: 'Stripe\'s event, exactly as Stripe sent it',
      type: 'object',
      required: ['id', 'type', 'data'],
      properties: { id: { type: 'string' }, type: { type: 'string', examples: ['customer.subscription.updated'] }, data: { type: 'object', additionalProperties: true } },
    },
    headers: {
      type: 'object',
      properties: { 'stripe-signature': { type: 'string', description: '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`' } },
    },
    response: withErrors({
      200: {
        description: 'Received',
        type: 'object',
        required: ['received', 'outcome'],
        properties: {
          received: { type: 'boolean', const: true },
          outcome: { type: 'string', enum: ['applied', 'duplicate', 'stale', 'ignored'], description: 'What the event did: applied, already seen, older than the last applied, or about nothing this platform bills' },
        },
        examples: [{ received: true, outcome: 'applied' }],
      },
    }, { 400: 'No valid `Stripe-Signature` for this body' }),
  }),
};
