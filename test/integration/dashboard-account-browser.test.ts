// The dashboard's account and team journeys in a real Chromium, with the platform's e-mails caught
// by a real SMTP server: signing up and verifying the address from the mailed link, a forgotten
// password reset from the login page, inviting a second account to a project from the Team page
// (it accepts while signed out, logs in and lands on the project), roles seen in the UI, removing
// it, and deleting an account. Every page passes axe-core (no serious or critical violation) and
// logs nothing but the refusals provoked on purpose; no account sees another's projects.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { listen, openPage } from '../helpers/browser-session.ts';
import { assertAccessible } from '../helpers/dashboard.ts';
import { PASSWORD } from '../helpers/management.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

const OWNER = 'olive@mail.test';
const OWNER_NAME = 'Olive Owner';
const NEW_PASSWORD = 'a brand new password';
const INVITEE = 'ivan@mail.test';
const INVITEE_PASSWORD = 'ivan password';
const LAST_OWNER = 'A project must keep at least one owner: make another member an owner first';

describe('dashboard account and team journeys in a browser', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let invitee: Page;
  let ownerErrors: () => string[];
  let ownerId: number;
  let inviteeErrors: () => string[];

  before(async () => {
    smtp = await startSmtp();
    t = await startTestApp({ env: { SMTP_URL: smtp.url, EMAIL_FROM: 'accounts@platform.test' } });
    origin = await listen(t);
    browser = await launchBrowser();
    ({ page, consoleErrors: ownerErrors } = await openPage(browser));
    ({ page: invitee, consoleErrors: inviteeErrors } = await openPage(browser));
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.close();
  });

  /** The link of the next mail to `to` with that subject: on this origin (the request's), to `page`. */
  async function mailedLink(to: string, subject: string, path: string): Promise<string> {
    const mail = await smtp.next(to, 10_000, subject);
    assert.equal(mail.from, 'accounts@platform.test');
    const link = new RegExp(`${origin.replace(/[.]/g, '\\.')}/${path}\\?token=cms_[ai]_[A-Za-z0-9_-]{43}`).exec(mail.text);
    assert.ok(link, mail.text);
    return link[0];
  }
  /** Once the mails the platform was sending have arrived. */
  async function settled() {
    await t.platform.background.drain();
    await new Promise((r) => setTimeout(r, 300));
  }
  /** A Bearer session through the real HTTP front door (mails then link to this origin). */
  async function apiLogin(email: string, password: string): Promise<Response> {
    return fetch(`${origin}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  }
  const banner = (p: Page) => p.getByRole('region', { name: 'Verify your e-mail address' });
  const nav = (p: Page) => p.getByRole('navigation', { name: 'Project' });
  const projectCards = async (p: Page) => {
    await p.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    await p.getByRole('link', { name: /^Open project / }).first().waitFor();
    return (await p.getByRole('link', { name: /^Open project / }).evaluateAll((links) => links.map((l) => l.getAttribute('aria-label')))).sort();
  };
  const cells = (row: ReturnType<Page['getByRole']>) => row.getByRole('cell').evaluateAll((tds) => tds.map((td) => td.textContent!.trim()));
  async function logIn(p: Page, email: string, password: string) {
    await p.getByLabel('E-mail').fill(email);
    await p.getByRole('textbox', { name: 'Password' }).fill(password);
    await p.getByRole('button', { name: 'Log in' }).click();
  }

  it('signs up; the banner asks to verify the address and sends a new link once a minute; the mailed link verifies it', async () => {
    await page.goto(`${origin}/signup`);
    await page.getByLabel('Name').fill(OWNER_NAME);
    await page.getByLabel('E-mail').fill(OWNER);
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(`${origin}/projects`);
    await banner(page).waitFor();
    assert.equal((await banner(page).textContent())!.trim(), `Verify your e-mail address: open the link we sent to ${OWNER}.Send the link again`);
    await assertAccessible(page, 'projects with the verification banner');
    const first = await mailedLink(OWNER, 'Verify your e-mail', 'verify-email');

    await banner(page).getByRole('button', { name: 'Send the link again' }).click();
    await banner(page).getByRole('status').filter({ hasText: `We sent a new link to ${OWNER}.` }).waitFor();
    const second = await mailedLink(OWNER, 'Verify your e-mail', 'verify-email');
    assert.notEqual(second, first);
    await banner(page).getByRole('button', { name: 'Send the link again' }).click();
    await banner(page).getByRole('status').filter({ hasText: 'Too many requests, please try again later.' }).waitFor();
    await assertAccessible(page, 'verification banner after 429');
    await settled();
    assert.equal(smtp.mails.filter((m) => m.to.includes(OWNER)).length, 2);

    // Signed in: the page verifies once and the account (and its banner) follows.
    await page.goto(second);
    await page.getByRole('heading', { name: 'E-mail verification', level: 1 }).waitFor();
    const done = page.getByRole('status').filter({ hasText: 'Your e-mail address is verified' });
    await done.waitFor();
    assert.equal((await done.textContent())!.trim(), `Your e-mail address is verifiedThank you: ${OWNER} is confirmed.`);
    await assertAccessible(page, 'e-mail verified');
    await page.getByRole('link', { name: 'Go to your projects' }).click();
    await page.waitForURL(`${origin}/projects`);
    await page.getByRole('heading', { name: 'No projects yet' }).waitFor();
    assert.equal(await banner(page).count(), 0);

    // Using the newer link spent the older one.
    await page.goto(first);
    const refused = page.getByRole('alert').filter({ hasText: 'The address could not be verified' });
    await refused.waitFor();
    assert.equal((await refused.textContent())!.trim(), 'The address could not be verifiedThis link is invalid or has expired');
    await assertAccessible(page, 'verification link refused');
    await page.getByRole('link', { name: 'Go to your projects' }).click();
    await page.getByRole('button', { name: /^Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Account and sessions' }).click();
    await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
    assert.equal((await page.getByText('Signed in as').textContent())!.trim(), `Signed in as ${OWNER}Verified`);
    assert.equal(await banner(page).count(), 0);
  });

  it('a forgotten password: the login page links to a form whose answer never tells; the mailed link sets a new password once', async () => {
    await page.getByRole('button', { name: /^Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL(`${origin}/login`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL(`${origin}/forgot-password`);
    await page.getByRole('heading', { name: 'Forgot your password?', level: 1 }).waitFor();
    await assertAccessible(page, 'forgot password');
    await page.getByLabel('E-mail').fill('not an address');
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText('Enter a valid e-mail address').waitFor();
    await page.getByLabel('E-mail').fill(OWNER);
    await page.getByRole('button', { name: 'Send the link' }).click();
    const sent = page.getByRole('status').filter({ hasText: 'Check your inbox' });
    await sent.waitFor();
    assert.equal((await sent.textContent())!.trim(), `Check your inboxIf an account exists for ${OWNER}, we sent a link to choose a new password. It works once, within an hour.`);
    await assertAccessible(page, 'forgot password sent');
    const link = await mailedLink(OWNER, 'Reset your password', 'reset-password');

    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password', level: 1 }).waitFor();
    assert.equal(await page.getByText('At least 8 characters').isVisible(), true);
    await assertAccessible(page, 'reset password');
    await page.getByRole('textbox', { name: 'New password' }).fill('short');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('Use at least 8 characters').waitFor();
    await page.getByRole('textbox', { name: 'New password' }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set the new password' }).click();
    const changed = page.getByRole('status').filter({ hasText: 'Your password was changed' });
    await changed.waitFor();
    assert.equal((await changed.textContent())!.trim(), 'Your password was changedEvery session of your account was logged out. Log in with your new password.');
    await assertAccessible(page, 'password changed');

    // The same link a second time: the API's message and a way to ask for a new one.
    await page.goto(link);
    await page.getByRole('textbox', { name: 'New password' }).fill('yet another password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    const refused = page.getByRole('alert').filter({ hasText: 'This link cannot be used' });
    await refused.waitFor();
    assert.equal((await refused.textContent())!.trim(), 'This link cannot be usedThis link is invalid or has expired');
    await assertAccessible(page, 'reset link refused');
    await page.getByRole('link', { name: 'Ask for a new link' }).click();
    await page.waitForURL(`${origin}/forgot-password`);

    // An unknown address gets the very same answer, and no mail goes anywhere.
    await page.getByLabel('E-mail').fill('nobody@mail.test');
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByRole('status').filter({ hasText: 'Check your inbox' }).waitFor();
    assert.equal((await page.getByRole('status').filter({ hasText: 'Check your inbox' }).textContent())!.trim(),
      'Check your inboxIf an account exists for nobody@mail.test, we sent a link to choose a new password. It works once, within an hour.');
    await settled();
    assert.deepEqual(smtp.mails.filter((m) => m.to.includes('nobody@mail.test')), []);
    assert.equal(smtp.mails.filter((m) => m.to.includes(OWNER) && m.subject === 'Reset your password').length, 1);

    await page.getByRole('link', { name: 'Back to log in' }).click();
    await page.waitForURL(`${origin}/login`);
    await logIn(page, OWNER, PASSWORD);
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await logIn(page, OWNER, NEW_PASSWORD);
    await page.waitForURL(`${origin}/projects`);
    await page.getByRole('heading', { name: 'No projects yet' }).waitFor();
  });

  it('the account page shows each session\'s device and IP, marks this one, and ends another', async () => {
    const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0';
    const other = await fetch(`${origin}/v1/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': firefox }, body: JSON.stringify({ email: OWNER, password: NEW_PASSWORD }),
    });
    const otherToken = ((await other.json()) as { token: string }).token;
    await page.getByRole('button', { name: /^Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Account and sessions' }).click();
    const table = page.getByRole('table', { name: 'Active sessions' });
    const firefoxRow = table.getByRole('row').filter({ hasText: 'Firefox 121 on Windows' });
    await firefoxRow.waitFor();
    const current = table.getByRole('row').filter({ hasText: 'This session' });
    const [device, ip] = await cells(current);
    assert.match(device!, /^Chrome \d+ on Linux This session$/);
    assert.equal(ip, '127.0.0.1');
    assert.equal(await current.getByRole('button', { name: 'End session' }).count(), 0);
    assert.deepEqual((await cells(firefoxRow)).filter((_c, i) => i !== 2 && i !== 3), ['Firefox 121 on Windows', '127.0.0.1', 'End session']);
    assert.equal(await firefoxRow.getByRole('cell').first().getAttribute('title'), firefox);
    await assertAccessible(page, 'account sessions with device and IP');
    await firefoxRow.getByRole('button', { name: 'End session' }).click();
    await firefoxRow.waitFor({ state: 'detached' });
    assert.equal((await fetch(`${origin}/v1/auth/me`, { headers: { authorization: `Bearer ${otherToken}` } })).status, 401);
    await current.waitFor();
    await assertAccessible(page, 'account sessions after ending one');
    // The account's own audit log, newest first: the session just ended, the sign-ins (the
    // refused one with the old password included), the reset, the sign-up.
    const activity = page.getByRole('table', { name: 'Security activity' });
    await activity.getByRole('row').filter({ hasText: 'account.session.revoke' }).waitFor();
    const actions = await activity.locator('tbody tr td:nth-child(2)').evaluateAll((tds) => tds.map((td) => td.textContent!.trim()));
    assert.deepEqual(actions, [
      'account.session.revoke', 'account.session.new-device', 'admin.auth.success', 'admin.auth.success', 'admin.auth.failure',
      'account.password.reset', 'admin.logout', 'account.email.verify', 'account.create',
    ]);
    await assertAccessible(page, 'account security activity');
    await page.goto(`${origin}/projects`);
    await page.getByRole('heading', { name: 'No projects yet' }).waitFor();
  });

  let inviteeToken: string;

  it('a second account signs up and verifies its address from the link while signed out', async () => {
    const res = await fetch(`${origin}/v1/auth/signup`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: INVITEE, password: INVITEE_PASSWORD, name: 'Ivan Invitee' }),
    });
    assert.equal(res.status, 201);
    inviteeToken = ((await res.json()) as { token: string }).token;
    const own = await fetch(`${origin}/v1/projects`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${inviteeToken}` }, body: JSON.stringify({ name: 'Ivan Private' }),
    });
    assert.equal(own.status, 201);
    await invitee.goto(await mailedLink(INVITEE, 'Verify your e-mail', 'verify-email'));
    const done = invitee.getByRole('status').filter({ hasText: 'Your e-mail address is verified' });
    await done.waitFor();
    assert.equal((await done.textContent())!.trim(), `Your e-mail address is verifiedThank you: ${INVITEE} is confirmed.`);
    assert.equal(await invitee.getByRole('link', { name: 'Log in' }).getAttribute('href'), '/login');
    await assertAccessible(invitee, 'e-mail verified (signed out)');
  });

  it('the owner invites the second account as editor from the Team page', async () => {
    await page.getByRole('button', { name: 'Create project' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create project' });
    await dialog.getByLabel('Project name').fill('Team Blog');
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(`${origin}/projects/team-blog`);
    await nav(page).getByRole('link', { name: 'Team' }).click();
    await page.waitForURL(`${origin}/projects/team-blog/team`);
    await page.getByRole('heading', { name: 'Team', level: 2 }).waitFor();
    assert.deepEqual(await page.getByRole('list', { name: 'Roles' }).getByRole('listitem').allTextContents(), [
      'Owner: everything, including the team, billing and deleting the project.',
      'Editor: changes the content types, locales, roles and permissions, API tokens and settings.',
      'Viewer: sees everything, changes nothing.',
    ]);
    const members = page.getByRole('table', { name: 'Members' });
    const today = new Date().toLocaleDateString('en-US', { timeZone: 'UTC' });
    assert.deepEqual(await cells(members.getByRole('row').nth(1)), [`${OWNER} You`, OWNER_NAME, '', today, 'Leave project']);
    assert.equal(await page.getByRole('combobox', { name: `Role of ${OWNER}` }).inputValue(), 'Owner');
    await page.getByText('No pending invitations.').waitFor();
    await assertAccessible(page, 'team (owner alone)');

    // The API's refusal is shown next to the field.
    const invite = page.getByRole('form', { name: 'Invite someone' });
    await invite.getByLabel('E-mail address').fill(OWNER);
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await invite.getByText('This e-mail address already belongs to a member of the project').waitFor();
    await assertAccessible(page, 'invite refused');

    // An invitation withdrawn before use.
    await invite.getByLabel('E-mail address').fill('temp@mail.test');
    await invite.getByRole('combobox', { name: 'Role', exact: true }).click();
    await page.getByRole('option', { name: 'Viewer', exact: true }).click();
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    const pending = page.getByRole('table', { name: 'Pending invitations' });
    await pending.getByRole('cell', { name: 'temp@mail.test', exact: true }).waitFor();
    const withdrawn = await mailedLink('temp@mail.test', 'You are invited to Team Blog', 'invitations/accept');
    await page.getByRole('button', { name: 'Revoke invitation of temp@mail.test' }).click();
    await page.getByText('No pending invitations.').waitFor();

    await invite.getByLabel('E-mail address').fill(INVITEE);
    await invite.getByRole('combobox', { name: 'Role', exact: true }).click();
    await page.getByRole('option', { name: 'Editor', exact: true }).click();
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText(`${INVITEE} was invited as editor.`).waitFor();
    const row = pending.getByRole('row', { name: new RegExp(INVITEE) });
    await row.waitFor();
    const bearer = ((await (await apiLogin(OWNER, NEW_PASSWORD)).json()) as { token: string }).token;
    const team = (await (await fetch(`${origin}/v1/projects/team-blog/members`, { headers: { authorization: `Bearer ${bearer}` } })).json()) as { invitations: Array<{ email: string; expiresAt: string }> };
    assert.deepEqual(team.invitations.map((i) => i.email), [INVITEE]);
    const expiresAt = team.invitations[0]!.expiresAt;
    assert.ok(Math.abs(Date.parse(expiresAt) - (Date.now() + 7 * 24 * 3600_000)) < 120_000, expiresAt);
    assert.deepEqual(await cells(row), [INVITEE, 'Editor', new Date(expiresAt).toLocaleString('en-US', { timeZone: 'UTC' }), 'Revoke']);
    await assertAccessible(page, 'team with a pending invitation');
    assert.equal(await invite.getByLabel('E-mail address').inputValue(), '');

    const link = await mailedLink(INVITEE, 'You are invited to Team Blog', 'invitations/accept');

    // Signed out, the link sends the invitee to log in first, and back to it afterwards.
    await invitee.goto(link);
    await invitee.waitForURL(`${origin}/login`);
    const hint = invitee.getByRole('note', { name: 'Invitation' });
    assert.equal((await hint.textContent())!.trim(), 'Log in or sign up to accept your invitation: you come back to it afterwards.');
    await assertAccessible(invitee, 'login for an invitation');
    // Via the sign-up page and back: the way back to the invitation is kept.
    await invitee.getByRole('link', { name: 'Sign up' }).click();
    await invitee.waitForURL(`${origin}/signup`);
    await hint.waitFor();
    await invitee.getByRole('link', { name: 'Log in' }).click();
    await invitee.waitForURL(`${origin}/login`);
    await logIn(invitee, INVITEE, INVITEE_PASSWORD);
    await invitee.waitForURL(`${origin}/projects/team-blog`);
    await invitee.getByRole('heading', { name: 'Team Blog', level: 1 }).waitFor();
    await invitee.getByText('You joined Team Blog').waitFor();
    assert.equal(await invitee.getByRole('note', { name: 'Your access' }).count(), 0);
    await assertAccessible(invitee, 'joined project');

    // The same link again, and a withdrawn one: the API's message.
    for (const used of [link, withdrawn]) {
      await invitee.goto(used);
      const refused = invitee.getByRole('alert').filter({ hasText: 'The invitation could not be accepted' });
      await refused.waitFor();
      assert.equal((await refused.textContent())!.trim(), 'The invitation could not be acceptedThis invitation is invalid or has expired');
    }
    await assertAccessible(invitee, 'invitation refused');
    await invitee.getByRole('link', { name: 'Go to your projects' }).click();
    assert.deepEqual(await projectCards(invitee), ['Open project Ivan Private', 'Open project Team Blog']);
  });

  it('the editor sees the team but no owner controls, and is told why', async () => {
    await invitee.goto(`${origin}/projects/team-blog/team`);
    const members = invitee.getByRole('table', { name: 'Members' });
    await members.waitFor();
    assert.equal((await invitee.getByRole('note').filter({ hasText: 'Only owners' }).textContent())!.trim(),
      'Only owners can invite people, change roles or remove members; your role is editor.');
    const today = new Date().toLocaleDateString('en-US', { timeZone: 'UTC' });
    assert.deepEqual(await cells(members.getByRole('row').nth(1)), [OWNER, OWNER_NAME, 'Owner', today, '']);
    assert.deepEqual(await cells(members.getByRole('row').nth(2)), [`${INVITEE} You`, 'Ivan Invitee', 'Editor', today, 'Leave project']);
    assert.equal(await invitee.getByRole('form', { name: 'Invite someone' }).count(), 0);
    assert.equal(await invitee.getByRole('combobox').count() + await invitee.getByRole('textbox').count(), 0);
    assert.equal(await invitee.getByRole('button', { name: /^Remove/ }).count(), 0);
    await assertAccessible(invitee, 'team (editor)');
    // An editor may change the settings but not delete the project.
    await nav(invitee).getByRole('link', { name: 'Settings' }).click();
    await invitee.getByRole('heading', { name: 'Browser access (CORS)' }).waitFor();
    assert.equal(await invitee.getByRole('button', { name: 'Rename' }).isEnabled(), true);
    assert.equal(await invitee.getByRole('button', { name: 'Delete project' }).count(), 0);
  });

  it('the owner makes the editor a viewer: view-only note, forms off, no delete zone', async () => {
    await page.reload();
    const members = page.getByRole('table', { name: 'Members' });
    await members.getByRole('cell', { name: INVITEE, exact: true }).waitFor();
    assert.equal(await page.getByRole('combobox', { name: `Role of ${INVITEE}` }).inputValue(), 'Editor');
    await page.getByRole('combobox', { name: `Role of ${INVITEE}` }).click();
    await page.getByRole('option', { name: 'Viewer', exact: true }).click();
    await page.getByText(`${INVITEE} is now viewer`).waitFor();
    assert.equal(await page.getByRole('combobox', { name: `Role of ${INVITEE}` }).inputValue(), 'Viewer');
    await assertAccessible(page, 'team with two members');

    await invitee.goto(`${origin}/projects/team-blog/settings`);
    await invitee.getByRole('heading', { name: 'Browser access (CORS)' }).waitFor();
    const note = invitee.getByRole('note', { name: 'Your access' });
    assert.equal((await note.textContent())!.trim(), 'You have view-only access to this project. An owner can make you an editor if you need to change something.');
    assert.equal(await invitee.getByRole('button', { name: 'Delete project' }).count(), 0);
    assert.equal(await invitee.getByRole('heading', { name: 'Delete project' }).count(), 0);
    for (const button of ['Rename', 'Save GraphQL settings', 'Save browser access']) assert.equal(await invitee.getByRole('button', { name: button }).isDisabled(), true, button);
    assert.equal(await invitee.getByLabel('Name', { exact: true }).isDisabled(), true);
    assert.equal(await invitee.getByLabel('Allowed origins').isDisabled(), true);
    await assertAccessible(invitee, 'settings (viewer)');

    await nav(invitee).getByRole('link', { name: 'Locales' }).click();
    await invitee.getByRole('table', { name: 'Locales' }).waitFor();
    await note.waitFor();
    assert.equal(await invitee.getByRole('button', { name: 'Add locale' }).isDisabled(), true);
    await assertAccessible(invitee, 'locales (viewer)');
    await nav(invitee).getByRole('link', { name: 'API tokens' }).click();
    await invitee.getByText('No tokens yet').waitFor();
    assert.equal(await invitee.getByRole('button', { name: 'Create API token' }).isDisabled(), true);
    await nav(invitee).getByRole('link', { name: 'Roles & permissions' }).click();
    await invitee.getByRole('table', { name: 'Permissions of Public' }).waitFor();
    assert.equal(await invitee.getByRole('button', { name: 'Save permissions' }).isDisabled(), true);
    assert.equal(await invitee.getByRole('button', { name: 'Add role' }).isDisabled(), true);
    await assertAccessible(invitee, 'roles (viewer)');
  });

  it('the only owner cannot leave: the refusal is shown in the dialog and nothing changes', async () => {
    await page.goto(`${origin}/projects/team-blog/team`);
    const members = page.getByRole('table', { name: 'Members' });
    await members.getByRole('cell', { name: INVITEE, exact: true }).waitFor();
    await members.getByRole('button', { name: 'Leave project' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave project' });
    assert.equal((await dialog.getByText('You lose access').textContent())!.trim(), 'You lose access to “Team Blog” at once; an owner can invite you again.');
    const refused = page.waitForResponse((r) => r.request().method() === 'DELETE' && r.url().includes('/v1/projects/team-blog/members/'));
    await dialog.getByRole('button', { name: 'Leave project' }).click();
    const answer = await refused;
    assert.equal(answer.status(), 400);
    ownerId = Number(new URL(answer.url()).pathname.split('/').pop());
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    assert.equal((await alert.textContent())!.trim(), LAST_OWNER);
    await assertAccessible(page, 'leave refused');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(page.url(), `${origin}/projects/team-blog/team`);
    assert.equal(await members.getByRole('row').count(), 3);
  });

  it('the owner removes the member, who then sees only its own project; the owner never saw it', async () => {
    assert.deepEqual(await (async () => {
      await page.goto(`${origin}/projects`);
      return projectCards(page);
    })(), ['Open project Team Blog']);
    await page.goto(`${origin}/projects/team-blog/team`);
    await page.getByRole('button', { name: `Remove ${INVITEE}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove member' });
    assert.equal((await dialog.getByText('loses access').textContent())!.trim(), `${INVITEE} loses access to “Team Blog” at once.`);
    await assertAccessible(page, 'remove member');
    await dialog.getByRole('button', { name: 'Remove member' }).click();
    await page.getByText(`${INVITEE} was removed`).waitFor();
    await page.getByRole('table', { name: 'Members' }).getByRole('cell', { name: INVITEE, exact: true }).waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('table', { name: 'Members' }).getByRole('row').count(), 2);

    await invitee.goto(`${origin}/projects`);
    assert.deepEqual(await projectCards(invitee), ['Open project Ivan Private']);
    await invitee.goto(`${origin}/projects/team-blog`);
    await invitee.getByRole('alert').filter({ hasText: 'Not Found' }).waitFor();
    const list = await fetch(`${origin}/v1/projects`, { headers: { authorization: `Bearer ${inviteeToken}` } });
    assert.deepEqual(((await list.json()) as { projects: Array<{ slug: string }> }).projects.map((p) => p.slug), ['ivan-private']);
  });

  it('deletes the account after the password and the typed e-mail address: logged out, and it cannot log in again', async () => {
    await page.getByRole('button', { name: /^Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Account and sessions' }).click();
    const zone = page.getByRole('form', { name: 'Delete account' });
    await zone.waitFor();
    assert.equal(
      (await page.getByText('Projects where you are the only owner').textContent())!.trim().replace(/\s+/g, ' '),
      'Deletes your account and logs it out everywhere. Projects where you are the only owner are deleted with all their content, media, API tokens and end users; projects with another owner stay with them. This cannot be undone.',
    );
    await assertAccessible(page, 'account with the delete zone');
    // A wrong password: the API's message next to the field, nothing deleted.
    await zone.getByLabel('Your password').fill('not my password');
    await zone.getByRole('button', { name: 'Delete account' }).click();
    let dialog = page.getByRole('dialog', { name: 'Delete account' });
    await dialog.getByLabel(`Type "${OWNER}" to confirm`).fill(OWNER);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await zone.getByText('The password is not correct').waitFor();
    await dialog.waitFor({ state: 'detached' });
    assert.equal((await apiLogin(OWNER, NEW_PASSWORD)).status, 200);

    await zone.getByLabel('Your password').fill(NEW_PASSWORD);
    await zone.getByRole('button', { name: 'Delete account' }).click();
    dialog = page.getByRole('dialog', { name: 'Delete account' });
    const confirm = dialog.getByRole('button', { name: 'Delete my account' });
    assert.equal(await confirm.isDisabled(), true);
    await dialog.getByLabel(`Type "${OWNER}" to confirm`).fill('olive');
    assert.equal(await confirm.isDisabled(), true);
    await assertAccessible(page, 'delete account dialog');
    await dialog.getByLabel(`Type "${OWNER}" to confirm`).fill(OWNER);
    await confirm.click();
    await page.waitForURL(`${origin}/`);
    await page.getByRole('heading', { name: 'Content Platform' }).waitFor();
    await page.getByText(`${OWNER} and the projects only it owned are deleted.`).waitFor();
    await assertAccessible(page, 'landing after deletion');
    // Logged out for good: a protected page sends to the login, where the account no longer works.
    await page.goto(`${origin}/projects`);
    await page.waitForURL(`${origin}/login`);
    await logIn(page, OWNER, NEW_PASSWORD);
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    assert.equal((await apiLogin(OWNER, NEW_PASSWORD)).status, 401);
    // Team Blog had no other owner: it went with the account; the other account's project stays.
    assert.equal((await fetch(`${origin}/p/team-blog/api/anything`)).status, 404);
    assert.equal((await fetch(`${origin}/v1/projects/ivan-private`, { headers: { authorization: `Bearer ${inviteeToken}` } })).status, 200);
  });

  it('logged no error on any page', () => {
    // Only the refusals the tests provoked on purpose (the browser logs every 4xx).
    const failed = (status: string, path: string) => `console: Failed to load resource: the server responded with a status of ${status} ${origin}${path}`;
    assert.deepEqual(ownerErrors(), [
      failed('429 (Too Many Requests)', '/v1/auth/verify-email/send'),
      failed('400 (Bad Request)', '/v1/auth/verify-email'),
      failed('400 (Bad Request)', '/v1/auth/reset-password'),
      failed('401 (Unauthorized)', '/v1/auth/login'),
      failed('400 (Bad Request)', '/v1/projects/team-blog/invitations'),
      failed('400 (Bad Request)', `/v1/projects/team-blog/members/${ownerId}`),
      failed('400 (Bad Request)', '/v1/auth/account'),
      failed('401 (Unauthorized)', '/v1/auth/login'),
    ]);
    // The removed member's look at the project is refused (404, retried by the query).
    const notFound = failed('404 (Not Found)', '/v1/projects/team-blog');
    assert.deepEqual(inviteeErrors().filter((e) => e !== notFound), [
      failed('400 (Bad Request)', '/v1/invitations/accept'),
      failed('400 (Bad Request)', '/v1/invitations/accept'),
    ]);
    assert.ok(inviteeErrors().includes(notFound));
  });
});
