// Subscribing a project to a plan (`POST /v1/projects/{slug}/billing/checkout`, owners): the answer
// is Stripe Checkout's page, where the browser goes; the plan changes when Stripe confirms the payment.
import { useMutation } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';

export async function startCheckout(slug: string, plan: string): Promise<string> {
  return (await unwrap(client.POST('/v1/projects/{slug}/billing/checkout', { params: { path: { slug } }, body: { plan } }))).url;
}

export function useStartCheckout(slug: string) {
  return useMutation({ mutationFn: (plan: string) => startCheckout(slug, plan) });
}
