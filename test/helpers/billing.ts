// Playing Stripe's side of a subscription in tests: a checkout the platform started is paid,
// Stripe creates the subscription and sends its webhooks.
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './app.ts';
import { PRICE_ENTERPRISE, PRICE_PRO, signedEvent, type FakeStripe, type WebhookEventInput } from './fake-stripe.ts';
import { as, type Session } from './management.ts';

let n = 0;

/** POST a signed event to the webhook endpoint of `t`. */
export function deliver(t: TestApp, event: WebhookEventInput): Promise<LightMyRequestResponse> {
  const { payload, headers } = signedEvent(event);
  return t.inject({ method: 'POST', url: '/v1/billing/webhook', payload, headers });
}

export const priceOf = (plan: 'pro' | 'enterprise') => (plan === 'pro' ? PRICE_PRO : PRICE_ENTERPRISE);

/**
 * Start a checkout as `owner`, then do what Stripe does when it is paid: create the subscription
 * (with the session's subscription_data metadata) and send `checkout.session.completed`.
 */
export async function subscribe(t: TestApp, fake: FakeStripe, owner: Session, slug: string, plan: 'pro' | 'enterprise'): Promise<{ subscriptionId: string; customer: string }> {
  const res = await as(t, owner).post(`/v1/projects/${slug}/billing/checkout`, { plan });
  assert.equal(res.statusCode, 200, res.body);
  const session = fake.requestsTo('POST', '/v1/checkout/sessions').at(-1)!.params;
  const subscriptionId = `sub_test${++n}`;
  fake.putSubscription({ id: subscriptionId, customer: session.customer, price: priceOf(plan), metadata: session.subscription_data.metadata });
  const delivered = await deliver(t, {
    id: `evt_checkout_${n}`, type: 'checkout.session.completed',
    object: { id: `cs_paid_${n}`, object: 'checkout.session', mode: 'subscription', customer: session.customer, subscription: subscriptionId, metadata: session.metadata },
  });
  assert.equal(delivered.statusCode, 200, delivered.body);
  assert.deepEqual(delivered.json(), { received: true, outcome: 'applied' });
  return { subscriptionId, customer: session.customer };
}
