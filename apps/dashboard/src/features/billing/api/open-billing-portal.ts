// Stripe's billing portal for a project (`POST /v1/projects/{slug}/billing/portal`, owners): card,
// invoices, plan changes and cancellation; the answer is its page, where the browser goes.
import { useMutation } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';

export async function openBillingPortal(slug: string): Promise<string> {
  return (await unwrap(client.POST('/v1/projects/{slug}/billing/portal', { params: { path: { slug } } }))).url;
}

export function useOpenBillingPortal(slug: string) {
  return useMutation({ mutationFn: () => openBillingPortal(slug) });
}
