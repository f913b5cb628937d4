// The Billing page in a real Chromium against a local fake of Stripe's API: an owner sees the
// plan and usage, upgrades through Checkout (the browser goes to Stripe's page), Stripe's
// signed webhook puts the project on Pro, the owner opens the portal, a failed payment shows the
// grace period; an editor sees usage but no billing controls. axe-core on every state.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { deliver, subscribe } from '../helpers/billing.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { listen, logIn, openPage, screenshot } from '../helpers/browser-session.ts';
import { assertAccessible } from '../helpers/dashboard.ts';
import { PRICE_PRO, startFakeStripe, stripeEnv, subscriptionInput, type FakeStripe } from '../helpers/fake-stripe.ts';
import { addMember, as, createProject, signup, type Session } from '../helpers/management.ts';

describe('dashboard billing page in a browser', () => {
  let t: TestApp;
  let fake: FakeStripe;
  let origin: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let consoleErrors: () => string[];
  let owner: Session;
  let project: { id: number; slug: string };
  let subscriptionId: string;

  before(async () => {
    fake = await startFakeStripe();
    t = await startTestApp({ env: stripeEnv(fake) });
    origin = await listen(t);
    owner = await signup(t, 'payer@billing.test');
    project = await createProject(t, owner, { name: 'Paid Blog' });
    browser = await launchBrowser();
    ({ context, page, consoleErrors } = await openPage(browser));
    // Stripe's hosted pages, as the browser would reach them.
    await context.route(/^https:\/\/(checkout|billing)\.stripe\.test\//, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Stripe</title><h1>Stripe</h1>' }));
    await logIn(page, origin, 'payer@billing.test');
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await fake?.close();
  });

  it('shows the free plan, usage against its limits and the plans to compare', async () => {
    await page.goto(`${origin}/projects/${project.slug}`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Billing' }).click();
    await page.waitForURL(`${origin}/projects/${project.slug}/billing`);
    await page.getByRole('table', { name: 'Plans' }).waitFor();
    assert.equal(await page.getByTestId('current-plan').textContent(), 'Free');
    assert.equal(await page.getByTestId('usage-Documents').textContent(), '0 of 10,000');
    assert.equal(await page.getByTestId('usage-API requests').textContent(), '0 of 100,000');
    const rows = await page.getByRole('table', { name: 'Plans' }).getByRole('row').allTextContents();
    assert.equal(rows.length, 4);
    assert.match(rows[2]!, /^Pro5,000,000500.*50Upgrade to Pro$/);
    assert.equal(rows[1], 'Free100,0005010,0001 GB50 MB3Current');
    assert.match(rows[3]!, /^Enterprise.*Unlimited/);
    assert.equal(await page.getByRole('button', { name: 'Manage billing' }).count(), 0);
    await assertAccessible(page, 'billing (free)');
  });

  it('Upgrade goes to Stripe Checkout with the plan\'s price; the signed webhook puts the project on Pro', async () => {
    await page.getByRole('button', { name: 'Upgrade to Pro' }).click();
    await page.waitForURL(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_/);
    const session = fake.requestsTo('POST', '/v1/checkout/sessions').at(-1)!.params;
    assert.equal(session.mode, 'subscription');
    assert.equal(session.line_items[0].price, PRICE_PRO);
    assert.equal(session.success_url, `${origin}/projects/${project.slug}/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}`);
    assert.equal(session.metadata.projectId, String(project.id));
    // Stripe's side once paid (a new checkout of the same kind, then the webhook).
    ({ subscriptionId } = await subscribe(t, fake, owner, project.slug, 'pro'));
    await page.goto(`${origin}/projects/${project.slug}/billing?checkout=success`);
    await page.getByText('Thank you: your subscription is being set up.', { exact: false }).waitFor();
    await page.getByTestId('current-plan').filter({ hasText: 'Pro' }).waitFor();
    assert.equal(await page.getByTestId('usage-API requests').textContent(), '0 of 5,000,000');
    assert.match((await page.getByText(/^Subscription: active, renews on /).textContent())!, /renews on \w+ \d+, \d{4}$/);
    assert.equal(await page.getByRole('button', { name: /Upgrade to/ }).count(), 0);
    await assertAccessible(page, 'billing (pro)');
    // `make screenshots` keeps the page in docs/screenshots.
    await screenshot(page, 'billing');
  });

  it('Manage billing opens Stripe\'s portal for the account\'s customer', async () => {
    await page.getByRole('button', { name: 'Manage billing' }).click();
    await page.waitForURL(/^https:\/\/billing\.stripe\.test\/p\/session\/bps_/);
    const portal = fake.requestsTo('POST', '/v1/billing_portal/sessions').at(-1)!.params;
    assert.equal(portal.customer, fake.subscription(subscriptionId)!.customer);
    assert.equal(portal.return_url, `${origin}/projects/${project.slug}/billing`);
  });

  it('a failed payment shows the grace period: the plan holds until a date, then Free', async () => {
    const overdue = fake.putSubscription({ ...subscriptionInput(fake.subscription(subscriptionId)!), status: 'past_due' });
    const failed = await deliver(t, {
      id: 'evt_browser_failed', type: 'invoice.payment_failed',
      object: { id: 'in_browser', object: 'invoice', status: 'open', customer: overdue.customer, parent: { type: 'subscription_details', subscription_details: { subscription: subscriptionId, metadata: overdue.metadata } } },
    });
    assert.equal(failed.json().outcome, 'applied');
    const graceUntil = (await as(t, owner).get(`/v1/projects/${project.slug}/billing`)).json().graceUntil as string;
    await page.goto(`${origin}/projects/${project.slug}/billing`);
    const banner = page.getByRole('alert').filter({ hasText: 'Your last payment failed' });
    await banner.waitFor();
    const date = new Date(graceUntil).toLocaleDateString('en', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
    assert.equal(await banner.textContent(), `Your last payment failedThe project keeps its Pro plan until ${date}. Update your card in Manage billing before then, or it moves to the Free plan (nothing is deleted).`);
    await assertAccessible(page, 'billing (grace period)');
  });

  it('an editor sees the plan and usage, no billing controls, and the API refuses them', async () => {
    const editor = await signup(t, 'editor@billing.test');
    // Made a member directly (the invitation journey is dashboard-account-browser's).
    await addMember(t, project.id, editor, 'editor');
    const { context: other, page: editorPage, consoleErrors: editorErrors } = await openPage(browser);
    await logIn(editorPage, origin, 'editor@billing.test');
    await editorPage.goto(`${origin}/projects/${project.slug}/billing`);
    await editorPage.getByText('Only the project\'s owners can change its plan.').waitFor();
    assert.equal(await editorPage.getByTestId('current-plan').textContent(), 'Pro');
    assert.equal(await editorPage.getByRole('button', { name: 'Manage billing' }).count(), 0);
    assert.equal(await editorPage.getByRole('table', { name: 'Plans' }).count(), 0);
    await assertAccessible(editorPage, 'billing (editor)');
    assert.equal((await as(t, editor).post(`/v1/projects/${project.slug}/billing/portal`)).statusCode, 403);
    assert.deepEqual(editorErrors(), []);
    await other.close();
  });

  it('logged no error on any page', () => {
    assert.deepEqual(consoleErrors(), []);
  });
});
