// Environments in a real Chromium, against the real copy and promote: an environment made from the
// switcher beside the project's name (a bad name refused on its field, then the copy followed until
// ready and opened), the plan's limit named, the banner on every page of it (none on the parent's;
// its team and billing pages point at the parent's), switching back and forth to the same page, a
// field added in the environment's content-type builder and promoted (the plan shown, applied, the
// parent's model has it), equal models, a destructive promote that needs the checkbox, an editor who
// sees no owner's actions, the environment deleted (typing its name) back on the parent's page, and
// a failed copy marked and deleted. axe-core on each state, no console error but the refused second
// environment's.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { listen, logIn, openPage, screenshot } from '../helpers/browser-session.ts';
import { assertAccessible } from '../helpers/dashboard.ts';
import { addMember, as, createProject, signup, type Session } from '../helpers/management.ts';

const VIEWPORT = { viewport: { width: 1280, height: 900 } };
const ARTICLE = 'api::article.article';
const article = (attributes: Record<string, unknown>) => ({
  kind: 'collectionType', info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
  options: { draftAndPublish: false }, attributes,
});
const BANNER = 'Staging copy of Acme — changes here do not reach production';
const LIMIT = 'The free plan allows 1 environment per project: delete one, or upgrade the plan';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The pages of an environment (its navigation's links) and their paths: a project's but its team and billing (the parent's). */
const PAGES: Array<[label: string, path: string]> = [
  ['Overview', ''], ['Content', '/content'], ['Releases', '/releases'], ['Media library', '/media'], ['Content-type builder', '/model'],
  ['End users', '/end-users'], ['API tokens', '/api-tokens'], ['Webhooks', '/webhooks'], ['Roles & permissions', '/roles'],
  ['Locales', '/locales'], ['Usage', '/usage'], ['Audit log', '/audit-log'], ['Settings', '/settings'],
];

describe('dashboard environments in a browser', () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let consoleErrors: () => string[];
  let owner: Session;
  let slug: string;
  let env: string;

  const admin = () => as(t, owner);
  const attributes = async (s: string) => {
    const res = await admin().get(`/v1/projects/${s}/schema`);
    assert.equal(res.statusCode, 200, res.body);
    return Object.keys(res.json().contentTypes[ARTICLE].attributes).sort();
  };
  const switcher = () => page.getByRole('button', { name: /^Environment: / });
  const banner = () => page.getByRole('region', { name: 'Environment' });
  /** Opens the switcher's menu and clicks `item`. */
  async function fromSwitcher(item: string | RegExp) {
    await switcher().click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    await menu.getByRole('menuitem', { name: item }).click();
  }
  /** The promotion window opened from the banner, once its plan is shown. */
  async function openPromotion(): Promise<Locator> {
    await banner().getByRole('button', { name: 'Promote model to production' }).click();
    const dialog = page.getByRole('dialog', { name: 'Promote model to production' });
    await dialog.getByRole('table', { name: 'Promotion plan' }).or(dialog.getByText('The models are equal: there is nothing to promote.')).waitFor();
    return dialog;
  }
  const planRows = async (dialog: Locator) =>
    (await dialog.getByRole('table', { name: 'Promotion plan' }).getByRole('row').all()).slice(1);
  const cells = async (row: Locator) => (await row.getByRole('cell').allTextContents()).map((c) => c.trim());

  before(async () => {
    t = await startTestApp();
    origin = await listen(t);
    owner = await signup(t, `env-browser-${process.pid}@example.com`);
    // Verified: no banner above the pages but the environment's.
    await t.platform.db.pool.query(compiledQuery({ text: 'UPDATE platform.accounts SET email_verified_at = now() WHERE id = $1', values: [owner.account.id] }));
    slug = (await createProject(t, owner, { name: 'Acme', slug: `acme-${process.pid}` })).slug;
    env = `${slug}--staging`;
    const pushed = await admin().put(`/v1/projects/${slug}/schema`, { contentTypes: { [ARTICLE]: article({ title: { type: 'string' }, body: { type: 'text' } }) }, components: {} });
    assert.equal(pushed.statusCode, 200, pushed.body);
    browser = await launchBrowser();
    ({ page, consoleErrors } = await openPage(browser, VIEWPORT));
    await logIn(page, origin, owner.account.email);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('makes an environment from the switcher: a bad name is refused on its field, then the copy is followed until ready', async () => {
    await page.goto(`${origin}/projects/${slug}/model`);
    await page.getByRole('heading', { name: 'Acme', level: 1, exact: true }).waitFor();
    assert.equal(await banner().count(), 0);
    assert.equal(await switcher().textContent(), 'Environment:production▾');
    await switcher().click();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'New environment…' }).waitFor();
    assert.deepEqual((await menu.getByRole('menuitem').allTextContents()).map((s) => s.trim()), ['production', 'New environment…', 'Delete environment…']);
    assert.equal(await menu.getByRole('menuitem', { name: 'Delete environment…' }).isDisabled(), true);
    await assertAccessible(page, 'environment switcher (no environments)');
    await menu.getByRole('menuitem', { name: 'New environment…' }).click();

    const dialog = page.getByRole('dialog', { name: 'New environment' });
    const name = dialog.getByRole('textbox', { name: 'Name' });
    await name.fill('Staging!');
    await dialog.getByRole('button', { name: 'Create environment' }).click();
    await dialog.getByText('Start with a lowercase letter, then up to 19 lowercase letters, digits or dashes.').waitFor();
    assert.equal(await name.getAttribute('aria-invalid'), 'true');
    await assertAccessible(page, 'new environment (bad name)');
    // Nothing was asked of the server.
    assert.deepEqual((await admin().get(`/v1/projects/${slug}/environments`)).json(), { environments: [] });

    await name.fill('staging');
    await dialog.getByText(`${slug}--staging`).waitFor();
    // The list answers slowly for a while, so the copy is seen running before it ends.
    await page.route('**/v1/projects/*/environments', async (route) => {
      if (route.request().method() === 'GET') await sleep(1500);
      await route.continue();
    });
    await dialog.getByRole('button', { name: 'Create environment' }).click();
    const copying = dialog.getByRole('status').filter({ hasText: `Copying Acme to ${env}…` });
    await copying.waitFor();
    assert.equal(await copying.getAttribute('data-environment-status'), 'copying');
    await assertAccessible(page, 'new environment (copying)');
    await page.unrouteAll({ behavior: 'wait' });
    await dialog.getByRole('status').filter({ hasText: 'The environment is ready' }).waitFor({ timeout: 60_000 });
    await assertAccessible(page, 'new environment (ready)');
    const { environments } = (await admin().get(`/v1/projects/${slug}/environments`)).json();
    assert.deepEqual(environments.map((e: { name: string; slug: string; status: string }) => [e.name, e.slug, e.status]), [['staging', env, 'ready']]);

    await dialog.getByRole('link', { name: 'Open staging' }).click();
    await page.waitForURL(`${origin}/projects/${env}`);
    await dialog.waitFor({ state: 'detached' });
    await banner().getByText(BANNER).waitFor();
  });

  it('a second environment is over the free plan\'s limit: the refusal names it, nothing is made', async () => {
    await fromSwitcher('New environment…');
    const dialog = page.getByRole('dialog', { name: 'New environment' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('qa');
    await dialog.getByRole('button', { name: 'Create environment' }).click();
    const alert = dialog.getByRole('alert');
    await alert.getByText(LIMIT).waitFor();
    assert.equal(await alert.textContent(), `Could not create the environment${LIMIT}`);
    await assertAccessible(page, 'new environment (over the limit)');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    const { environments } = (await admin().get(`/v1/projects/${slug}/environments`)).json();
    assert.deepEqual(environments.map((e: { name: string }) => e.name), ['staging']);
  });

  it('shows the banner, with a link to the parent, on every page of the environment', async () => {
    for (const [label, path] of PAGES) {
      await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: label, exact: true }).click();
      // Some pages go on to a default (Content opens its first type).
      await page.waitForURL((url) => url.pathname === `/projects/${env}${path}` || url.pathname.startsWith(`/projects/${env}${path}/`));
      await banner().getByText(BANNER).waitFor();
      // The link follows the page: the parent's same path.
      const here = new URL(page.url()).pathname.slice(`/projects/${env}`.length);
      await banner().locator(`a[href="/projects/${slug}${here}"]`).filter({ hasText: 'Open Acme' }).waitFor();
      assert.ok(here === path || here.startsWith(`${path}/`), `${label}: ${here}`);
    }
    const nav = page.getByRole('navigation', { name: 'Project' });
    assert.deepEqual(await nav.getByRole('link').allTextContents(), PAGES.map(([label]) => label));
    // An environment's single sign-on is its parent's: not in its settings.
    await page.getByRole('button', { name: 'Rename' }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Single sign-on' }).count(), 0);
    assert.equal(await switcher().textContent(), 'Environment:staging▾');
    await assertAccessible(page, 'environment page with its banner');
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Overview', exact: true }).click();
    // The environment's own API addresses.
    await page.getByTestId('REST').filter({ hasText: `${origin}/p/${env}/api` }).waitFor();
    await screenshot(page, 'environment-banner');
  });

  it('the team and billing pages of an environment point at the parent\'s', async () => {
    for (const section of ['team', 'billing']) {
      await page.goto(`${origin}/projects/${env}/${section}`);
      const note = page.getByRole('note').filter({ hasText: `The ${section} of Acme` });
      await note.getByText(`An environment has no ${section} of its own: its members and plan are those of Acme.`).waitFor();
      await assertAccessible(page, `environment ${section}`);
      await note.getByRole('link', { name: `Open the ${section} of Acme` }).click();
      await page.waitForURL(`${origin}/projects/${slug}/${section}`);
      await page.getByRole('heading', { name: 'Acme', level: 1, exact: true }).waitFor();
      await banner().waitFor({ state: 'detached' });
    }
    // The parent's billing page has asked for its subscription (501: billing is off here) and says so.
    await page.getByText('Billing is not enabled on this platform: the project keeps its plan.').waitFor();
    // The parent has both in its navigation, and its single sign-on card in its settings.
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Billing' }).waitFor();
    const links = await page.getByRole('navigation', { name: 'Project' }).getByRole('link').allTextContents();
    assert.ok(links.includes('Team') && links.includes('Billing'), links.join());
    await page.goto(`${origin}/projects/${slug}/settings`);
    await page.getByRole('heading', { name: 'Single sign-on' }).waitFor();
  });

  it('switches to the parent\'s same page and back', async () => {
    await page.goto(`${origin}/projects/${env}/model`);
    await banner().waitFor();
    await switcher().click();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'staging' }).waitFor();
    assert.deepEqual((await menu.getByRole('menuitem').allTextContents()).map((s) => s.trim()), ['production', 'staging', 'New environment…', 'Delete environment…']);
    assert.equal(await menu.getByRole('menuitem', { name: 'staging' }).getAttribute('aria-current'), 'page');
    await assertAccessible(page, 'environment switcher (open)');
    await menu.getByRole('menuitem', { name: 'production' }).click();
    await page.waitForURL(`${origin}/projects/${slug}/model`);
    await page.getByRole('heading', { name: 'Content-type builder' }).waitFor();
    await banner().waitFor({ state: 'detached' });

    await fromSwitcher('staging');
    await page.waitForURL(`${origin}/projects/${env}/model`);
    await banner().getByText(BANNER).waitFor();
    // The banner's link goes to the parent's same page too.
    await banner().getByRole('link', { name: 'Open Acme' }).click();
    await page.waitForURL(`${origin}/projects/${slug}/model`);
    await fromSwitcher('staging');
    await page.waitForURL(`${origin}/projects/${env}/model`);
  });

  it('promotes a field added in the environment\'s content-type builder: the plan, then the parent has the field', async () => {
    await page.getByRole('button', { name: 'Add attribute' }).click();
    const add = page.getByRole('dialog', { name: 'Add attribute' });
    await add.getByLabel(/^Name( \*)?$/).fill('summary');
    await add.getByLabel(/^Type( \*)?$/).click();
    await page.getByRole('option', { name: 'Short text', exact: true }).click();
    await add.getByRole('button', { name: 'Add attribute' }).click();
    await add.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Review and apply' }).click();
    const review = page.getByRole('dialog', { name: 'Review changes' });
    await review.getByRole('button', { name: 'Apply changes' }).click();
    await page.getByText('The model is applied: every change is live.').waitFor();
    assert.deepEqual(await attributes(env), ['body', 'summary', 'title']);
    assert.deepEqual(await attributes(slug), ['body', 'title']);

    const dialog = await openPromotion();
    const rows = await planRows(dialog);
    assert.equal(rows.length, 1);
    assert.deepEqual(await cells(rows[0]!), [`add attribute summary to ${ARTICLE}`, ARTICLE, 'summary', 'Keeps data']);
    assert.equal(await rows[0]!.getAttribute('data-destructive'), 'false');
    assert.equal(await dialog.getByRole('checkbox').count(), 0);
    await assertAccessible(page, 'promotion plan (adds a field)');
    await dialog.getByRole('button', { name: 'Apply to production' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Acme now has the model of staging (1 step applied)' }).waitFor({ timeout: 60_000 });
    await assertAccessible(page, 'promotion applied');
    assert.deepEqual(await attributes(slug), ['body', 'summary', 'title']);
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('says the models are equal when there is nothing to promote', async () => {
    const dialog = await openPromotion();
    await dialog.getByText('The models are equal: there is nothing to promote.').waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'Apply to production' }).isDisabled(), true);
    await assertAccessible(page, 'promotion (equal models)');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('a destructive promotion is called out and applies only once its box is ticked', async () => {
    // The field removed in the environment (through the API: the builder is tested elsewhere).
    const removed = await admin().put(`/v1/projects/${env}/schema`, { contentTypes: { [ARTICLE]: article({ title: { type: 'string' }, summary: { type: 'string' } }) }, components: {} });
    assert.equal(removed.statusCode, 200, removed.body);
    await page.reload();
    const dialog = await openPromotion();
    const rows = await planRows(dialog);
    assert.equal(rows.length, 1);
    assert.deepEqual(await cells(rows[0]!), [`drop attribute body of ${ARTICLE}`, ARTICLE, 'body', 'Deletes data']);
    assert.equal(await rows[0]!.getAttribute('data-destructive'), 'true');
    await dialog.getByText('1 step deletes data in production').waitFor();
    const apply = dialog.getByRole('button', { name: 'Apply to production' });
    assert.equal(await apply.isDisabled(), true);
    await assertAccessible(page, 'promotion plan (destructive)');
    await dialog.getByRole('checkbox', { name: 'I understand that data of Acme will be deleted' }).check();
    assert.equal(await apply.isDisabled(), false);
    await screenshot(page, 'environment-promote');
    await apply.click();
    await dialog.getByRole('status').filter({ hasText: 'Acme now has the model of staging (1 step applied)' }).waitFor({ timeout: 60_000 });
    assert.deepEqual(await attributes(slug), ['summary', 'title']);
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('an editor sees the environments but neither makes, deletes nor promotes them', async () => {
    const editor = await signup(t, `env-editor-${process.pid}@example.com`);
    const project = (await admin().get(`/v1/projects/${slug}`)).json().project as { id: number };
    await addMember(t, project.id, editor, 'editor');
    const other = await openPage(browser, VIEWPORT);
    try {
      await logIn(other.page, origin, editor.account.email);
      await other.page.goto(`${origin}/projects/${env}`);
      const otherBanner = other.page.getByRole('region', { name: 'Environment' });
      await otherBanner.getByText(BANNER).waitFor();
      assert.equal(await otherBanner.getByRole('button').count(), 0);
      await other.page.getByRole('button', { name: 'Environment: staging' }).click();
      const menu = other.page.getByRole('menu');
      await menu.getByRole('menuitem', { name: 'staging' }).waitFor();
      assert.deepEqual((await menu.getByRole('menuitem').allTextContents()).map((s) => s.trim()), ['production', 'staging']);
      await assertAccessible(other.page, 'environment switcher (editor)');
      assert.deepEqual(other.consoleErrors(), []);
    } finally {
      await other.context.close();
    }
  });

  it('deletes the environment after its name is typed, back on the parent\'s same page', async () => {
    await page.goto(`${origin}/projects/${env}/content`);
    await page.waitForURL(`${origin}/projects/${env}/content/${ARTICLE}`);
    await banner().waitFor();
    await fromSwitcher('Delete environment…');
    const dialog = page.getByRole('dialog', { name: 'Delete environment' });
    assert.equal(await dialog.getByRole('combobox', { name: 'Environment' }).inputValue(), 'staging');
    const confirm = dialog.getByRole('button', { name: 'Delete environment' });
    assert.equal(await confirm.isDisabled(), true);
    await dialog.getByRole('textbox', { name: 'Type "staging" to confirm' }).fill('stagin');
    assert.equal(await confirm.isDisabled(), true);
    await assertAccessible(page, 'delete environment');
    await dialog.getByRole('textbox', { name: 'Type "staging" to confirm' }).fill('staging');
    await confirm.click();
    await page.waitForURL(`${origin}/projects/${slug}/content/${ARTICLE}`);
    await dialog.waitFor({ state: 'detached' });
    await banner().waitFor({ state: 'detached' });
    assert.deepEqual((await admin().get(`/v1/projects/${slug}/environments`)).json(), { environments: [] });
    assert.equal((await admin().get(`/v1/projects/${env}`)).statusCode, 404);
    // The parent keeps its model.
    assert.deepEqual(await attributes(slug), ['summary', 'title']);
    await switcher().click();
    assert.deepEqual((await page.getByRole('menu').getByRole('menuitem').allTextContents()).map((s) => s.trim()), ['production', 'New environment…', 'Delete environment…']);
    await page.keyboard.press('Escape');
  });

  it('a failed copy is marked in the switcher, cannot be opened, and is deleted with its reason shown', async () => {
    const made = await admin().post(`/v1/projects/${slug}/environments`, { name: 'broken' });
    assert.equal(made.statusCode, 202, made.body);
    // Once the copy has ended (so it does not overwrite what follows) …
    for (let i = 0; ; i++) {
      const { environments } = (await admin().get(`/v1/projects/${slug}/environments`)).json();
      if (environments[0].status !== 'copying') break;
      assert.ok(i < 600, 'the copy did not end');
      await sleep(100);
    }
    // … it reads as having ended badly (as a copy whose process died reads).
    await t.platform.db.pool.query(compiledQuery({
      text: `UPDATE platform.projects SET environment_status = 'failed', environment_error = 'the copy was interrupted'
             WHERE parent_id = (SELECT id FROM platform.projects WHERE slug = $1) AND environment_name = 'broken'`,
      values: [slug],
    }));
    await page.goto(`${origin}/projects/${slug}`);
    await switcher().click();
    const item = page.getByRole('menu').getByRole('menuitem', { name: /broken/ });
    await item.waitFor();
    assert.equal(await item.textContent(), 'brokenFailed');
    assert.equal(await item.isDisabled(), true);
    await assertAccessible(page, 'environment switcher (a failed copy)');
    await page.getByRole('menu').getByRole('menuitem', { name: 'Delete environment…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete environment' });
    await dialog.getByText('The copy failed: the copy was interrupted').waitFor();
    await dialog.getByRole('textbox', { name: 'Type "broken" to confirm' }).fill('broken');
    await dialog.getByRole('button', { name: 'Delete environment' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.deepEqual((await admin().get(`/v1/projects/${slug}/environments`)).json(), { environments: [] });
    assert.equal(new URL(page.url()).pathname, `/projects/${slug}`);
    // The only errors: the parent's billing, off on this platform, and the refused second environment.
    assert.deepEqual(consoleErrors().sort(), [
      `console: Failed to load resource: the server responded with a status of 403 (Forbidden) ${origin}/v1/projects/${slug}/environments`,
      `console: Failed to load resource: the server responded with a status of 501 (Not Implemented) ${origin}/v1/projects/${slug}/billing`,
    ]);
  });
});
