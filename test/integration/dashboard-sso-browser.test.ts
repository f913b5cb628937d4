// Single sign-on in a real Chromium against a real OpenID provider (test/helpers/oidc-provider.ts):
// an owner connects the provider on the project's Settings page (the callback URL shown, the
// secret write-only) and proves the domain with its TXT record (a loopback DNS server), a teammate signs in with "Sign in with SSO" through the provider's own
// login and consent pages and lands on the project, and a refused sign-in comes back to the
// login page saying why. Every page passes axe-core and logs no error.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { listen, logIn, openPage } from '../helpers/browser-session.ts';
import { assertAccessible } from '../helpers/dashboard.ts';
import { createProject, signup } from '../helpers/management.ts';
import { startTestDns, type TestDns } from '../helpers/dns-server.ts';
import { startTestIdp, type TestIdp } from '../helpers/oidc-provider.ts';

const OWNER = 'olga@owners.test';
const DOMAIN = 'team-sso.test';

describe('dashboard single sign-on in a browser', () => {
  let t: TestApp;
  let idp: TestIdp;
  let dns: TestDns;
  let origin: string;
  let browser: Browser;
  let project: { id: number; slug: string };

  before(async () => {
    dns = await startTestDns();
    t = await startTestApp({ env: { SSO_ALLOW_PRIVATE: 'true', SSO_DNS_SERVERS: dns.address } });
    origin = await listen(t);
    idp = await startTestIdp({ redirectUris: [`${origin}/v1/auth/sso/callback`] });
    const owner = await signup(t, OWNER);
    project = await createProject(t, owner, { name: 'Team Space' });
    await t.platform.db.pool.query(compiledQuery({ text: `UPDATE platform.projects SET plan = 'enterprise' WHERE id = $1`, values: [project.id] }));
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await idp?.close();
    await dns?.close();
  });

  /** The console errors of the platform's pages (the provider's development pages load web fonts and a favicon it does not have). */
  const ours = (errors: string[]) => errors.filter((e) => !e.includes('fonts.googleapis.com') && !e.includes(idp.issuer));

  /** Through the provider's development login and consent pages as `login`. */
  async function signInAtProvider(page: Page, login: string) {
    await page.waitForURL((url) => url.origin === idp.issuer);
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
  }

  it('an owner connects the identity provider on the Settings page', async () => {
    const { page, context, consoleErrors } = await openPage(browser);
    await logIn(page, origin, OWNER);
    await page.goto(`${origin}/projects/${project.slug}/settings`);
    const section = page.getByRole('form', { name: 'Single sign-on' });
    await section.waitFor();
    await page.getByText(`${origin}/v1/auth/sso/callback`).first().waitFor();
    await section.getByRole('textbox', { name: 'Issuer URL' }).fill(idp.issuer);
    await section.getByRole('textbox', { name: 'Client ID' }).fill(idp.clientId);
    await section.getByLabel('Client secret').fill(idp.clientSecret);
    await section.getByRole('textbox', { name: 'E-mail domain' }).fill(DOMAIN);
    await section.getByRole('combobox', { name: 'Role of new members' }).click();
    await page.getByRole('option', { name: 'Editor', exact: true }).click();
    await section.getByRole('button', { name: 'Save single sign-on' }).click();
    await page.getByText('Single sign-on saved').waitFor();
    await section.getByText('Set — leave empty to keep it').waitFor();
    assert.equal(await section.getByLabel('Client secret').inputValue(), '');
    // The domain is proved with the TXT record the page shows.
    const proof = page.getByRole('region', { name: 'Verify your domain' });
    await assertAccessible(page, 'settings with single sign-on, domain not verified');
    const name = await proof.locator('[data-snippet="TXT record name"]').textContent();
    const value = await proof.locator('[data-snippet="TXT record value"]').textContent();
    assert.equal(name, `_cms-sso.${DOMAIN}`);
    await proof.getByRole('button', { name: 'Verify domain' }).click();
    await proof.getByRole('alert').filter({ hasText: `Add a TXT record at ${name} with the value ${value}, then verify again (none found)` }).waitFor();
    dns.txt.set(name!, [value!]);
    await proof.getByRole('button', { name: 'Verify domain' }).click();
    await page.getByRole('status', { name: 'Domain verified' }).waitFor();
    await assertAccessible(page, 'settings with single sign-on');
    const [row] = (await t.platform.db.pool.any(compiledQuery({ text: 'SELECT email_domain, default_role FROM platform.sso_connections WHERE project_id = $1', values: [project.id] }))) as unknown as Array<Record<string, string>>;
    assert.deepEqual(row, { email_domain: DOMAIN, default_role: 'editor' });
    // The first verification's refusal, provoked on purpose, is the only error.
    assert.deepEqual(consoleErrors(), [`console: Failed to load resource: the server responded with a status of 400 (Bad Request) ${origin}/v1/projects/${project.slug}/sso/verify-domain`]);
    await context.close();
  });

  it('a teammate signs in with SSO through the provider and lands on the project', async () => {
    idp.users.set('pat', { email: `pat@${DOMAIN}`, name: 'Pat Teammate' });
    const { page, context, consoleErrors } = await openPage(browser);
    await page.goto(`${origin}/login`);
    await page.getByRole('button', { name: 'Sign in with SSO' }).click();
    await assertAccessible(page, 'login with the SSO form');
    await page.getByRole('form', { name: 'Sign in with SSO' }).getByLabel('Work e-mail').fill(`pat@${DOMAIN}`);
    await page.getByRole('button', { name: 'Continue with SSO' }).click();
    await signInAtProvider(page, 'pat');
    await page.waitForURL(`${origin}/projects/${project.slug}`);
    await page.getByRole('navigation', { name: 'Project' }).waitFor();
    await assertAccessible(page, 'the project after signing in with SSO');
    // The new account is an editor of the project.
    const [member] = (await t.platform.db.pool.any(compiledQuery({
      text: 'SELECT m.role FROM platform.project_members m JOIN platform.accounts a ON a.id = m.account_id WHERE a.email = $1', values: [`pat@${DOMAIN}`],
    }))) as unknown as Array<{ role: string }>;
    assert.deepEqual(member, { role: 'editor' });
    assert.deepEqual(ours(consoleErrors()), []);
    await context.close();
  });

  it('a refused sign-in comes back to the login page saying why', async () => {
    idp.users.set('outsider', { email: 'outsider@elsewhere.test' });
    const { page, context, consoleErrors } = await openPage(browser);
    await page.goto(`${origin}/login`);
    await page.getByRole('button', { name: 'Sign in with SSO' }).click();
    await page.getByLabel('Work e-mail').fill(`outsider@${DOMAIN}`);
    await page.getByRole('button', { name: 'Continue with SSO' }).click();
    await signInAtProvider(page, 'outsider');
    await page.waitForURL(`${origin}/login?sso_error=domain`);
    const alert = page.getByRole('alert', { name: 'Single sign-on refused' });
    assert.equal(await alert.textContent(), 'Your e-mail address at your identity provider is not in the domain this single sign-on is for.');
    await assertAccessible(page, 'login after a refused sign-in');
    // An address whose domain has no single sign-on is said on the form.
    await page.getByLabel('Work e-mail').fill('someone@nowhere.test');
    await page.getByRole('button', { name: 'Continue with SSO' }).click();
    await page.getByText('Single sign-on is not set up for this e-mail address').waitFor();
    // The 404 of the unknown domain is the only error.
    assert.deepEqual(ours(consoleErrors()), [`console: Failed to load resource: the server responded with a status of 404 (Not Found) ${origin}/v1/auth/sso/start`]);
    await context.close();
  });
});
