// Starting a subscription (Stripe Checkout) and managing it (the customer portal). One Stripe
// customer per account, created on its first checkout and reused by every later one.
import type { StripeConfig } from '@cms/config';
import type { Db } from '@cms/db';
import { ApplicationError, BadGatewayError, ValidationError } from '@cms/errors';
import { customerOfAccount, lock, projectSubscription, saveCustomer } from './billing-store.ts';
import type { PlanName } from './plans.ts';
import { callStripe } from './stripe-call.ts';
import type { StripeClient } from './stripe-client.ts';
import { LIVE_STATUSES } from './subscription-state.ts';

export interface BillingAccount {
  id: number;
  email: string;
  name: string | null;
}

export interface BillingProject {
  id: number;
  slug: string;
}

export class BillingCheckout {
  constructor(private readonly db: Db, private readonly stripe: StripeClient, private readonly config: StripeConfig) {}

  /** The paid plans that have a price configured, in the order of the plans. */
  purchasablePlans(): PlanName[] {
    return (Object.keys(this.config.prices) as Array<keyof StripeConfig['prices']>).filter((plan) => this.config.prices[plan] !== undefined);
  }

  /**
   * A Checkout session subscribing `project` to `plan`, paid by `account`'s customer. The project
   * and the account go in the session's and the subscription's metadata: webhooks find the
   * project there. `origin` is the dashboard's: Stripe sends the customer back to its billing page.
   */
  async checkout(project: BillingProject, account: BillingAccount, plan: string, origin: string): Promise<{ url: string }> {
    const price = this.priceOf(plan);
    const current = await projectSubscription(this.db, project.id);
    if (current && LIVE_STATUSES.includes(current.status)) {
      throw new ApplicationError('This project already has a subscription: change its plan in the billing portal', { plan: current.plan, status: current.status }, 409);
    }
    const customer = await this.customerOf(account);
    const metadata = { projectId: String(project.id), projectSlug: project.slug, accountId: String(account.id) };
    const billingPage = `${origin}/projects/${project.slug}/billing`;
    const session = await callStripe('start a checkout', async () => (await this.stripe()).checkout.sessions.create({
      mode: 'subscription',
      customer,
      line_items: [{ price, quantity: 1 }],
      client_reference_id: String(project.id),
      metadata,
      subscription_data: { metadata },
      success_url: `${billingPage}?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${billingPage}?checkout=cancelled`,
    }));
    if (!session.url) throw new BadGatewayError('Stripe did not return a checkout page');
    return { url: session.url };
  }

  /**
   * A customer-portal session for the customer paying for the project (change plan, card,
   * invoices, cancel); before any subscription, the caller's own customer if it has one.
   */
  async portal(project: BillingProject, account: BillingAccount, origin: string): Promise<{ url: string }> {
    const customer = (await projectSubscription(this.db, project.id))?.customerId ?? (await customerOfAccount(this.db, account.id));
    if (!customer) throw new ApplicationError('This project has no billing account yet: subscribe to a plan first', {}, 409);
    const session = await callStripe('open the billing portal', async () => (await this.stripe()).billingPortal.sessions.create({
      customer,
      return_url: `${origin}/projects/${project.slug}/billing`,
    }));
    return { url: session.url };
  }

  private priceOf(plan: string): string {
    const price = Object.hasOwn(this.config.prices, plan) ? this.config.prices[plan as keyof StripeConfig['prices']] : undefined;
    if (price === undefined) {
      const message = `plan must be one of: ${this.purchasablePlans().join(', ') || '(no plan can be bought)'}`;
      throw ValidationError.fromFieldErrors([{ path: ['plan'], message, name: 'ValidationError', value: plan.slice(0, 50) }]);
    }
    return price;
  }

  /** The account's customer; created once, under a per-account lock so two checkouts never make two. */
  private async customerOf(account: BillingAccount): Promise<string> {
    const known = await customerOfAccount(this.db, account.id);
    if (known) return known;
    return this.db.transaction(async (tx) => {
      await lock(tx, `billing-customer:${account.id}`);
      const created = await customerOfAccount(tx, account.id);
      if (created) return created;
      const customer = await callStripe('create a customer', async () => (await this.stripe()).customers.create({
        email: account.email,
        ...(account.name ? { name: account.name } : {}),
        metadata: { accountId: String(account.id) },
      }));
      await saveCustomer(tx, account.id, customer.id);
      return customer.id;
    });
  }
}
