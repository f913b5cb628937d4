// The dashboard in a real Chromium: a visitor signs up, creates a project, finds its API
// addresses and a snippet that works as shown, manages sessions, logs out and in again; another
// account sees none of it. Every page passes axe-core (no serious or critical violation) and
// logs no error; the app is served with a strict CSP and client-side routes survive reloads.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { assertAccessible, watchConsole } from '../helpers/dashboard.ts';
import { blogRawModel } from '../fixtures/index.ts';

const EMAIL = 'dash@example.com';
const PASSWORD = 'a long password';

describe('dashboard in a browser', () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let consoleErrors: () => string[];

  before(async () => {
    t = await startTestApp();
    await t.fastify.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.fastify.server.address() as { port: number }).port}`;
    browser = await launchBrowser();
    context = await browser.newContext({ reducedMotion: 'reduce' });
    page = await context.newPage();
    consoleErrors = watchConsole(page);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A Bearer session of the same account, for setting up what later pages show. */
  const apiSession = async () => (await t.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: EMAIL, password: PASSWORD } })).json().token as string;

  it('serves the app with a strict CSP at / and at any client route; API paths stay JSON 404s', async () => {
    for (const path of ['/', '/projects', '/projects/x/y?z=1']) {
      const res = await fetch(`${origin}${path}`);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get('content-type')!, /^text\/html/);
      const csp = res.headers.get('content-security-policy')!;
      assert.match(csp, /script-src 'self'/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.doesNotMatch(csp, /script-src[^;]*unsafe/);
      assert.match(await res.text(), /<div id="root"><\/div>/);
    }
    for (const path of ['/v1/nope', '/p/nope/api/x', '/v1']) {
      const res = await fetch(`${origin}${path}`);
      assert.equal(res.status, 404, path);
      assert.equal((await res.json() as { error: { name: string } }).error.name, 'NotFoundError');
    }
    const asset = (await (await fetch(`${origin}/`)).text()).match(/\/assets\/[^"]+\.js/)![0];
    const js = await fetch(`${origin}${asset}`);
    assert.equal(js.status, 200);
    assert.match(js.headers.get('cache-control')!, /immutable/);
  });

  it('a visitor signs up: labelled fields, the password rule up front, errors next to the field', async () => {
    await page.goto(`${origin}/`);
    await page.getByRole('heading', { name: 'Content Platform' }).waitFor();
    await assertAccessible(page, 'landing');
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    assert.equal(await page.getByText('At least 8 characters').isVisible(), true);
    await assertAccessible(page, 'sign-up');
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByRole('textbox', { name: 'Password' }).fill('short');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText('Use at least 8 characters').waitFor();
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(`${origin}/projects`);
    await page.getByRole('heading', { name: 'No projects yet' }).waitFor();
    await assertAccessible(page, 'empty project list');
  });

  it('creates a project (slug shown live) and lands on its overview with the API addresses', async () => {
    await page.getByRole('button', { name: 'Create project' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create project' });
    await dialog.getByLabel('Project name').fill('My Blog!');
    assert.equal(await dialog.getByTestId('slug-preview').textContent(), '/p/my-blog/api');
    await assertAccessible(page, 'create project dialog');
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(`${origin}/projects/my-blog`);
    await page.getByRole('heading', { name: 'My Blog!', level: 1 }).waitFor();
    assert.equal(await page.getByTestId('REST').textContent(), `${origin}/p/my-blog/api`);
    assert.equal(await page.getByTestId('GraphQL').textContent(), `${origin}/p/my-blog/graphql`);
    const steps = page.getByRole('list', { name: 'First steps' }).getByRole('listitem');
    assert.deepEqual(await steps.evaluateAll((items) => items.map((i) => i.getAttribute('data-done'))), ['false', 'false', 'false', 'false']);
    await assertAccessible(page, 'project overview');
  });

  it('the curl, fetch and GraphQL snippets work exactly as shown once a type and a token exist', async () => {
    const bearer = await apiSession();
    const admin = (method: string, url: string, payload?: unknown) => t.inject({ method: method as 'GET', url, payload: payload as object, headers: { authorization: `Bearer ${bearer}` } });
    assert.equal((await admin('PUT', '/v1/projects/my-blog/schema', blogRawModel())).statusCode, 200);
    const token = (await admin('POST', '/v1/projects/my-blog/api-tokens', { name: 'read', type: 'read-only' })).json().accessKey as string;
    await page.reload();
    await page.getByRole('tab', { name: 'curl' }).waitFor();
    const curl = (await page.locator('[data-snippet="curl"]').textContent())!;
    assert.match(curl, /^curl "http:\/\/127\.0\.0\.1:\d+\/p\/my-blog\/api\/authors" \\\n {2}-H "Authorization: Bearer YOUR_API_TOKEN"$/);
    // Run the snippet's request as written, with the placeholder replaced.
    const url = /curl "([^"]+)"/.exec(curl)![1]!;
    const header = /-H "Authorization: ([^"]+)"/.exec(curl)![1]!.replace('YOUR_API_TOKEN', token);
    const rest = await fetch(url, { headers: { authorization: header } });
    assert.equal(rest.status, 200);
    assert.deepEqual(((await rest.json()) as { data: unknown[] }).data, []);

    await page.getByRole('tab', { name: 'GraphQL' }).click();
    const graphql = (await page.locator('[data-snippet="GraphQL"]').textContent())!;
    const body = /-d '([^']+)'/.exec(graphql)![1]!;
    const gqlRes = await fetch(/curl "([^"]+)"/.exec(graphql)![1]!, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body });
    assert.deepEqual(await gqlRes.json(), { data: { authors: [] } });

    await page.getByRole('tab', { name: 'fetch' }).click();
    const fetchSnippet = (await page.locator('[data-snippet="fetch"]').textContent())!;
    assert.ok(fetchSnippet.includes(`fetch('${origin}/p/my-blog/api/authors'`));
    const steps = page.getByRole('list', { name: 'First steps' }).getByRole('listitem');
    assert.deepEqual(await steps.evaluateAll((items) => items.map((i) => i.getAttribute('data-done'))), ['true', 'false', 'true', 'false']);
  });

  it('lists the sessions, logs out, and logs in again to the same projects', async () => {
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Account and sessions' }).click();
    await page.getByRole('heading', { name: 'Active sessions' }).waitFor();
    await page.getByText('This session').waitFor();
    await assertAccessible(page, 'account');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL(`${origin}/login`);
    // A reload keeps the visitor out: the cookie is gone.
    await page.goto(`${origin}/projects/my-blog`);
    await page.waitForURL(`${origin}/login`);
    await assertAccessible(page, 'login');
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${origin}/projects/my-blog`);
    await page.getByRole('link', { name: 'Projects' }).first().click();
    await page.getByRole('link', { name: 'Open project My Blog!' }).waitFor();
  });

  it('wrong credentials show the API\'s message and nothing else', async () => {
    const other = await context.browser()!.newContext();
    const visitor = await other.newPage();
    await visitor.goto(`${origin}/login`);
    await visitor.getByLabel('E-mail').fill(EMAIL);
    await visitor.getByRole('textbox', { name: 'Password' }).fill('not the password');
    await visitor.getByRole('button', { name: 'Log in' }).click();
    await visitor.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await other.close();
  });

  it('a second account sees none of the first one\'s projects', async () => {
    const other = await context.browser()!.newContext();
    const second = await other.newPage();
    const errors = watchConsole(second);
    await second.goto(`${origin}/signup`);
    await second.getByLabel('E-mail').fill('second@example.com');
    await second.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await second.getByRole('button', { name: 'Sign up' }).click();
    await second.getByRole('heading', { name: 'No projects yet' }).waitFor();
    await second.goto(`${origin}/projects/my-blog`);
    await second.getByRole('alert').filter({ hasText: 'Not Found' }).waitFor();
    assert.equal(await second.getByTestId('REST').count(), 0);
    // The only console noise is the refused project request itself.
    assert.deepEqual(errors().filter((e) => !e.includes('404')), []);
    await other.close();
  });

  it('logged no error on any page', () => {
    assert.deepEqual(consoleErrors(), []);
  });
});
