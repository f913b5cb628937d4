// Subscribing a project to a plan (`POST /v1/projects/{slug}/billing/checkout`, owners): the answer
// is Stripe Checkout's page, where the browser goes; the plan changes when Stripe confirms the payment.
import { useMutation } from '@tanstack/react-query';
import { client, unwrap, type RequestBody } from '../../../lib/api-client.ts';
import type { Billing } from './get-billing.ts';

/** A plan Stripe Checkout sells: a paid one. */
export type PaidPlan = RequestBody<'/v1/projects/{slug}/billing/checkout', 'post'>['plan'];

export async function startCheckout(slug: string, plan: PaidPlan): Promise<string> {
  return (await unwrap(client.POST('/v1/projects/{slug}/billing/checkout', { params: { path: { slug } }, body: { plan } }))).url;
}

/** Takes a plan of the billing's list: the page offers the purchasable ones, never `free` (no price, nothing to buy). */
export function useStartCheckout(slug: string) {
  return useMutation({
    mutationFn: async (plan: Billing['plans'][number]['plan']) => {
      if (plan === 'free') throw new Error('The free plan is not bought: it is what a project has without a subscription');
      return startCheckout(slug, plan);
    },
  });
}
