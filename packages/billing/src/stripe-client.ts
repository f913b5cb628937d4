// The `stripe` library, pointed at Stripe or at STRIPE_API_BASE (a local fake in tests) through
// its host/port/protocol options.
import Stripe from 'stripe';
import type { StripeConfig } from '@cms/config';

export function createStripeClient(config: StripeConfig): Stripe {
  return new Stripe(config.secretKey, {
    // Webhooks fetch the subscription while holding its lock: a slow Stripe must not hold it long.
    timeout: 10_000,
    maxNetworkRetries: 1,
    telemetry: false,
    ...(config.api ?? {}),
  });
}
