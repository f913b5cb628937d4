// Stripe's webhook against a local fake of Stripe's API, with payloads signed by the `stripe`
// library's own test-header helper: plan changes (upgrade, downgrade, payment failed → grace →
// free, cancel at period end) reaching every gateway within a second, and events that must
// change nothing — replayed, out of order, badly signed, re-serialised, naming another project.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PLANS } from '@cms/billing';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { deliver, subscribe } from '../helpers/billing.ts';
import { PRICE_ENTERPRISE, PRICE_PRO, signedEvent, startFakeStripe, stripeEnv, subscriptionInput, type FakeStripe } from '../helpers/fake-stripe.ts';
import { as, createProject, signup, type Session } from '../helpers/management.ts';

type Json = Record<string, any>;
const DAY = 24 * 3600 * 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('billing webhook', () => {
  let t: TestApp;
  let b: TestApp;
  let fake: FakeStripe;
  let n = 0;
  const sql = async (text: string, values: unknown[] = []) => (await t.platform.db.pool.query(compiledQuery({ text, values }))).rows as Json[];
  const billing = async (owner: Session, slug: string) => {
    const res = await as(t, owner).get(`/v1/projects/${slug}/billing`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  const planOf = async (owner: Session, slug: string) => (await billing(owner, slug)).plan;
  const retrieves = (id: string) => fake.requestsTo('GET', `/v1/subscriptions/${id}`).length;
  const subscriptionOf = (id: string): Json => fake.subscription(id)!;
  const eventCount = async () => Number((await sql('SELECT count(*) AS n FROM platform.stripe_events'))[0]!.n);
  /** Stripe's side of a subscription change: the new state, then the event announcing it. */
  const change = async (target: TestApp, id: string, type: string, state: Partial<{ price: string; status: string; cancelAtPeriodEnd: boolean }>, created?: number) => {
    const updated = fake.putSubscription({ ...subscriptionInput(subscriptionOf(id)), ...state });
    return deliver(target, { id: `evt_${type}_${++n}`, type, object: updated, created });
  };
  /** A content API answer's plan, as its RateLimit-Limit (the plan's monthly requests) tells it. */
  const monthlyLimitOn = async (gateway: TestApp, slug: string) => Number((await gateway.inject({ method: 'GET', url: `/p/${slug}/api/i18n/locales` })).headers['ratelimit-limit']);
  const newProject = async (label: string) => {
    const owner = await signup(t);
    const project = await createProject(t, owner, { name: label });
    return { owner, project };
  };

  before(async () => {
    fake = await startFakeStripe();
    t = await startTestApp({ env: stripeEnv(fake) });
    b = await startTestApp({ share: t });
  });
  after(async () => {
    await b?.close();
    await t?.close();
    await fake?.close();
  });

  it('upgrade: checkout.session.completed puts the project on the paid plan, on every gateway within a second', async () => {
    const { owner, project } = await newProject('Upgrade');
    // Gateway B serves (and caches) the project on free first.
    assert.equal(await monthlyLimitOn(b, project.slug), PLANS.free.requestsPerMonth);
    const { subscriptionId, customer } = await subscribe(t, fake, owner, project.slug, 'pro');
    const state = await billing(owner, project.slug);
    const subscription = subscriptionOf(subscriptionId);
    assert.deepEqual(state, {
      ...state,
      plan: 'pro', status: 'active', cancelAtPeriodEnd: false, graceUntil: null, limits: PLANS.pro,
      currentPeriodEnd: new Date(subscription.items.data[0].current_period_end * 1000).toISOString(),
    });
    assert.equal((await as(t, owner).get(`/v1/projects/${project.slug}`)).json().project.plan, 'pro');
    const started = Date.now();
    while ((await monthlyLimitOn(b, project.slug)) !== PLANS.pro.requestsPerMonth) {
      assert.ok(Date.now() - started < 1000, 'gateway B still applies the free plan after a second');
      await sleep(20);
    }
    const [row] = await sql('SELECT project_id, customer_id, plan, status FROM platform.subscriptions WHERE id = $1', [subscriptionId]);
    assert.deepEqual(row, { project_id: project.id, customer_id: customer, plan: 'pro', status: 'active' });
  });

  it('downgrade: a subscription moved to a cheaper price changes the plan; nothing else changes', async () => {
    const { owner, project } = await newProject('Downgrade');
    const { subscriptionId } = await subscribe(t, fake, owner, project.slug, 'enterprise');
    assert.equal(await planOf(owner, project.slug), 'enterprise');
    const res = await change(t, subscriptionId, 'customer.subscription.updated', { price: PRICE_PRO });
    assert.deepEqual(res.json(), { received: true, outcome: 'applied' });
    assert.equal(await planOf(owner, project.slug), 'pro');
    assert.equal(await monthlyLimitOn(b, project.slug), PLANS.pro.requestsPerMonth);
  });

  it('payment failed: the plan holds for the grace period (7 days), then the project is on free; paying restores it', async () => {
    const { owner, project } = await newProject('Overdue');
    const { subscriptionId } = await subscribe(t, fake, owner, project.slug, 'pro');
    const overdue = fake.putSubscription({ ...subscriptionInput(subscriptionOf(subscriptionId)), status: 'past_due' });
    const invoice = (paid: boolean) => ({
      id: `in_${++n}`, object: 'invoice', status: paid ? 'paid' : 'open', customer: overdue.customer,
      parent: { type: 'subscription_details', subscription_details: { subscription: subscriptionId, metadata: overdue.metadata } },
    });
    const failedAt = Date.now();
    assert.deepEqual((await deliver(t, { id: `evt_fail_${++n}`, type: 'invoice.payment_failed', object: invoice(false) })).json(), { received: true, outcome: 'applied' });
    let state = await billing(owner, project.slug);
    assert.equal(state.plan, 'pro');
    assert.equal(state.status, 'past_due');
    const graceUntil = Date.parse(state.graceUntil);
    assert.ok(Math.abs(graceUntil - (failedAt + 7 * DAY)) < 5_000, state.graceUntil);
    // Stripe's next retry fails too: the grace period still ends when it first would.
    await deliver(t, { id: `evt_fail_${++n}`, type: 'invoice.payment_failed', object: invoice(false) });
    assert.equal((await billing(owner, project.slug)).graceUntil, state.graceUntil);

    // Eight days later (the grace period moved into the past): free, decided when read, with no event.
    await sql(`UPDATE platform.projects SET plan_grace_until = now() - interval '1 second' WHERE id = $1`, [project.id]);
    await sql(`UPDATE platform.subscriptions SET grace_until = now() - interval '1 second' WHERE id = $1`, [subscriptionId]);
    await t.platform.registry.invalidate({ projectId: project.id, scope: 'project' });
    state = await billing(owner, project.slug);
    assert.equal(state.plan, 'free');
    assert.equal(state.status, 'past_due');
    assert.deepEqual(state.limits, PLANS.free);
    assert.equal((await as(t, owner).get(`/v1/projects/${project.slug}`)).json().project.plan, 'free');
    assert.equal(await monthlyLimitOn(t, project.slug), PLANS.free.requestsPerMonth);
    assert.equal(await monthlyLimitOn(b, project.slug), PLANS.free.requestsPerMonth);

    // The card is fixed and the invoice paid: the plan is back, the grace period gone.
    fake.putSubscription({ ...subscriptionInput(subscriptionOf(subscriptionId)), status: 'active' });
    assert.deepEqual((await deliver(t, { id: `evt_paid_${++n}`, type: 'invoice.paid', object: invoice(true) })).json(), { received: true, outcome: 'applied' });
    state = await billing(owner, project.slug);
    assert.deepEqual([state.plan, state.status, state.graceUntil], ['pro', 'active', null]);
    assert.equal(await monthlyLimitOn(b, project.slug), PLANS.pro.requestsPerMonth);
  });

  it('cancel at period end: the plan holds until Stripe ends the subscription, then the project is on free', async () => {
    const { owner, project } = await newProject('Cancel');
    const { subscriptionId } = await subscribe(t, fake, owner, project.slug, 'pro');
    await change(t, subscriptionId, 'customer.subscription.updated', { cancelAtPeriodEnd: true });
    let state = await billing(owner, project.slug);
    assert.deepEqual([state.plan, state.status, state.cancelAtPeriodEnd], ['pro', 'active', true]);
    await change(t, subscriptionId, 'customer.subscription.deleted', { status: 'canceled', cancelAtPeriodEnd: true });
    state = await billing(owner, project.slug);
    assert.deepEqual([state.plan, state.status], ['free', 'canceled']);
    assert.equal(await monthlyLimitOn(b, project.slug), PLANS.free.requestsPerMonth);
    // The project can subscribe again.
    assert.equal((await as(t, owner).post(`/v1/projects/${project.slug}/billing/checkout`, { plan: 'pro' })).statusCode, 200);
  });

  it('a replayed event is applied once, even delivered to two gateways at the same moment', async () => {
    const { owner, project } = await newProject('Replay');
    const { subscriptionId } = await subscribe(t, fake, owner, project.slug, 'pro');
    const enterprise = fake.putSubscription({ ...subscriptionInput(subscriptionOf(subscriptionId)), price: PRICE_ENTERPRISE });
    const event = { id: `evt_twice_${++n}`, type: 'customer.subscription.updated', object: enterprise };
    const fetchesBefore = retrieves(subscriptionId);
    const [one, two] = await Promise.all([deliver(t, event), deliver(b, event)]);
    assert.deepEqual([one.json().outcome, two.json().outcome].sort(), ['applied', 'duplicate']);
    assert.equal(retrieves(subscriptionId) - fetchesBefore, 1);
    // Stripe retries it later: still nothing to do.
    assert.deepEqual((await deliver(t, event)).json(), { received: true, outcome: 'duplicate' });
    assert.equal(retrieves(subscriptionId) - fetchesBefore, 1);
    assert.equal(await planOf(owner, project.slug), 'enterprise');
    assert.equal(Number((await sql('SELECT count(*) AS n FROM platform.stripe_events WHERE id = $1', [event.id]))[0]!.n), 1);
  });

  it('events out of order: an event older than the newest applied is ignored', async () => {
    const { owner, project } = await newProject('Order');
    const { subscriptionId } = await subscribe(t, fake, owner, project.slug, 'pro');
    const now = Math.floor(Date.now() / 1000);
    // Stripe sends "upgraded to enterprise" (newer) before "updated" from a minute earlier.
    const newer = await change(t, subscriptionId, 'customer.subscription.updated', { price: PRICE_ENTERPRISE }, now + 5);
    assert.equal(newer.json().outcome, 'applied');
    // Whatever Stripe holds now, the late event neither fetches it nor applies anything.
    fake.putSubscription({ ...subscriptionInput(subscriptionOf(subscriptionId)), price: PRICE_PRO });
    const fetchesBefore = retrieves(subscriptionId);
    const older = await deliver(t, { id: `evt_old_${++n}`, type: 'customer.subscription.updated', object: subscriptionOf(subscriptionId), created: now - 60 });
    assert.deepEqual(older.json(), { received: true, outcome: 'stale' });
    assert.equal(retrieves(subscriptionId), fetchesBefore);
    assert.equal(await planOf(owner, project.slug), 'enterprise');
  });

  it('refuses a bad, missing, expired or re-serialised signature with 400, changing nothing', async () => {
    const { owner, project } = await newProject('Signed');
    const { subscriptionId } = await subscribe(t, fake, owner, project.slug, 'pro');
    const enterprise = fake.putSubscription({ ...subscriptionInput(subscriptionOf(subscriptionId)), price: PRICE_ENTERPRISE });
    const event = { id: `evt_signed_${++n}`, type: 'customer.subscription.updated', object: enterprise };
    const good = signedEvent(event);
    const events = await eventCount();
    const fetchesBefore = retrieves(subscriptionId);
    const post = (payload: string, headers: Record<string, string>) => t.inject({ method: 'POST', url: '/v1/billing/webhook', payload, headers });
    const invalid = { data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid Stripe-Signature: the body was not signed with this endpoint\'s secret, or too long ago', details: {} } };
    const cases: Array<[string, string, Record<string, string>, unknown]> = [
      ['another secret', signedEvent(event, { secret: 'whsec_someone_else' }).payload, signedEvent(event, { secret: 'whsec_someone_else' }).headers, invalid],
      ['no header', good.payload, { 'content-type': 'application/json' }, { data: null, error: { status: 400, name: 'ValidationError', message: 'Missing Stripe-Signature header', details: {} } }],
      ['signed 6 minutes ago', signedEvent(event, { timestamp: Math.floor(Date.now() / 1000) - 360 }).payload, signedEvent(event, { timestamp: Math.floor(Date.now() / 1000) - 360 }).headers, invalid],
      ['re-serialised after signing', JSON.stringify(JSON.parse(good.payload)), good.headers, invalid],
      ['altered after signing', good.payload.replace(PRICE_ENTERPRISE, PRICE_PRO), good.headers, invalid],
      ['a garbage header', good.payload, { ...good.headers, 'stripe-signature': 'not a signature' }, invalid],
    ];
    for (const [what, payload, headers, expected] of cases) {
      const res = await post(payload, headers);
      assert.equal(res.statusCode, 400, `${what}: ${res.body}`);
      assert.deepEqual(res.json(), expected, what);
    }
    assert.equal(await eventCount(), events);
    assert.equal(retrieves(subscriptionId), fetchesBefore);
    assert.equal(await planOf(owner, project.slug), 'pro');
    // The same event, as Stripe signed it, goes through.
    assert.equal((await post(good.payload, good.headers)).json().outcome, 'applied');
    assert.equal(await planOf(owner, project.slug), 'enterprise');
  });

  it('ignores events that change no plan, and subscriptions carrying no configured price', async () => {
    const { owner, project } = await newProject('Ignored');
    const events = await eventCount();
    const customerCreated = await deliver(t, { id: `evt_cus_${++n}`, type: 'customer.created', object: { id: 'cus_x', object: 'customer' } });
    assert.deepEqual(customerCreated.json(), { received: true, outcome: 'ignored' });
    assert.equal(await eventCount(), events, 'not recorded');
    const { subscriptionId } = await subscribe(t, fake, owner, project.slug, 'pro');
    const odd = fake.putSubscription({ ...subscriptionInput(subscriptionOf(subscriptionId)), price: 'price_unknown' });
    assert.deepEqual((await deliver(t, { id: `evt_odd_${++n}`, type: 'customer.subscription.updated', object: odd })).json(), { received: true, outcome: 'ignored' });
    assert.equal(await planOf(owner, project.slug), 'pro');
  });

  it('cross-project isolation: metadata naming another project changes nothing there', async () => {
    const x = await newProject('Payer X');
    const y = await newProject('Victim Y');
    // X has a customer (a checkout of its own project).
    await as(t, x.owner).post(`/v1/projects/${x.project.slug}/billing/checkout`, { plan: 'pro' });
    const xCustomer = fake.requestsTo('POST', '/v1/checkout/sessions').at(-1)!.params.customer as string;
    const claims = [
      // X's customer paying, metadata naming Y's project with X as the account (X owns nothing there).
      { projectId: String(y.project.id), accountId: String(x.owner.account.id) },
      // X's customer paying, metadata naming Y's project and Y's owner (not the payer).
      { projectId: String(y.project.id), accountId: String(y.owner.account.id) },
    ];
    for (const metadata of claims) {
      const forged = fake.putSubscription({ id: `sub_forged_${++n}`, customer: xCustomer, price: PRICE_ENTERPRISE, metadata });
      assert.deepEqual((await deliver(t, { id: `evt_forged_${++n}`, type: 'customer.subscription.created', object: forged })).json(), { received: true, outcome: 'ignored' });
    }
    assert.equal(await planOf(y.owner, y.project.slug), 'free');
    assert.equal((await billing(y.owner, y.project.slug)).status, 'none');

    // X's own subscription changes X only, even when its metadata is later edited to name Y.
    const { subscriptionId } = await subscribe(t, fake, x.owner, x.project.slug, 'pro');
    const edited = fake.putSubscription({ ...subscriptionInput(subscriptionOf(subscriptionId)), price: PRICE_ENTERPRISE, metadata: { projectId: String(y.project.id), accountId: String(y.owner.account.id) } });
    assert.equal((await deliver(t, { id: `evt_edit_${++n}`, type: 'customer.subscription.updated', object: edited })).json().outcome, 'applied');
    assert.equal(await planOf(x.owner, x.project.slug), 'enterprise');
    assert.equal(await planOf(y.owner, y.project.slug), 'free');
  });

  it('deleting a paid project cancels its subscription first; a project without one is deleted as before', async () => {
    const { owner, project } = await newProject('Paid then deleted');
    const { subscriptionId } = await subscribe(t, fake, owner, project.slug, 'pro');
    assert.equal((await as(t, owner).del(`/v1/projects/${project.slug}`)).statusCode, 204);
    assert.equal(fake.requestsTo('DELETE', `/v1/subscriptions/${subscriptionId}`).length, 1);
    assert.equal(subscriptionOf(subscriptionId).status, 'canceled');
    assert.equal((await as(t, owner).get(`/v1/projects/${project.slug}`)).statusCode, 404);
    // Stripe no longer knowing the subscription does not keep the project.
    const gone = await newProject('Unknown to Stripe');
    await subscribe(t, fake, gone.owner, gone.project.slug, 'pro');
    await sql(`UPDATE platform.subscriptions SET id = 'sub_unknown_to_stripe' WHERE project_id = $1`, [gone.project.id]);
    assert.equal((await as(t, gone.owner).del(`/v1/projects/${gone.project.slug}`)).statusCode, 204);
    const free = await newProject('Never paid');
    const cancels = fake.requests.filter((r) => r.method === 'DELETE').length;
    assert.equal((await as(t, free.owner).del(`/v1/projects/${free.project.slug}`)).statusCode, 204);
    assert.equal(fake.requests.filter((r) => r.method === 'DELETE').length, cancels);
  });

  it('deleting the account that is the only owner of a paid project cancels its subscription', async () => {
    const { owner, project } = await newProject('Owner leaves');
    const { subscriptionId } = await subscribe(t, fake, owner, project.slug, 'pro');
    const res = await t.inject({ method: 'DELETE', url: '/v1/auth/account', payload: { password: 'a long password' }, headers: { authorization: `Bearer ${owner.token}` } });
    assert.equal(res.statusCode, 204, res.body);
    assert.equal(subscriptionOf(subscriptionId).status, 'canceled');
    assert.equal(Number((await sql('SELECT count(*) AS n FROM platform.projects WHERE id = $1', [project.id]))[0]!.n), 0);
  });
});
