// Billing's management routes against a local fake of Stripe's API: a project's billing state,
// Checkout (one customer per account, the plan's price, the project in the metadata, the
// dashboard's URLs), the portal, who may use them, and billing switched off.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { PLANS } from '@cms/billing';
import { ConfigError, loadConfig } from '@cms/config';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { subscribe } from '../helpers/billing.ts';
import { PRICE_ENTERPRISE, PRICE_PRO, signedEvent, startFakeStripe, stripeEnv, type FakeStripe } from '../helpers/fake-stripe.ts';
import { as, createProject, signup, type Session } from '../helpers/management.ts';
import { freePort } from '../helpers/process.ts';

type Json = Record<string, any>;
const envelope = (status: number, name: string, message: string, details: Json = {}) => ({ data: null, error: { status, name, message, details } });
const BILLING_OFF = envelope(501, 'NotImplementedError', 'Billing is not enabled on this platform (STRIPE_SECRET_KEY is not set): every project keeps its plan');
const notFound = envelope(404, 'NotFoundError', 'Not Found');
const ownersOnly = (role: string) => envelope(403, 'ForbiddenError', `Only the owners of this project can do this (your role: ${role})`);

async function addMember(t: TestApp, projectId: number, who: Session, role: 'editor' | 'viewer'): Promise<void> {
  await t.platform.db.pool.query(compiledQuery({
    text: 'INSERT INTO platform.project_members (project_id, account_id, role) VALUES ($1, $2, $3)', values: [projectId, who.account.id, role],
  }));
}

describe('billing configuration', () => {
  const base = { APP_SECRET: 'a secret of enough length', DATA_DIR: '/tmp/cms-billing-config' };
  const stripe = { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };

  it('reads the Stripe settings; STRIPE_API_BASE becomes the library\'s host, port and protocol', () => {
    assert.equal(loadConfig(base).stripe, undefined);
    assert.deepEqual(loadConfig({ ...base, ...stripe, STRIPE_PRICE_PRO: 'price_p', STRIPE_API_BASE: 'http://127.0.0.1:12111', BILLING_GRACE_DAYS: '3' }).stripe, {
      secretKey: 'sk_test_x', webhookSecret: 'whsec_x', api: { protocol: 'http', host: '127.0.0.1', port: 12111 },
      prices: { pro: 'price_p', enterprise: undefined }, gracePeriodMs: 3 * 24 * 3600 * 1000,
    });
    assert.equal(loadConfig({ ...base, ...stripe }).stripe!.gracePeriodMs, 7 * 24 * 3600 * 1000);
    assert.deepEqual(loadConfig({ ...base, ...stripe, STRIPE_API_BASE: 'https://stripe.internal' }).stripe!.api, { protocol: 'https', host: 'stripe.internal', port: 443 });
    // Plan limits follow billing unless set.
    assert.equal(loadConfig({ ...base, ...stripe }).limits.plans, true);
    assert.equal(loadConfig({ ...base, ...stripe, PLAN_LIMITS: 'false' }).limits.plans, false);
  });

  it('refuses to start half-configured', () => {
    assert.throws(() => loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_x' }), new ConfigError('STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set'));
    assert.throws(() => loadConfig({ ...base, ...stripe, STRIPE_API_BASE: 'ftp://x' }), ConfigError);
    assert.throws(() => loadConfig({ ...base, ...stripe, STRIPE_API_BASE: 'http://x/v1' }), ConfigError);
    assert.throws(() => loadConfig({ ...base, ...stripe, STRIPE_PRICE_PRO: 'price_same', STRIPE_PRICE_ENTERPRISE: 'price_same' }), ConfigError);
    assert.throws(() => loadConfig({ ...base, ...stripe, BILLING_GRACE_DAYS: 'soon' }), ConfigError);
  });
});

describe('billing off (no STRIPE_SECRET_KEY)', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => {
    await t?.close();
  });

  it('answers every billing route with 501 in the envelope, and projects keep their configured plan', async () => {
    const owner = await signup(t);
    const project = await createProject(t, owner, { name: 'No billing' });
    await t.platform.db.pool.query(compiledQuery({ text: `UPDATE platform.projects SET plan = 'pro' WHERE id = $1`, values: [project.id] }));
    const api = as(t, owner);
    for (const res of [
      await api.get(`/v1/projects/${project.slug}/billing`),
      await api.post(`/v1/projects/${project.slug}/billing/checkout`, { plan: 'pro' }),
      await api.post(`/v1/projects/${project.slug}/billing/portal`),
      await api.post('/v1/billing/checkout', { plan: 'pro', project: project.slug }),
      // Checked before the body: a body the route would refuse still gets the 501.
      await api.post(`/v1/projects/${project.slug}/billing/checkout`, { nope: true }),
    ]) {
      assert.deepEqual(res.json(), BILLING_OFF, res.body);
    }
    const { payload, headers } = signedEvent({ id: 'evt_off', type: 'customer.subscription.updated', object: { id: 'sub_x', object: 'subscription' } });
    const hook = await t.inject({ method: 'POST', url: '/v1/billing/webhook', payload, headers });
    assert.deepEqual(hook.json(), BILLING_OFF);
    assert.equal((await api.get(`/v1/projects/${project.slug}`)).json().project.plan, 'pro');
    // Access is still decided first: strangers see no project.
    assert.deepEqual((await as(t, await signup(t)).get(`/v1/projects/${project.slug}/billing`)).json(), notFound);
  });
});

