// The Webhooks page in a real Chromium: create a webhook (the secret shown once), send a test
// event and see its outcome, change content through the API and see the delivery in the log,
// watch a failing one die and replay it; a viewer sees the page read-only. axe-core on each state.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { assertAccessible, watchConsole } from '../helpers/dashboard.ts';
import { signup } from '../helpers/management.ts';
import { startReceiver, verifyDocumented, type Receiver } from '../helpers/webhook-receiver.ts';

const CONTEXT = { reducedMotion: 'reduce', locale: 'en-US', timezoneId: 'UTC' } as const;
const PASSWORD = 'a long password';
const MODEL = {
  contentTypes: {
    'api::note.note': {
      kind: 'collectionType', info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      options: { draftAndPublish: false }, attributes: { body: { type: 'text' } },
    },
  },
  components: {},
};

describe('dashboard webhooks page in a browser', () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let consoleErrors: () => string[];
  let p: ContentProject;
  let rx: Receiver;
  let secret: string;

  async function logIn(target: Page, email: string) {
    await target.goto(`${origin}/login`);
    await target.getByLabel('E-mail').fill(email);
    await target.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await target.getByRole('button', { name: 'Log in' }).click();
    await target.waitForURL(`${origin}/projects`);
  }

  before(async () => {
    t = await startTestApp({
      env: { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_BACKOFF_MS: '50', WEBHOOKS_MAX_ATTEMPTS: '2', WEBHOOKS_RETRY_WINDOW_MS: '0', WEBHOOKS_RELAY_INTERVAL_MS: '100' },
    });
    await t.fastify.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.fastify.server.address() as { port: number }).port}`;
    p = await setupContentProject(t, MODEL);
    // setupContentProject signs its owner up with PASSWORD.
    const email = p.owner.account.email;
    rx = await startReceiver();
    browser = await launchBrowser();
    context = await browser.newContext(CONTEXT);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    page = await context.newPage();
    consoleErrors = watchConsole(page);
    await logIn(page, email);
  });
  after(async () => {
    await browser?.close();
    await rx?.close();
    await t?.close();
  });

  it('starts empty and creates a webhook; the signing secret is shown once', async () => {
    await page.goto(`${origin}/projects/${p.slug}`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL(`${origin}/projects/${p.slug}/webhooks`);
    await page.getByText('No webhooks yet.', { exact: false }).waitFor();
    await assertAccessible(page, 'webhooks (empty)');

    await page.getByRole('button', { name: 'Create webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create webhook' });
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    await dialog.getByText('Give the webhook a name').waitFor();
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Site rebuild');
    await dialog.getByRole('textbox', { name: 'URL' }).fill(rx.url);
    await dialog.getByRole('checkbox', { name: /Entry deleted/ }).uncheck();
    await dialog.getByRole('checkbox', { name: /Media uploaded/ }).check();
    await dialog.getByRole('button', { name: 'Add header' }).click();
    await dialog.getByRole('textbox', { name: 'Header 1 name' }).fill('X-Team');
    await dialog.getByRole('textbox', { name: 'Header 1 value' }).fill('web');
    await assertAccessible(page, 'webhooks (create form)');
    await dialog.getByRole('button', { name: 'Create webhook' }).click();

    const secretDialog = page.getByRole('dialog', { name: 'Copy the signing secret' });
    secret = (await secretDialog.getByTestId('webhook-secret').textContent())!;
    assert.match(secret, /^whsec_/);
    await assertAccessible(page, 'webhooks (secret)');
    await secretDialog.getByRole('button', { name: 'Copy secret' }).click();
    await secretDialog.getByRole('button', { name: 'Copied' }).waitFor();
    await secretDialog.getByRole('button', { name: 'Done' }).click();
    await secretDialog.waitFor({ state: 'hidden' });

    const row = page.getByRole('table', { name: 'Webhooks' }).getByRole('row').nth(1);
    assert.match((await row.textContent())!, /^Site rebuild.*entry\.create, entry\.update, entry\.publish, entry\.unpublish, media\.createEnabled/);
    // Never again on the page.
    assert.equal(await page.getByText(secret).count(), 0);
    const { webhooks } = (await p.admin.get(`/v1/projects/${p.slug}/webhooks`)).json();
    assert.deepEqual(webhooks[0].headers, { 'X-Team': 'web' });
  });

  it('sends a test event and shows the outcome', async () => {
    await page.getByRole('button', { name: 'Send test to Site rebuild' }).click();
    const status = page.getByRole('status').filter({ hasText: 'Test event to “Site rebuild”: delivered' });
    await status.waitFor();
    assert.match((await status.textContent())!, /The receiver answered HTTP 200 in \d+ ms\./);
    assert.equal(rx.received.length, 1);
    assert.equal(rx.received[0]!.json.event, 'trigger-test');
    assert.equal(rx.received[0]!.headers['x-team'], 'web');
    assert.ok(verifyDocumented(secret, rx.received[0]!.headers['x-webhook-signature'] as string, rx.received[0]!.body));
    await page.getByRole('table', { name: 'Deliveries of Site rebuild' }).getByText('trigger-test').waitFor();
    await assertAccessible(page, 'webhooks (tested)');
  });

  it('shows a real content event in the delivery log', async () => {
    assert.equal((await p.api.post('/api/notes', { data: { body: 'from the API' } })).statusCode, 201);
    const log = page.getByRole('table', { name: 'Deliveries of Site rebuild' });
    await log.getByText('entry.create').waitFor();
    const row = log.getByRole('row').filter({ hasText: 'entry.create' });
    await row.getByText('Delivered').waitFor();
    assert.match((await row.textContent())!, /^entry\.createDeliveredHTTP 2001\d+ ms/);
    await row.getByRole('button', { name: /Show attempts of delivery/ }).click();
    await page.getByText(/^Attempt 1 · .* · HTTP 200 · \d+ ms$/).waitFor();
    if (process.env.UPDATE_SCREENSHOTS) await page.screenshot({ path: join(import.meta.dirname, '../../docs/screenshots/webhooks.png'), fullPage: true });
  });

  it('marks a delivery the receiver keeps refusing as failed; Replay sends it again', async () => {
    rx.respond = () => ({ status: 500, body: 'down for maintenance' });
    assert.equal((await p.api.post('/api/notes', { data: { body: 'unlucky' } })).statusCode, 201);
    const log = page.getByRole('table', { name: 'Deliveries of Site rebuild' });
    const failed = log.getByRole('row').filter({ hasText: 'Failed' });
    await failed.waitFor({ timeout: 15_000 });
    assert.match((await failed.textContent())!, /^entry\.createFailedHTTP 5002/);
    // A hovered subtle button keeps its contrast too (the pointer often rests on one).
    await failed.getByRole('button', { name: /attempts of delivery/ }).hover();
    await assertAccessible(page, 'webhooks (failed delivery)');
    rx.respond = () => ({ status: 200, body: 'ok' });
    const before = rx.received.length;
    await failed.getByRole('button', { name: /Replay delivery/ }).click();
    await page.getByText(/Delivery \d+ queued again/).waitFor();
    await log.getByRole('row').filter({ hasText: 'Failed' }).waitFor({ state: 'detached', timeout: 15_000 });
    await rx.waitFor(before + 1);
    assert.equal(rx.received.at(-1)!.json.entry.body, 'unlucky');
    assert.deepEqual(consoleErrors(), []);
  });

  it('a viewer sees webhooks and deliveries but cannot change them', async () => {
    const viewer = await signup(t, `viewer-${Date.now()}@webhooks.test`, PASSWORD);
    await t.platform.db.pool.query(compiledQuery({ text: `INSERT INTO platform.project_members (project_id, account_id, role) VALUES ($1, $2, 'viewer')`, values: [p.id, viewer.account.id] }));
    const viewerContext = await browser.newContext(CONTEXT);
    const viewerPage = await viewerContext.newPage();
    const viewerErrors = watchConsole(viewerPage);
    await logIn(viewerPage, viewer.account.email);
    await viewerPage.goto(`${origin}/projects/${p.slug}/webhooks`);
    await viewerPage.getByRole('table', { name: 'Webhooks' }).waitFor();
    assert.equal(await viewerPage.getByRole('button', { name: 'Create webhook' }).isDisabled(), true);
    assert.equal(await viewerPage.getByRole('button', { name: 'Edit Site rebuild' }).isDisabled(), true);
    assert.equal(await viewerPage.getByRole('button', { name: 'Send test to Site rebuild' }).isDisabled(), true);
    await viewerPage.getByRole('button', { name: 'Deliveries of Site rebuild' }).click();
    await viewerPage.getByRole('table', { name: 'Deliveries of Site rebuild' }).waitFor();
    await assertAccessible(viewerPage, 'webhooks (viewer)');
    assert.deepEqual(viewerErrors(), []);
    await viewerContext.close();
  });
});
