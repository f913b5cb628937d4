// Billing with Stripe, built when STRIPE_SECRET_KEY is set: checkout and portal sessions, the
// webhook that changes plans, and what a project's billing page shows.
import type { StripeConfig } from '@cms/config';
import type { Db } from '@cms/db';
import type { Logger } from '@cms/telemetry';
import { projectSubscription } from './billing-store.ts';
import { callStripe } from './stripe-call.ts';
import { BillingCheckout } from './checkout.ts';
import { createStripeClient, loadStripe, type StripeClient } from './stripe-client.ts';
import { StripeWebhook, type PlanChangeListener } from './webhook.ts';

/** A project's subscription as its billing page shows it; `none` before its first one. */
export interface SubscriptionStatus {
  status: string;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  /** While a payment is overdue: when the project drops to `free` unless it is paid. */
  graceUntil: string | null;
}

export class Billing {
  readonly checkout: BillingCheckout;
  readonly webhook: StripeWebhook;

  private readonly stripe: StripeClient;

  constructor(config: StripeConfig, private readonly db: Db, logger: Logger, onPlanChange: PlanChangeListener) {
    const stripe = createStripeClient(config);
    this.stripe = stripe;
    this.checkout = new BillingCheckout(db, stripe, config);
    this.webhook = new StripeWebhook(db, stripe, config, onPlanChange, logger);
  }

  /**
   * End the project's live subscription now, before the project is deleted: nobody keeps paying
   * for a project that is gone. A subscription Stripe no longer knows is already ended. Any
   * other failure is a 502 and the caller keeps the project.
   */
  async cancelFor(projectId: number): Promise<void> {
    const row = await projectSubscription(this.db, projectId);
    if (!row) return;
    await callStripe('cancel the subscription', async () => {
      const stripe = await this.stripe();
      try {
        await stripe.subscriptions.cancel(row.id);
      } catch (err) {
        const Stripe = await loadStripe();
        if (err instanceof Stripe.errors.StripeError && err.code === 'resource_missing') return;
        throw err;
      }
    });
  }

  async subscription(projectId: number): Promise<SubscriptionStatus> {
    const row = await projectSubscription(this.db, projectId);
    if (!row) return { status: 'none', currentPeriodEnd: null, cancelAtPeriodEnd: false, graceUntil: null };
    return { status: row.status, currentPeriodEnd: row.currentPeriodEnd, cancelAtPeriodEnd: row.cancelAtPeriodEnd, graceUntil: row.graceUntil };
  }
}
