// A project's plan and billing (apps/gateway/src/management/billing.ts): what it is on and uses,
// Stripe Checkout to subscribe, Stripe's customer portal. Owners only; with billing off (no
// STRIPE_SECRET_KEY) every route answers 501 once the caller's access is checked.
import { NO_PROJECT, withErrors } from '../errors.ts';
import { defineRoute, noBody, shownBody } from '../route.ts';
import { MonthlyUsage, PlanLimits, nullableDateTime, nullableInteger } from '../shapes.ts';

const OFF = 'Without `STRIPE_SECRET_KEY` it answers 501 `NotImplementedError` (after the access checks); a call to Stripe that fails is 502 `BadGatewayError`.';
const OWNERS = 'Only owners (editors and viewers get 403)';
const plan = { type: 'string', maxLength: 50, description: 'A plan with a price configured: `pro` or `enterprise`' } as const;
// Fastify checks the body's shape; the handler checks the plan, in its words (`plan must be one of:
// …`, the plans with a price configured): the document alone shows the paid plans (`shownBody`).
const paidPlan = { plan: { type: 'string', enum: ['pro', 'enterprise'], description: plan.description } } as const;

const CheckoutBody = { type: 'object', additionalProperties: false, required: ['plan'], properties: { plan }, examples: [{ plan: 'pro' }] } as const;
const CheckoutForProjectBody = {
  type: 'object',
  additionalProperties: false,
  required: ['plan', 'project'],
  properties: { plan, project: { type: 'string', maxLength: 100, description: 'The project\'s slug' } },
  examples: [{ plan: 'pro', project: 'my-blog' }],
} as const;
const planName = { type: 'string', enum: ['free', 'pro', 'enterprise'] } as const;

const stripeUrl = (description: string) => ({
  description,
  type: 'object',
  required: ['url'],
  properties: { url: { type: 'string', description: 'Open it in the browser' } },
  examples: [{ url: 'https://checkout.stripe.com/c/pay/cs_test_…' }],
}) as const;

const CHECKOUT_REFUSED = {
  400: 'A plan without a configured price, or an environment (its billing is its parent\'s)',
  403: OWNERS,
  404: NO_PROJECT,
  409: 'The project already has a live subscription: change its plan in the billing portal',
} as const;

export const billingRoutes = {
  get: defineRoute({
    tags: ['Billing'],
    summary: 'Get the plan, subscription and usage',
    description: `The plan that applies now, the Stripe subscription's state (\`status\` \`none\` before the first one), the month's usage against the plan's limits, and every plan. ${OFF}`,
    response: withErrors({
      200: {
        description: 'The project\'s billing',
        type: 'object',
        required: ['plan', 'status', 'currentPeriodEnd', 'cancelAtPeriodEnd', 'graceUntil', 'limits', 'usage', 'plans'],
        properties: {
          plan: { ...planName, description: 'The plan whose limits apply now' },
          status: { type: 'string', description: 'The Stripe subscription\'s (`active`, `trialing`, `past_due`, `unpaid`, `canceled`, `incomplete`, …), or `none`' },
          currentPeriodEnd: { ...nullableDateTime, description: 'When the period paid for ends' },
          cancelAtPeriodEnd: { type: 'boolean', description: 'The subscription ends then (cancelled in the portal)' },
          graceUntil: { ...nullableDateTime, description: 'While a payment is overdue: when the project drops to `free` unless it is paid' },
          limits: PlanLimits,
          usage: MonthlyUsage,
          plans: {
            type: 'array',
            description: 'Every plan',
            items: {
              type: 'object',
              required: ['plan', 'limits', 'pendingReleases', 'purchasable'],
              properties: {
                plan: planName,
                limits: PlanLimits,
                pendingReleases: { ...nullableInteger, description: 'Releases not yet published a project may have; null: unlimited' },
                purchasable: { type: 'boolean', description: 'A price is configured for it: checkout accepts it' },
              },
            },
          },
        },
      },
    }, { 403: OWNERS, 404: NO_PROJECT }),
  }),

  checkout: defineRoute({
    tags: ['Billing'],
    summary: 'Subscribe to a plan (Stripe Checkout)',
    description: `A Stripe Checkout session subscribing the project to \`plan\`, paid by the caller's Stripe customer; Stripe sends the customer back to the project's billing page. The plan changes when Stripe's webhook says it was paid. ${OFF}`,
    body: CheckoutBody,
    docBody: shownBody(CheckoutBody, paidPlan),
    response: withErrors({ 200: stripeUrl('The Checkout page') }, CHECKOUT_REFUSED),
  }),

  checkoutForProject: defineRoute({
    tags: ['Billing'],
    summary: 'Subscribe a project to a plan (Stripe Checkout)',
    description: `The same as \`POST /v1/projects/{slug}/billing/checkout\`, the project named in the body (checked once the body is read: owners only, others 404). ${OFF}`,
    body: CheckoutForProjectBody,
    docBody: shownBody(CheckoutForProjectBody, paidPlan),
    response: withErrors({ 200: stripeUrl('The Checkout page') }, CHECKOUT_REFUSED),
  }),

  portal: defineRoute({
    tags: ['Billing'],
    summary: 'Open the billing portal',
    description: `Stripe's customer portal for the customer paying for the project (change plan or card, invoices, cancel), returning to the project's billing page. Any owner. ${OFF}`,
    docBody: noBody(),
    response: withErrors({ 200: stripeUrl('The portal page') }, {
      400: 'An environment (its billing is its parent\'s)',
      403: OWNERS,
      404: NO_PROJECT,
      409: 'No billing account yet: subscribe to a plan first',
    }),
  }),
};
