// Two-factor sign-in in a real Chromium (docs/two-factor.md): turning it on from the Account page
// (the QR code drawn in the page, the secret as text, a code computed from that secret, the ten
// recovery codes once), signing out and in again with a code (a wrong one refused in place) and with
// a recovery code, the project rule switch on Settings, and the page a member without two-factor
// sees instead of the project. Every page passes axe-core; nothing but the refusals provoked on
// purpose is logged.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { listen, logIn, openPage } from '../helpers/browser-session.ts';
import { assertAccessible } from '../helpers/dashboard.ts';
import { addMember, createProject, PASSWORD, signup, type Session } from '../helpers/management.ts';
import { nextCode, wrongCode } from '../helpers/two-factor.ts';

describe('dashboard two-factor sign-in in a browser', () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let member: Page;
  let ownerErrors: () => string[];
  let memberErrors: () => string[];
  let owner: Session;
  let memberSession: Session;
  let project: { id: number; slug: string };
  let secret = '';
  let recoveryCodes: string[] = [];

  before(async () => {
    t = await startTestApp({ env: { AUTH_LOCKOUT_THRESHOLD: '100' } });
    origin = await listen(t);
    browser = await launchBrowser();
    ({ page, consoleErrors: ownerErrors } = await openPage(browser));
    ({ page: member, consoleErrors: memberErrors } = await openPage(browser));
    owner = await signup(t, 'tess@mail.test');
    memberSession = await signup(t, 'milo@mail.test');
    project = await createProject(t, owner, { name: 'Guarded', slug: 'guarded' });
    await addMember(t, project.id, memberSession, 'editor');
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const section = (p: Page) => p.getByRole('heading', { name: 'Two-factor authentication', level: 2 }).locator('xpath=ancestor::div[contains(@class, "mantine-Card-root")][1]');
  async function logOut(p: Page) {
    await p.getByRole('button', { name: /^Account menu/ }).click();
    await p.getByRole('menuitem', { name: 'Log out' }).click();
    await p.waitForURL(/\/(login)?$/);
  }

  it('turns two-factor on from the Account page: QR code drawn locally, the secret, a code, then the recovery codes once', async () => {
    await logIn(page, origin, owner.account.email);
    await page.goto(`${origin}/account`);
    const card = section(page);
    await card.getByText('Off', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    const qr = card.getByRole('img', { name: 'QR code to scan with your authenticator app' });
    await qr.waitFor();
    assert.match(String(await qr.getAttribute('src')), /^data:image\/png;base64,/);
    const shown = await card.locator('code').textContent();
    secret = shown!.replace(/\s+/g, '');
    assert.match(secret, /^[A-Z2-7]{32}$/);
    await assertAccessible(page, 'two-factor setup');

    const codeField = card.getByLabel('2. Enter the 6-digit code the app shows');
    await codeField.fill(await wrongCode(secret));
    await card.getByRole('button', { name: 'Confirm and turn on' }).click();
    await card.getByText('The code is not correct').waitFor();
    await codeField.fill(await nextCode(secret));
    await card.getByRole('button', { name: 'Confirm and turn on' }).click();
    const list = card.getByRole('list', { name: 'Recovery codes' });
    await list.waitFor();
    recoveryCodes = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
    assert.equal(recoveryCodes.length, 10);
    for (const code of recoveryCodes) assert.match(code, /^[a-z2-9]{5}-[a-z2-9]{5}$/);
    await card.getByRole('button', { name: 'Download codes' }).waitFor();
    await card.getByRole('button', { name: 'Copy codes' }).waitFor();
    await assertAccessible(page, 'recovery codes');
    await card.getByRole('button', { name: 'I have saved my codes' }).click();
    await card.getByText('On', { exact: true }).waitFor();
    assert.equal(await list.count(), 0);
    await card.getByText('Recovery codes left: 10').waitFor();
    // The secret is not on the page any more, nor given again by the API.
    assert.ok(!(await page.content()).includes(secret));
  });

  it('signs out and in again: the password, then a code (a wrong one refused in place)', async () => {
    await logOut(page);
    await page.goto(`${origin}/login`);
    await page.getByLabel('E-mail').fill(owner.account.email);
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Two-factor authentication', level: 1 }).waitFor();
    await assertAccessible(page, 'login code step');
    const field = page.getByRole('textbox', { name: 'Authentication code' });
    await field.fill(await wrongCode(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('The code is not correct or was already used').waitFor();
    await assertAccessible(page, 'login code refused');
    await field.fill(await nextCode(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`${origin}/projects`);
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
  });

  it('signs in with a recovery code, which is then spent', async () => {
    await logOut(page);
    await page.goto(`${origin}/login`);
    await page.getByLabel('E-mail').fill(owner.account.email);
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByRole('textbox', { name: 'Recovery code' }).fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`${origin}/projects`);
    await page.goto(`${origin}/account`);
    await section(page).getByText('Recovery codes left: 9').waitFor();
  });

  it('the owner requires two-factor of members from Settings; a member without it sees why, with a link to the Account page', async () => {
    await page.goto(`${origin}/projects/${project.slug}/settings`);
    const rule = page.getByRole('switch', { name: 'Require two-factor for members' });
    await rule.waitFor();
    assert.equal(await rule.isChecked(), false);
    await rule.click({ force: true });
    await page.getByText('Members must now use two-factor authentication').waitFor();
    assert.equal(await rule.isChecked(), true);
    await assertAccessible(page, 'settings with the rule');

    await logIn(member, origin, memberSession.account.email);
    await member.goto(`${origin}/projects/${project.slug}`);
    const notice = member.getByRole('alert').filter({ hasText: 'This project requires two-factor authentication' });
    await notice.waitFor();
    await assertAccessible(member, 'blocked project');
    await notice.getByRole('link', { name: 'Set up two-factor authentication' }).click();
    await member.waitForURL(`${origin}/account`);
    // Turning it on opens the project.
    const card = section(member);
    await card.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    const memberSecret = (await card.locator('code').textContent())!.replace(/\s+/g, '');
    await card.getByLabel('2. Enter the 6-digit code the app shows').fill(await nextCode(memberSecret));
    await card.getByRole('button', { name: 'Confirm and turn on' }).click();
    await card.getByRole('button', { name: 'I have saved my codes' }).click();
    await member.goto(`${origin}/projects/${project.slug}`);
    await member.getByRole('heading', { name: 'Guarded', level: 1 }).waitFor();
  });

  it('logged no error on any page but the refusals provoked on purpose', () => {
    const failed = (status: string, path: string) => `console: Failed to load resource: the server responded with a status of ${status} ${origin}${path}`;
    assert.deepEqual(ownerErrors(), [
      failed('400 (Bad Request)', '/v1/auth/2fa/enable'),
      failed('401 (Unauthorized)', '/v1/auth/login'),
      failed('401 (Unauthorized)', '/v1/auth/login'),
      failed('401 (Unauthorized)', '/v1/auth/login'),
    ]);
    assert.deepEqual(memberErrors(), [failed('403 (Forbidden)', `/v1/projects/${project.slug}`)]);
  });
});
