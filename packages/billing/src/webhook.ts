// `POST /v1/billing/webhook`: Stripe's events, verified and applied once, in order.
//
// Verified: `Stripe-Signature` is checked over the raw bytes received (a body parsed and
// serialised again would not match), with 5 minutes of tolerance on its timestamp.
//
// Once: the event id is inserted into platform.stripe_events (ON CONFLICT DO NOTHING) in the
// transaction that applies it. A second delivery, even one racing the first on another instance
// (its insert waits for the first transaction), finds the id and changes nothing; a delivery
// whose transaction failed left no id, so Stripe's retry applies it.
//
// In order: Stripe may deliver events late, retried, and in any order, so no event's payload is
// applied. Each handled event names a subscription, and that subscription is fetched from
// Stripe's API — its state now — while holding a per-subscription lock, so of two deliveries the
// one applied last also fetched last. An event older (by `created`) than the newest one applied to
// its subscription is skipped without a fetch: what it reported has been superseded. Comparing
// `created` alone would not do: it counts seconds, and one change often sends several events in
// the same second. Holding a connection during the fetch is acceptable for a handful of events
// per subscription and month.
import type Stripe from 'stripe';
import type { StripeConfig } from '@cms/config';
import type { Db } from '@cms/db';
import { ValidationError } from '@cms/errors';
import type { Logger } from '@cms/telemetry';
import {
  applyProjectPlan, customerOfAccount, isProjectOwner, lock, recordEvent, saveSubscription, subscriptionRow, type SubscriptionRow,
} from './billing-store.ts';
import { callStripe } from './stripe-call.ts';
import { loadStripe, type StripeClient } from './stripe-client.ts';
import { OVERDUE_STATUSES, subscriptionState, type SubscriptionState } from './subscription-state.ts';

/** Stripe's default: a signature more than 5 minutes old (a replayed request) is refused. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/** What became of an event: applied, already applied, superseded by a newer one, or not ours to apply. */
export type WebhookOutcome = 'applied' | 'duplicate' | 'stale' | 'ignored';

/** Told after a project's plan changed (to invalidate it on every instance). */
export type PlanChangeListener = (project: { id: number; slug: string }) => Promise<void>;

const idOf = (value: string | { id: string } | null | undefined) => (value == null ? null : typeof value === 'string' ? value : value.id);

/** The subscription an event is about, for the events that change a plan; null for any other. */
function subscriptionIdOf(event: Stripe.Event): string | null {
  switch (event.type) {
    case 'checkout.session.completed':
      return event.data.object.mode === 'subscription' ? idOf(event.data.object.subscription) : null;
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return event.data.object.id;
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = event.data.object as Stripe.Invoice & { subscription?: string | { id: string } | null };
      // Endpoints on API versions before 2025-03-31 send the subscription at the top level.
      return idOf(invoice.parent?.subscription_details?.subscription) ?? idOf(invoice.subscription);
    }
    default:
      return null;
  }
}

export class StripeWebhook {
  constructor(
    private readonly db: Db,
    private readonly stripe: StripeClient,
    private readonly config: StripeConfig,
    private readonly onPlanChange: PlanChangeListener,
    private readonly logger: Logger,
  ) {}

  /** The event a request carries, if `signature` signs exactly `rawBody`; a 400 otherwise. */
  async verify(rawBody: Buffer, signature: string | undefined): Promise<Stripe.Event> {
    if (!signature) throw new ValidationError('Missing Stripe-Signature header');
    const [Library, stripe] = await Promise.all([loadStripe(), this.stripe()]);
    try {
      return stripe.webhooks.constructEvent(rawBody, signature, this.config.webhookSecret, SIGNATURE_TOLERANCE_SECONDS);
    } catch (err) {
      if (err instanceof Library.errors.StripeSignatureVerificationError) throw new ValidationError('Invalid Stripe-Signature: the body was not signed with this endpoint\'s secret, or too long ago');
      throw err;
    }
  }

  async handle(rawBody: Buffer, signature: string | undefined): Promise<WebhookOutcome> {
    const event = await this.verify(rawBody, signature);
    const subscriptionId = subscriptionIdOf(event);
    if (subscriptionId === null) return 'ignored';
    const result = await this.db.transaction(async (tx) => {
      if (!(await recordEvent(tx, event.id, event.type))) return { outcome: 'duplicate' as const };
      await lock(tx, `stripe-subscription:${subscriptionId}`);
      const known = await subscriptionRow(tx, subscriptionId);
      const eventAt = new Date(event.created * 1000).toISOString();
      if (known && Date.parse(known.eventAt) > Date.parse(eventAt)) return { outcome: 'stale' as const };
      const subscription = await this.fetch(subscriptionId);
      if (!subscription) return { outcome: 'ignored' as const };
      const state = subscriptionState(subscription, this.config.prices);
      const projectId = known?.projectId ?? (await this.claimedProject(tx, state));
      if (projectId === null) return { outcome: 'ignored' as const };
      if (state.plan === null) {
        this.logger.warn({ subscription: state.id, event: event.id }, 'Stripe subscription carries no configured STRIPE_PRICE_*: plan left unchanged');
        return { outcome: 'ignored' as const };
      }
      await saveSubscription(tx, this.rowOf(state, state.plan, projectId, known, eventAt));
      const slug = await applyProjectPlan(tx, projectId);
      return { outcome: 'applied' as const, project: slug === null ? null : { id: projectId, slug } };
    });
    if (result.outcome === 'applied' && result.project) await this.onPlanChange(result.project);
    return result.outcome;
  }

  /** The subscription as Stripe has it now; null when Stripe has no such subscription. */
  private async fetch(id: string): Promise<Stripe.Subscription | null> {
    try {
      return await callStripe('read a subscription', async () => (await this.stripe()).subscriptions.retrieve(id));
    } catch (err) {
      if ((err as { cause?: { statusCode?: number } }).cause?.statusCode === 404) {
        this.logger.warn({ subscription: id }, 'Stripe webhook names a subscription Stripe does not have');
        return null;
      }
      throw err;
    }
  }

  /**
   * The project a subscription seen for the first time pays for: the one its metadata names,
   * if the account its metadata names is an owner of it and the subscription's customer is that
   * account's. Once recorded, a subscription stays with its project whatever its metadata says.
   */
  private async claimedProject(tx: Db, state: SubscriptionState): Promise<number | null> {
    const { projectId, accountId } = state;
    const valid = projectId !== null && accountId !== null
      && (await customerOfAccount(tx, accountId)) === state.customerId
      && (await isProjectOwner(tx, projectId, accountId));
    if (!valid) this.logger.warn({ subscription: state.id, projectId, accountId }, 'Stripe subscription names no project its customer owns: ignored');
    return valid ? projectId : null;
  }

  /** The row to store. An overdue subscription's grace period starts at the first failure seen and is kept until it is paid. */
  private rowOf(state: SubscriptionState, plan: string, projectId: number, known: SubscriptionRow | null, eventAt: string): SubscriptionRow {
    const overdue = OVERDUE_STATUSES.includes(state.status);
    return {
      id: state.id,
      projectId,
      accountId: known ? known.accountId : state.accountId,
      customerId: state.customerId,
      plan,
      status: state.status,
      currentPeriodEnd: state.currentPeriodEnd,
      cancelAtPeriodEnd: state.cancelAtPeriodEnd,
      graceUntil: overdue ? (known?.graceUntil ?? new Date(Date.now() + this.config.gracePeriodMs).toISOString()) : null,
      eventAt,
    };
  }
}
