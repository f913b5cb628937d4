// The management API's reference page (`/docs/api`, issue 40) in a real Chromium, under the
// dashboard's Content-Security-Policy: a visitor opens it from the landing page and a signed-in
// account from the header; it renders the document the gateway serves (`GET /v1/openapi.json`):
// its operations with their summaries, and its shared schemas. No console error (a CSP violation,
// a font or script fetched from elsewhere would be one), no request to another origin, and axe-core
// finds nothing serious.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { listen, logIn, openPage } from '../helpers/browser-session.ts';
import { assertAccessible } from '../helpers/dashboard.ts';
import { signup } from '../helpers/management.ts';

const VIEWPORT = { viewport: { width: 1400, height: 1000 } };

describe('dashboard API reference in a browser', () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;

  /** Every request the page made to another origin than the app's. */
  function elsewhere(page: Page): () => string[] {
    const seen: string[] = [];
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:')) seen.push(url);
    });
    return () => seen;
  }

  /** The reference once rendered: the document's title and its first operations (the first tag is open). */
  async function rendered(page: Page): Promise<void> {
    await reference(page).getByRole('heading', { name: 'Content platform management API' }).waitFor({ timeout: 60_000 });
    await reference(page).getByRole('heading', { name: 'Sign up' }).waitFor();
  }
  /** Scalar's own main landmark, and its sidebar. */
  const reference = (page: Page) => page.getByRole('main', { name: /documentation for Content platform management API$/ });
  const sidebar = (page: Page) => page.locator('aside[aria-label="Sidebar for Content platform management API"]');

  before(async () => {
    t = await startTestApp();
    origin = await listen(t);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('a visitor opens it from the landing page: the document\'s operations and schemas, no error', async () => {
    const { context, page, consoleErrors } = await openPage(browser, VIEWPORT);
    const external = elsewhere(page);
    try {
      await page.goto(origin);
      await page.getByRole('link', { name: 'API reference' }).click();
      await page.waitForURL(`${origin}/docs/api`);
      await rendered(page);
      assert.equal(await page.title(), 'API reference · Content Platform');
      // Real operations of the document, with their summaries (`defineRoute`'s), by tag.
      const doc = (await t.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
      assert.equal(doc.paths['/v1/projects'].post.summary, 'Create a project');
      for (const summary of ['Sign up', 'Log in', 'Log out']) await sidebar(page).getByText(summary, { exact: true }).waitFor();
      await sidebar(page).getByText('Projects', { exact: true }).click();
      await sidebar(page).getByText('Create a project', { exact: true }).click();
      const create = reference(page).getByRole('heading', { name: 'Create a project' });
      await create.waitFor();
      // Its request body (the route's schema) and its example.
      await reference(page).getByText('defaultLocale', { exact: true }).first().waitFor();
      // The shared schemas (components), by name.
      await sidebar(page).getByText('Models', { exact: true }).click();
      for (const schema of ['ErrorEnvelope', 'Project', 'Webhook']) await sidebar(page).getByText(schema, { exact: true }).waitFor();
      // The link to the document itself.
      assert.equal(await page.getByRole('banner').getByRole('link', { name: 'openapi.json' }).getAttribute('href'), '/v1/openapi.json');
      await assertAccessible(page, 'the API reference');
      assert.deepEqual(consoleErrors(), []);
      assert.deepEqual(external(), [], 'nothing is fetched from another origin');
    } finally {
      await context.close();
    }
  });

  it('a signed-in account opens it from the header', async () => {
    const session = await signup(t);
    const { context, page, consoleErrors } = await openPage(browser, VIEWPORT);
    const external = elsewhere(page);
    try {
      await logIn(page, origin, session.account.email);
      await page.getByRole('banner').getByRole('link', { name: 'API reference' }).click();
      await page.waitForURL(`${origin}/docs/api`);
      await rendered(page);
      assert.deepEqual(consoleErrors(), []);
      assert.deepEqual(external(), []);
    } finally {
      await context.close();
    }
  });
});
