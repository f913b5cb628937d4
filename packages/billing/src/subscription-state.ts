// What the platform keeps of a Stripe subscription, read from the subscription object itself.
import type Stripe from 'stripe';
import type { StripeConfig } from '@cms/config';
import type { PlanName } from './plans.ts';

/** Statuses in which a subscription pays for its plan (overdue ones during their grace period). */
export const LIVE_STATUSES: readonly string[] = ['active', 'trialing', 'past_due', 'unpaid'];
/** Statuses of a subscription whose latest payment failed: its plan holds for the grace period. */
export const OVERDUE_STATUSES: readonly string[] = ['past_due', 'unpaid'];

export interface SubscriptionState {
  id: string;
  customerId: string;
  /** The plan whose price the subscription carries; null when no configured price matches. */
  plan: PlanName | null;
  status: string;
  currentPeriodEnd: string | null;
  /** The subscription ends when the period does (cancelled in the portal, or a set `cancel_at`). */
  cancelAtPeriodEnd: boolean;
  /** What checkout put in `subscription_data.metadata`. */
  projectId: number | null;
  accountId: number | null;
}

/** The paid plan of each configured price id. */
export function planOfPrice(prices: StripeConfig['prices'], priceId: string): PlanName | null {
  for (const [plan, price] of Object.entries(prices)) if (price === priceId) return plan as PlanName;
  return null;
}

const idOf = (value: string | { id: string }) => (typeof value === 'string' ? value : value.id);
const positiveInt = (value: string | undefined) => (value !== undefined && /^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : null);
const iso = (seconds: number | null | undefined) => (typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : null);

export function subscriptionState(subscription: Stripe.Subscription, prices: StripeConfig['prices']): SubscriptionState {
  const items = subscription.items.data;
  const plan = items.map((item) => planOfPrice(prices, item.price.id)).find((p) => p !== null) ?? null;
  // Since API version 2025-03-31 the billing period is the items' (all equal for one interval).
  const periodEnds = items.map((item) => item.current_period_end).filter((t) => typeof t === 'number');
  return {
    id: subscription.id,
    customerId: idOf(subscription.customer),
    plan,
    status: subscription.status,
    currentPeriodEnd: iso(periodEnds.length ? Math.max(...periodEnds) : null),
    cancelAtPeriodEnd: subscription.cancel_at_period_end || subscription.cancel_at !== null,
    projectId: positiveInt(subscription.metadata.projectId),
    accountId: positiveInt(subscription.metadata.accountId),
  };
}
