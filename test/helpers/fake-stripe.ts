// A local stand-in for the parts of Stripe's HTTP API the platform calls — customers, Checkout
// and billing-portal sessions, subscriptions — as a real HTTP server the `stripe` library talks
// to through STRIPE_API_BASE. It records every request (parameters decoded from Stripe's form
// encoding) so tests can assert what was sent. Tests play Stripe's side of a payment: they put
// subscriptions here and send the webhooks Stripe would send, signed with the library's own
// test-header helper.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { parseQueryString } from '@cms/query';

export interface RecordedRequest {
  method: string;
  path: string;
  params: Record<string, any>;
  headers: IncomingMessage['headers'];
}

export interface FakeSubscriptionInput {
  id: string;
  customer: string;
  price: string;
  status?: string;
  metadata?: Record<string, string>;
  /** Seconds since the epoch. */
  currentPeriodEnd?: number;
  cancelAtPeriodEnd?: boolean;
}

export interface FakeStripe {
  /** STRIPE_API_BASE */
  url: string;
  requests: RecordedRequest[];
  /** Recorded requests to `METHOD /path` (path without the query string). */
  requestsTo(method: string, path: string): RecordedRequest[];
  /** Make (or replace) a subscription as Stripe would have it; answers it as the API would. */
  putSubscription(input: FakeSubscriptionInput): Record<string, any>;
  /** A subscription as the API would answer it (not recorded as a request). */
  subscription(id: string): Record<string, any> | undefined;
  close(): Promise<void>;
}

export const PRICE_PRO = 'price_fake_pro';
export const PRICE_ENTERPRISE = 'price_fake_enterprise';
export const WEBHOOK_SECRET = 'whsec_fake_test_secret';

/** The billing settings of a gateway talking to `fake`. */
export function stripeEnv(fake: FakeStripe, extra: Record<string, string> = {}): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: 'sk_test_fake',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: fake.url,
    STRIPE_PRICE_PRO: PRICE_PRO,
    STRIPE_PRICE_ENTERPRISE: PRICE_ENTERPRISE,
    ...extra,
  };
}

const now = () => Math.floor(Date.now() / 1000);

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  const customers = new Map<string, Record<string, any>>();
  const subscriptions = new Map<string, Record<string, any>>();
  let n = 0;
  const nextId = (prefix: string) => `${prefix}_fake${++n}`;

  const routes: Array<[string, RegExp, (params: Record<string, any>, match: RegExpMatchArray) => [number, unknown]]> = [
    ['POST', /^\/v1\/customers$/, (params) => {
      const customer = { id: nextId('cus'), object: 'customer', email: params.email ?? null, name: params.name ?? null, metadata: params.metadata ?? {}, created: now() };
      customers.set(customer.id, customer);
      return [200, customer];
    }],
    ['GET', /^\/v1\/customers\/([^/]+)$/, (_params, match) => found(customers.get(match[1]!), 'customer')],
    ['POST', /^\/v1\/checkout\/sessions$/, (params) => {
      const id = nextId('cs');
      return [200, {
        id, object: 'checkout.session', mode: params.mode, customer: params.customer, client_reference_id: params.client_reference_id ?? null,
        metadata: params.metadata ?? {}, success_url: params.success_url, cancel_url: params.cancel_url, status: 'open', subscription: null,
        url: `https://checkout.stripe.test/c/pay/${id}`,
      }];
    }],
    ['POST', /^\/v1\/billing_portal\/sessions$/, (params) => {
      const id = nextId('bps');
      return [200, { id, object: 'billing_portal.session', customer: params.customer, return_url: params.return_url, url: `https://billing.stripe.test/p/session/${id}` }];
    }],
    ['GET', /^\/v1\/subscriptions\/([^/]+)$/, (_params, match) => found(subscriptions.get(match[1]!), 'subscription')],
    ['DELETE', /^\/v1\/subscriptions\/([^/]+)$/, (_params, match) => {
      const subscription = subscriptions.get(match[1]!);
      if (subscription) Object.assign(subscription, { status: 'canceled', canceled_at: now(), ended_at: now() });
      return found(subscription, 'subscription');
    }],
  ];

  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const [path, query = ''] = (req.url ?? '/').split('?');
      const params = parseQueryString(req.method === 'GET' ? query : body);
      requests.push({ method: req.method ?? '', path: path!, params, headers: req.headers });
      for (const [method, pattern, handle] of routes) {
        const match = method === req.method ? path!.match(pattern) : null;
        if (match) return send(res, ...handle(params, match));
      }
      send(res, 404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path})` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    requestsTo: (method, path) => requests.filter((r) => r.method === method && r.path === path),
    putSubscription(input) {
      const periodEnd = input.currentPeriodEnd ?? now() + 30 * 24 * 3600;
      const subscription = {
        id: input.id, object: 'subscription', customer: input.customer, status: input.status ?? 'active',
        cancel_at_period_end: input.cancelAtPeriodEnd ?? false, cancel_at: input.cancelAtPeriodEnd ? periodEnd : null,
        created: now(), metadata: input.metadata ?? {},
        items: {
          object: 'list', has_more: false, url: `/v1/subscription_items?subscription=${input.id}`,
          data: [{
            id: `si_${input.id}`, object: 'subscription_item', quantity: 1,
            price: { id: input.price, object: 'price' }, current_period_start: periodEnd - 30 * 24 * 3600, current_period_end: periodEnd,
          }],
        },
      };
      subscriptions.set(input.id, subscription);
      return subscription;
    },
    subscription: (id) => subscriptions.get(id),
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}

/** A subscription of the fake as `putSubscription` takes it (to change a few fields of it). */
export function subscriptionInput(subscription: Record<string, any>): FakeSubscriptionInput {
  return {
    id: subscription.id, customer: subscription.customer, price: subscription.items.data[0].price.id, status: subscription.status,
    metadata: subscription.metadata, currentPeriodEnd: subscription.items.data[0].current_period_end, cancelAtPeriodEnd: subscription.cancel_at_period_end,
  };
}

function found(value: unknown, kind: string): [number, unknown] {
  return value ? [200, value] : [404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}` } }];
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_fake${Date.now()}` });
  res.end(JSON.stringify(body));
}

export interface WebhookEventInput {
  id: string;
  type: string;
  object: Record<string, any>;
  /** Seconds since the epoch (default: now). */
  created?: number;
}

/** A webhook delivery as Stripe sends it: the JSON payload and its `Stripe-Signature`. */
export function signedEvent(event: WebhookEventInput, options: { secret?: string; timestamp?: number } = {}): { payload: string; headers: Record<string, string> } {
  const payload = JSON.stringify({
    id: event.id, object: 'event', api_version: Stripe.API_VERSION, created: event.created ?? now(), livemode: false,
    pending_webhooks: 1, request: { id: null, idempotency_key: null }, type: event.type, data: { object: event.object },
  }, null, 2);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET, timestamp: options.timestamp });
  return { payload, headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature } };
}