describe('billing: checkout, portal and the billing state', () => {
  let t: TestApp;
  let fake: FakeStripe;
  before(async () => {
    fake = await startFakeStripe();
    t = await startTestApp({ env: stripeEnv(fake) });
  });
  after(async () => {
    await t?.close();
    await fake?.close();
  });

  it('GET billing: a new project is on free, with no subscription, its usage, limits and the plans', async () => {
    const owner = await signup(t);
    const project = await createProject(t, owner, { name: 'Fresh' });
    const res = await as(t, owner).get(`/v1/projects/${project.slug}/billing`);
    assert.equal(res.statusCode, 200, res.body);
    // The history's empty tables still take their indexes' first pages.
    const { historyBytes } = res.json().usage;
    assert.ok(Number.isInteger(historyBytes) && historyBytes > 0, String(historyBytes));
    assert.deepEqual(res.json(), {
      plan: 'free', status: 'none', currentPeriodEnd: null, cancelAtPeriodEnd: false, graceUntil: null,
      limits: PLANS.free,
      usage: { period: new Date().toISOString().slice(0, 7), requests: 0, storageBytes: 0, historyBytes, documents: 0 },
      plans: [
        { plan: 'free', limits: PLANS.free, pendingReleases: 3, purchasable: false },
        { plan: 'pro', limits: PLANS.pro, pendingReleases: 50, purchasable: true },
        { plan: 'enterprise', limits: PLANS.enterprise, pendingReleases: null, purchasable: true },
      ],
    });
  });

  it('checkout: a subscription-mode session with the plan\'s price, the project and account in metadata, one customer per account reused', async () => {
    const owner = await signup(t);
    const a = await createProject(t, owner, { name: 'Shop A' });
    const b = await createProject(t, owner, { name: 'Shop B' });
    const before = fake.requests.length;
    const res = await as(t, owner).post(`/v1/projects/${a.slug}/billing/checkout`, { plan: 'pro' });
    assert.equal(res.statusCode, 200, res.body);
    const sent = fake.requests.slice(before);
    assert.deepEqual(sent.map((r) => `${r.method} ${r.path}`), ['POST /v1/customers', 'POST /v1/checkout/sessions']);
    const [customerRequest, sessionRequest] = sent;
    assert.deepEqual(customerRequest!.params, { email: owner.account.email, metadata: { accountId: String(owner.account.id) } });
    // The `stripe` library, pointed here by STRIPE_API_BASE, with the secret key.
    assert.equal(customerRequest!.headers.authorization, 'Bearer sk_test_fake');
    assert.match(String(customerRequest!.headers['user-agent']), /^Stripe\/v1 NodeBindings/);
    const customer = sessionRequest!.params.customer;
    assert.match(customer, /^cus_/);
    const metadata = { projectId: String(a.id), projectSlug: a.slug, accountId: String(owner.account.id) };
    assert.deepEqual(sessionRequest!.params, {
      mode: 'subscription', customer, line_items: [{ price: PRICE_PRO, quantity: '1' }], client_reference_id: String(a.id),
      metadata, subscription_data: { metadata },
      success_url: `http://localhost:80/projects/${a.slug}/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `http://localhost:80/projects/${a.slug}/billing?checkout=cancelled`,
    });
    assert.match(res.json().url, /^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_/);

    // The contract's `/v1/billing/checkout {plan, project}` is the same; the customer is reused.
    const again = fake.requests.length;
    const shared = await as(t, owner).post('/v1/billing/checkout', { plan: 'enterprise', project: b.slug });
    assert.equal(shared.statusCode, 200, shared.body);
    const [only] = fake.requests.slice(again);
    assert.equal(fake.requests.length - again, 1);
    assert.equal(only!.path, '/v1/checkout/sessions');
    assert.equal(only!.params.customer, customer);
    assert.equal(only!.params.line_items[0].price, PRICE_ENTERPRISE);
    assert.equal(only!.params.metadata.projectId, String(b.id));
  });

  it('concurrent first checkouts of an account make one customer', async () => {
    const owner = await signup(t);
    const projects = await Promise.all([1, 2, 3, 4].map((i) => createProject(t, owner, { name: `Race ${i}` })));
    const before = fake.requestsTo('POST', '/v1/customers').length;
    const answers = await Promise.all(projects.map((p) => as(t, owner).post(`/v1/projects/${p.slug}/billing/checkout`, { plan: 'pro' })));
    assert.deepEqual(answers.map((r) => r.statusCode), [200, 200, 200, 200]);
    assert.equal(fake.requestsTo('POST', '/v1/customers').length - before, 1);
    const customers = new Set(fake.requestsTo('POST', '/v1/checkout/sessions').slice(-4).map((r) => r.params.customer));
    assert.equal(customers.size, 1);
  });

  it('refuses a plan that cannot be bought (400 on plan) and a second subscription (409)', async () => {
    const owner = await signup(t);
    const project = await createProject(t, owner, { name: 'Picky' });
    for (const plan of ['free', 'gold', 'constructor']) {
      const res = await as(t, owner).post(`/v1/projects/${project.slug}/billing/checkout`, { plan });
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json().error.details.errors.map((e: Json) => [e.path, e.message]), [[['plan'], 'plan must be one of: pro, enterprise']]);
    }
    await subscribe(t, fake, owner, project.slug, 'pro');
    const second = await as(t, owner).post(`/v1/projects/${project.slug}/billing/checkout`, { plan: 'enterprise' });
    assert.deepEqual(second.json(), envelope(409, 'ApplicationError', 'This project already has a subscription: change its plan in the billing portal', { plan: 'pro', status: 'active' }));
  });

  it('portal: 409 before the account has a customer; then the customer paying for the project, back to its billing page', async () => {
    const owner = await signup(t);
    const project = await createProject(t, owner, { name: 'Portal' });
    const early = await as(t, owner).post(`/v1/projects/${project.slug}/billing/portal`);
    assert.deepEqual(early.json(), envelope(409, 'ApplicationError', 'This project has no billing account yet: subscribe to a plan first'));
    const { customer } = await subscribe(t, fake, owner, project.slug, 'pro');
    const res = await as(t, owner).post(`/v1/projects/${project.slug}/billing/portal`);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.json().url, /^https:\/\/billing\.stripe\.test\/p\/session\/bps_/);
    assert.deepEqual(fake.requestsTo('POST', '/v1/billing_portal/sessions').at(-1)!.params, {
      customer, return_url: `http://localhost:80/projects/${project.slug}/billing`,
    });
    // A second owner manages the same subscription (its customer, not their own).
    const coOwner = await signup(t);
    await t.platform.db.pool.query(compiledQuery({ text: `INSERT INTO platform.project_members (project_id, account_id, role) VALUES ($1, $2, 'owner')`, values: [project.id, coOwner.account.id] }));
    assert.equal((await as(t, coOwner).post(`/v1/projects/${project.slug}/billing/portal`)).statusCode, 200);
    assert.equal(fake.requestsTo('POST', '/v1/billing_portal/sessions').at(-1)!.params.customer, customer);
  });

  it('owners only: editors and viewers get 403, other accounts 404, on every billing route', async () => {
    const owner = await signup(t);
    const project = await createProject(t, owner, { name: 'Guarded' });
    const editor = await signup(t);
    const viewer = await signup(t);
    const stranger = await signup(t);
    await addMember(t, project.id, editor, 'editor');
    await addMember(t, project.id, viewer, 'viewer');
    const before = fake.requests.length;
    const calls = (who: Session) => [
      as(t, who).get(`/v1/projects/${project.slug}/billing`),
      as(t, who).post(`/v1/projects/${project.slug}/billing/checkout`, { plan: 'pro' }),
      as(t, who).post(`/v1/projects/${project.slug}/billing/portal`),
      as(t, who).post('/v1/billing/checkout', { plan: 'pro', project: project.slug }),
    ];
    for (const [who, role] of [[editor, 'editor'], [viewer, 'viewer']] as const) {
      for (const res of await Promise.all(calls(who))) assert.deepEqual(res.json(), ownersOnly(role), res.body);
    }
    for (const res of await Promise.all(calls(stranger))) assert.deepEqual(res.json(), notFound, res.body);
    // A checkout for a project the account is no member of is 404 too, unknown slugs alike.
    assert.deepEqual((await as(t, stranger).post('/v1/billing/checkout', { plan: 'pro', project: 'no-such-project' })).json(), notFound);
    assert.equal(fake.requests.length, before, 'nothing reached Stripe');
  });
});

describe('billing when Stripe cannot be reached', () => {
  let t: TestApp;
  before(async () => {
    const port = await freePort();
    t = await startTestApp({ env: stripeEnv({ url: `http://127.0.0.1:${port}` } as FakeStripe) });
  });
  after(async () => {
    await t?.close();
  });

  it('answers 502 in the envelope and records no customer', async () => {
    const owner = await signup(t);
    const project = await createProject(t, owner, { name: 'Offline' });
    const res = await as(t, owner).post(`/v1/projects/${project.slug}/billing/checkout`, { plan: 'pro' });
    assert.deepEqual(res.json(), envelope(502, 'BadGatewayError', 'Stripe could not create a customer; please try again later'));
    assert.equal(Number(await t.platform.db.pool.oneFirst(compiledQuery({ text: 'SELECT count(*) FROM platform.billing_customers', values: [] }))), 0);
  });
});
