// A call to Stripe's API on behalf of a request: Stripe failing or refusing it is the
// platform's problem (network, configuration), answered 502, never the caller's 4xx.
import { BadGatewayError } from '@cms/errors';
import { loadStripe } from './stripe-client.ts';

export async function callStripe<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    // Loaded by `call` unless loading it is what failed (that error is then the one to see).
    const Stripe = await loadStripe().catch(() => null);
    if (!Stripe || !(err instanceof Stripe.errors.StripeError)) throw err;
    const failure = new BadGatewayError(`Stripe could not ${what}; please try again later`);
    // Logged with the 502: what Stripe said, for the operator.
    failure.cause = err;
    throw failure;
  }
}
