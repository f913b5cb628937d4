// The `stripe` library, pointed at Stripe or at STRIPE_API_BASE (a local fake in tests) through
// its host/port/protocol options. Imported when billing first talks to Stripe: a process without
// STRIPE_SECRET_KEY never loads it.
import type Stripe from 'stripe';
import type { StripeConfig } from '@cms/config';

export type StripeLibrary = typeof Stripe;

let loading: Promise<StripeLibrary> | null = null;

/** The library (its error classes); a failed import is retried by the next call. */
export function loadStripe(): Promise<StripeLibrary> {
  loading ??= import('stripe').then((m) => m.default, (err: unknown) => {
    loading = null;
    throw new Error(`the stripe library could not be loaded: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  });
  return loading;
}

/** The client, made on its first call. */
export type StripeClient = () => Promise<Stripe>;

export function createStripeClient(config: StripeConfig): StripeClient {
  let client: Promise<Stripe> | null = null;
  return () => {
    client ??= loadStripe().then((Library) => new Library(config.secretKey, {
      // Webhooks fetch the subscription while holding its lock: a slow Stripe must not hold it long.
      timeout: 10_000,
      maxNetworkRetries: 1,
      telemetry: false,
      ...(config.api ?? {}),
    }), (err: unknown) => {
      client = null;
      throw err;
    });
    return client;
  };
}
