// The End users page in a real Chromium, against the project's real API and a real SMTP server:
// an end user registered through the API is listed and found by search; a second one is created
// in the page (a taken e-mail is refused on its field); a role is changed; blocking refuses the
// user's JWT at the next call and unblocking accepts it again; deleting removes the user from the
// API; turning registration off makes the API refuse it; a template edit is saved and used; the
// e-mail transport is stated; a viewer sees all of it read-only. axe-core on every state.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { chooseOption, listen, logIn, openPage } from '../helpers/browser-session.ts';
import { assertAccessible } from '../helpers/dashboard.ts';
import { envelope, notFound, unauthorized } from '../helpers/envelope.ts';
import { addMember, as, createProject, signup, type Session } from '../helpers/management.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

/** A timestamp as the list shows it (the browser runs in UTC). */
const shown = (iso: string) => iso.slice(0, 16).replace('T', ' ');

describe('dashboard End users page in a browser', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let consoleErrors: () => string[];
  let owner: Session;
  let project: { id: number; slug: string };
  let apiKey: string;
  let alice: { id: number; jwt: string; createdAt: string };
  let bobId: number;

  /** The project's content API over real HTTP (with `key` as Bearer). */
  async function call(method: string, path: string, key: string | null, body?: unknown): Promise<{ status: number; json: any }> {
    const res = await fetch(`${origin}/p/${project.slug}${path}`, {
      method, body: body === undefined ? undefined : JSON.stringify(body),
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    });
    return { status: res.status, json: await res.json() };
  }
  const table = (p: Page) => p.getByRole('table', { name: 'End users' });
  const rowOf = (p: Page, username: string) => table(p).getByRole('row').filter({ has: p.getByRole('cell', { name: username, exact: true }) });
  const cells = (row: Locator) => row.getByRole('cell').evaluateAll((tds) => tds.map((td) => td.textContent!.trim()));
  const usernames = async (p: Page) => (await table(p).getByRole('row').evaluateAll((trs) => trs.slice(1).map((tr) => tr.querySelector('td')!.textContent!.trim())));
  /** The usernames listed once the list shows `expected` (the search and sort answer after a pause). */
  async function listed(p: Page, expected: string[]): Promise<string[]> {
    const deadline = Date.now() + 10_000;
    let names = await usernames(p);
    while (JSON.stringify(names) !== JSON.stringify(expected) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      names = await usernames(p);
    }
    await table(p).and(p.locator('[aria-busy="false"]')).waitFor();
    return names;
  }
  const toast = (p: Page, text: string) => p.locator('.mantine-Notification-root').filter({ hasText: text }).waitFor();

  before(async () => {
    smtp = await startSmtp();
    t = await startTestApp({ env: { SMTP_URL: smtp.url, EMAIL_FROM: 'auth@platform.test' } });
    origin = await listen(t);
    owner = await signup(t, 'owner@users.test');
    project = await createProject(t, owner, { name: 'Shop' });
    const role = await as(t, owner).post(`/v1/projects/${project.slug}/roles`, { type: 'editor', name: 'Editor' });
    assert.equal(role.statusCode, 201, role.body);
    const token = await as(t, owner).post(`/v1/projects/${project.slug}/api-tokens`, { name: 'test', type: 'full-access' });
    apiKey = token.json().accessKey;
    browser = await launchBrowser();
    ({ page, consoleErrors } = await openPage(browser));
    await logIn(page, origin, 'owner@users.test');
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.close();
  });

  it('lists an end user registered through the API, and search finds them', async () => {
    const registered = await call('POST', '/api/auth/local/register', null, { username: 'alice', email: 'Alice@Example.com', password: 'secret123' });
    assert.equal(registered.status, 200);
    alice = { id: registered.json.user.id, jwt: registered.json.jwt, createdAt: registered.json.user.createdAt };
    const zed = await call('POST', '/api/auth/local/register', null, { username: 'zed', email: 'zed@other.test', password: 'secret123' });
    assert.equal(zed.status, 200);

    await page.goto(`${origin}/projects/${project.slug}`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'End users' }).click();
    await page.waitForURL(`${origin}/projects/${project.slug}/end-users`);
    await rowOf(page, 'alice').waitFor();
    // Newest first.
    assert.deepEqual(await usernames(page), ['zed', 'alice']);
    assert.deepEqual(await cells(rowOf(page, 'alice')), ['alice', 'alice@example.com', '', 'Yes', 'No', shown(alice.createdAt), 'BlockDelete']);
    assert.equal(await page.getByRole('combobox', { name: 'Role of alice' }).inputValue(), 'Authenticated');
    assert.equal(await page.getByTestId('users-total').textContent(), '1–2 of 2 users');
    await assertAccessible(page, 'end users list');

    await page.getByLabel('Search').fill('ALI');
    await page.waitForURL(/\?q=ALI$/);
    assert.deepEqual(await listed(page, ['alice']), ['alice']);
    assert.equal(await page.getByTestId('users-total').textContent(), '1–1 of 1 user');
    await page.getByLabel('Search').fill('other.test');
    await page.waitForURL(/\?q=other.test$/);
    assert.deepEqual(await listed(page, ['zed']), ['zed']);
    await page.getByLabel('Search').fill('nobody');
    await page.getByText('No end user matches “nobody”.').waitFor();
    await assertAccessible(page, 'search without match');
    await page.getByLabel('Search').fill('');
    assert.deepEqual(await listed(page, ['zed', 'alice']), ['zed', 'alice']);
    assert.equal(await page.getByTestId('users-total').textContent(), '1–2 of 2 users');

    // Sorting by a column.
    await table(page).getByRole('button', { name: /^Username/ }).click();
    await page.waitForURL(/\?sort=username%3Aasc$/);
    await table(page).getByRole('columnheader', { name: 'Username ↑' }).waitFor();
    assert.deepEqual(await listed(page, ['alice', 'zed']), ['alice', 'zed']);
    assert.equal(await table(page).getByRole('columnheader', { name: 'Username ↑' }).getAttribute('aria-sort'), 'ascending');
  });

  it('creates a user; a taken e-mail is refused on its field', async () => {
    await page.getByRole('button', { name: 'Create user' }).click();
    const form = page.getByRole('form', { name: 'Create end user' });
    await form.getByLabel(/^Username/).fill('bob');
    await form.getByLabel(/^E-mail/).fill('alice@example.com');
    await form.getByLabel(/^Password/).fill('secret123');
    await form.getByRole('button', { name: 'Create user' }).click();
    const email = form.getByRole('textbox', { name: /^E-mail/ });
    await form.getByText('Email or Username are already taken').waitFor();
    assert.equal(await email.getAttribute('aria-invalid'), 'true');
    assert.equal(await form.getByRole('textbox', { name: /^Username/ }).getAttribute('aria-invalid'), null);
    await assertAccessible(page, 'create user refused');

    await email.fill('bob@example.org');
    await form.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Editor', exact: true }).click();
    await form.getByRole('button', { name: 'Create user' }).click();
    await toast(page, 'bob was created');
    await rowOf(page, 'bob').waitFor();
    assert.deepEqual(await listed(page, ['alice', 'bob', 'zed']), ['alice', 'bob', 'zed']);
    const found = await call('GET', '/api/users?filters[username][$eq]=bob&populate=role', apiKey);
    assert.equal(found.status, 200);
    assert.equal(found.json.length, 1);
    const bob = found.json[0];
    bobId = bob.id;
    assert.deepEqual([bob.email, bob.confirmed, bob.blocked, bob.role.type], ['bob@example.org', true, false, 'editor']);
    assert.deepEqual(await cells(rowOf(page, 'bob')), ['bob', 'bob@example.org', '', 'Yes', 'No', shown(bob.createdAt), 'BlockDelete']);
  });

  it('changes a role', async () => {
    await page.getByRole('combobox', { name: 'Role of alice' }).click();
    await page.getByRole('option', { name: 'Editor', exact: true }).click();
    await toast(page, 'alice is now Editor');
    const user = await call('GET', `/api/users/${alice.id}?populate=role`, apiKey);
    assert.equal(user.json.role.type, 'editor');
    assert.equal(await page.getByRole('combobox', { name: 'Role of alice' }).inputValue(), 'Editor');
  });

  it('blocking refuses the user\'s JWT at the next call; unblocking accepts it again', async () => {
    assert.equal((await call('GET', '/api/users/me', alice.jwt)).status, 200);
    await page.getByRole('button', { name: 'Block alice' }).click();
    await toast(page, 'alice is blocked');
    await page.getByRole('button', { name: 'Unblock alice' }).waitFor();
    assert.deepEqual((await cells(rowOf(page, 'alice'))).slice(3, 5), ['Yes', 'Yes']);
    assert.deepEqual(await call('GET', '/api/users/me', alice.jwt), { status: 401, json: unauthorized() });
    const login = await call('POST', '/api/auth/local', null, { identifier: 'alice', password: 'secret123' });
    assert.deepEqual(login, { status: 400, json: envelope(400, 'ApplicationError', 'Your account has been blocked by an administrator') });
    await assertAccessible(page, 'user blocked');

    await page.getByRole('button', { name: 'Unblock alice' }).click();
    await toast(page, 'alice is unblocked');
    await page.getByRole('button', { name: 'Block alice' }).waitFor();
    const me = await call('GET', '/api/users/me', alice.jwt);
    assert.equal(me.status, 200);
    assert.deepEqual([me.json.username, me.json.email, me.json.blocked], ['alice', 'alice@example.com', false]);
  });

  it('deletes a user after confirming: gone from the API too', async () => {
    await page.getByRole('button', { name: 'Delete bob' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete end user' });
    await dialog.getByText('“bob” (bob@example.org) is deleted: their JWTs stop working at once. This cannot be undone.').waitFor();
    await assertAccessible(page, 'delete user confirmation');
    await dialog.getByRole('button', { name: 'Delete user' }).click();
    await toast(page, 'bob was deleted');
    await rowOf(page, 'bob').waitFor({ state: 'detached' });
    assert.deepEqual(await listed(page, ['alice', 'zed']), ['alice', 'zed']);
    assert.deepEqual(await call('GET', `/api/users/${bobId}`, apiKey), { status: 404, json: notFound() });
  });

  it('turning registration off makes the API refuse it', async () => {
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.waitForURL(/\?tab=settings$/);
    const form = page.getByRole('form', { name: 'End-user settings' });
    await form.getByRole('switch', { name: 'Allow registration' }).waitFor();
    assert.equal(await form.getByRole('switch', { name: 'Allow registration' }).isChecked(), true);
    assert.equal(await form.getByRole('combobox', { name: 'Default role of new users' }).inputValue(), 'Authenticated');
    assert.equal(await form.getByLabel('JWT lifetime (seconds)').inputValue(), '2592000');
    await form.getByText('30 days; from 60 seconds to 365 days').waitFor();
    await assertAccessible(page, 'end-user settings');

    // A refused value is named on its field.
    await form.getByLabel('Reset password page').fill('ftp://files.example.com');
    await form.getByRole('button', { name: 'Save end-user settings' }).click();
    await form.getByText('resetPasswordUrl must be an http(s) URL or null').waitFor();
    await form.getByLabel('Reset password page').fill('https://shop.example.com/reset');
    await form.getByRole('switch', { name: 'Allow registration' }).click({ force: true });
    await form.getByRole('button', { name: 'Save end-user settings' }).click();
    await toast(page, 'End-user settings saved');
    const saved = await as(t, owner).get(`/v1/projects/${project.slug}/settings/users-permissions`);
    assert.deepEqual(saved.json().usersPermissions, {
      allowRegister: false, emailConfirmation: false, defaultRole: 'authenticated', jwtExpiresIn: 2592000,
      resetPasswordUrl: 'https://shop.example.com/reset', emailConfirmationRedirect: '/',
    });
    const refused = await call('POST', '/api/auth/local/register', null, { username: 'late', email: 'late@example.com', password: 'secret123' });
    assert.deepEqual(refused, { status: 400, json: envelope(400, 'ApplicationError', 'Register action is currently disabled') });
  });

  it('states the e-mail transport; a template edit is saved and used', async () => {
    await page.getByRole('tab', { name: 'E-mail templates' }).click();
    await page.waitForURL(/\?tab=emails$/);
    assert.equal(await page.getByTestId('mail-transport').textContent(), `E-mails are sent through ${smtp.url.slice('smtp://'.length)}`);
    const reset = page.getByRole('form', { name: 'Reset password template' });
    assert.equal(await reset.getByRole('textbox', { name: /^Subject/ }).inputValue(), 'Reset password');
    await assertAccessible(page, 'e-mail templates');

    // An unknown variable is refused on the field.
    await reset.getByRole('textbox', { name: /^Subject/ }).fill('Password of <%= USER.name %>');
    await reset.getByRole('button', { name: 'Save reset e-mail' }).click();
    await reset.getByText('Unknown variable <%= USER.name %> (known: USER.username, USER.email)').waitFor();
    await assertAccessible(page, 'template refused');

    await reset.getByRole('textbox', { name: /^Subject/ }).fill('Reset your password, <%= USER.username %>');
    await reset.getByLabel('Sender name').fill('Shop support');
    await reset.getByRole('button', { name: 'Save reset e-mail' }).click();
    await toast(page, 'Reset password template saved');
    const stored = (await as(t, owner).get(`/v1/projects/${project.slug}/settings/email-templates`)).json().emailTemplates.resetPassword;
    assert.deepEqual([stored.subject, stored.fromName, stored.replyTo], ['Reset your password, <%= USER.username %>', 'Shop support', null]);
    // Still there after a reload.
    await page.reload();
    assert.equal(await page.getByRole('form', { name: 'Reset password template' }).getByRole('textbox', { name: /^Subject/ }).inputValue(), 'Reset your password, <%= USER.username %>');

    assert.equal((await call('POST', '/api/auth/forgot-password', null, { email: 'alice@example.com' })).status, 200);
    const mail = await smtp.next('alice@example.com');
    assert.equal(mail.subject, 'Reset your password, alice');
    assert.match(mail.raw, /^From: Shop support <auth@platform\.test>\r$/m);
    assert.match(mail.text, /https:\/\/shop\.example\.com\/reset\?code=[0-9a-f]{64}/);
  });

  it('a viewer sees the users, settings and templates read-only', async () => {
    await addMember(t, project.id, await signup(t, 'viewer@users.test'), 'viewer');
    const { context: other, page: viewerPage, consoleErrors: viewerErrors } = await openPage(browser);
    await logIn(viewerPage, origin, 'viewer@users.test');
    await viewerPage.goto(`${origin}/projects/${project.slug}/end-users`);
    await rowOf(viewerPage, 'alice').waitFor();
    assert.deepEqual(await cells(rowOf(viewerPage, 'alice')), ['alice', 'alice@example.com', 'Editor', 'Yes', 'No', shown(alice.createdAt)]);
    // A viewer's key may count too: the exact total.
    assert.equal(await viewerPage.getByTestId('users-total').textContent(), '1–2 of 2 users');
    assert.equal(await viewerPage.getByRole('button', { name: 'Create user' }).count(), 0);
    assert.equal(await viewerPage.getByRole('button', { name: /^(Block|Unblock|Delete) / }).count(), 0);
    await assertAccessible(viewerPage, 'end users (viewer)');
    await viewerPage.getByRole('tab', { name: 'Settings' }).click();
    await viewerPage.getByRole('button', { name: 'Save end-user settings' }).waitFor();
    assert.equal(await viewerPage.getByRole('button', { name: 'Save end-user settings' }).isDisabled(), true);
    assert.equal(await viewerPage.getByRole('switch', { name: 'Allow registration' }).isDisabled(), true);
    await assertAccessible(viewerPage, 'end-user settings (viewer)');
    await viewerPage.getByRole('tab', { name: 'E-mail templates' }).click();
    await viewerPage.getByTestId('mail-transport').waitFor();
    assert.equal(await viewerPage.getByRole('button', { name: 'Save reset e-mail' }).isDisabled(), true);
    await assertAccessible(viewerPage, 'e-mail templates (viewer)');
    assert.deepEqual(viewerErrors(), []);
    await other.close();
  });

  it('pages through the users with the exact total', async () => {
    for (let i = 1; i <= 11; i++) {
      const created = await call('POST', '/api/users', apiKey, { username: `user${String(i).padStart(2, '0')}`, email: `user${i}@example.net`, password: 'secret123' });
      assert.equal(created.status, 201);
    }
    await page.getByRole('tab', { name: 'Users' }).click();
    await page.waitForURL(`${origin}/projects/${project.slug}/end-users`);
    await table(page).getByRole('button', { name: /^Username/ }).click();
    await page.waitForURL(/\?sort=username%3Aasc$/);
    // The sorted list shown first: the select is not re-rendered under the click.
    const sorted = ['alice', ...Array.from({ length: 11 }, (_, i) => `user${String(i + 1).padStart(2, '0')}`), 'zed'];
    assert.deepEqual(await listed(page, sorted), sorted);
    await chooseOption(page, page.getByRole('combobox', { name: 'Users per page' }), '10');
    await page.waitForURL(/\?sort=username%3Aasc&pageSize=10$/);
    const first = ['alice', ...Array.from({ length: 9 }, (_, i) => `user0${i + 1}`)];
    assert.deepEqual(await listed(page, first), first);
    assert.equal(await page.getByTestId('users-total').textContent(), '1–10 of 13 users');
    await page.getByRole('button', { name: 'Page 2' }).click();
    assert.deepEqual(await listed(page, ['user10', 'user11', 'zed']), ['user10', 'user11', 'zed']);
    assert.equal(await page.getByTestId('users-total').textContent(), '11–13 of 13 users');
    // The search's total, with the same filters.
    await page.getByLabel('Search').fill('example.net');
    const matching = [...first.slice(1), 'user10'];
    assert.deepEqual(await listed(page, matching), matching);
    assert.equal(await page.getByTestId('users-total').textContent(), '1–10 of 11 users');
    await assertAccessible(page, 'second page');
  });

  it('without SMTP_URL the page says e-mails only go to the log', async () => {
    const logOnly = await startTestApp({ share: t, env: { SMTP_URL: '' } });
    try {
      const logOrigin = await listen(logOnly);
      const { context: other, page: p } = await openPage(browser);
      await logIn(p, logOrigin, 'owner@users.test');
      await p.goto(`${logOrigin}/projects/${project.slug}/end-users?tab=emails`);
      await p.getByTestId('mail-transport').waitFor();
      assert.equal(await p.getByTestId('mail-transport').textContent(), 'No SMTP server configured: e-mails are written to the platform\'s log');
      await assertAccessible(p, 'e-mail templates (log only)');
      await other.close();
    } finally {
      await logOnly.close();
    }
  });

  it('logged no error but the refusals provoked on purpose', () => {
    const failed = (status: string, path: string) => `console: Failed to load resource: the server responded with a status of ${status} ${origin}${path}`;
    assert.deepEqual(consoleErrors(), [
      failed('400 (Bad Request)', `/p/${project.slug}/api/users`),
      failed('400 (Bad Request)', `/v1/projects/${project.slug}/settings/users-permissions`),
      failed('400 (Bad Request)', `/v1/projects/${project.slug}/settings/email-templates`),
    ]);
  });
});
