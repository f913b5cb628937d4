// A project's plan and subscription (`GET /v1/projects/{slug}/billing`, owners): the plan, the
// Stripe subscription's state, the grace period after a failed payment and every plan to compare.
// 501 when billing is off on the platform: not retried, the page says so.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap, type AnswerOf } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';

export type Billing = AnswerOf<'/v1/projects/{slug}/billing', 'get'>;

export async function getBilling(slug: string): Promise<Billing> {
  return unwrap(client.GET('/v1/projects/{slug}/billing', { params: { path: { slug } } }));
}

export const billingQueryOptions = (slug: string) =>
  queryOptions({ queryKey: projectKeys.feature(slug, 'billing'), queryFn: () => getBilling(slug), retry: false });

/** `enabled`: only owners may read it (the others get 403). */
export function useBilling(slug: string, enabled: boolean) {
  return useQuery({ ...billingQueryOptions(slug), enabled });
}
