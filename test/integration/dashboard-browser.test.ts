// The dashboard in a real Chromium: a visitor signs up, creates a project, finds its API
// addresses and a snippet that works as shown, manages sessions, logs out and in again; another
// account sees none of it. Every page passes axe-core (no serious or critical violation) and
// logs no error; the app is served with a strict CSP and client-side routes survive reloads.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { listen, openPage, screenshot as screenshotIfAsked } from '../helpers/browser-session.ts';
import { assertAccessible, watchConsole } from '../helpers/dashboard.ts';
import { PASSWORD } from '../helpers/management.ts';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { compiledQuery } from '@cms/db';

const EMAIL = 'dash@example.com';

describe('dashboard in a browser', () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let consoleErrors: () => string[];
  let token: string;

  before(async () => {
    t = await startTestApp();
    origin = await listen(t);
    browser = await launchBrowser();
    ({ context, page, consoleErrors } = await openPage(browser, { viewport: { width: 1280, height: 860 } }));
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  /** The page's screenshot for the docs (`make screenshots`), once a name (a later visit keeps the first). */
  const taken = new Set<string>();
  async function screenshot(name: string) {
    if (taken.has(name)) return;
    taken.add(name);
    await screenshotIfAsked(page, name);
  }

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
    await screenshot('landing');
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    assert.equal(await page.getByText('At least 8 characters').isVisible(), true);
    await assertAccessible(page, 'sign-up');
    await screenshot('sign-up');
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
    await steps.nth(3).waitFor(); // the list shows once the project's usage is loaded
    assert.deepEqual(await steps.evaluateAll((items) => items.map((i) => i.getAttribute('data-done'))), ['false', 'false', 'false', 'false']);
    await assertAccessible(page, 'project overview');
    await screenshot('project-overview');
  });

  const schemaOf = async () => (await t.inject({ method: 'GET', url: '/v1/projects/my-blog/schema', headers: { authorization: `Bearer ${await apiSession()}` } })).json();
  /** An input by its whole label (a required field's label ends with an asterisk). */
  const field = (scope: ReturnType<Page['getByRole']>, label: string) =>
    scope.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`));
  /** Add an attribute through the attribute dialog: name, type, then `options` fills the rest. */
  async function addAttribute(name: string, type: string, options?: (dialog: ReturnType<Page['getByRole']>) => Promise<void>) {
    await page.getByRole('button', { name: 'Add attribute' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add attribute' });
    await field(dialog, 'Name').fill(name);
    await field(dialog, 'Type').click();
    await page.getByRole('option', { name: type, exact: true }).click();
    await options?.(dialog);
    await dialog.getByRole('button', { name: 'Add attribute' }).click();
    await dialog.waitFor({ state: 'detached' });
  }
  async function pick(dialog: ReturnType<Page['getByRole']>, label: string, option: string) {
    await field(dialog, label).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  }
  async function reviewAndApply(expected: RegExp[], version: number, confirmDestructive = false) {
    await page.getByRole('button', { name: 'Review and apply' }).click();
    const review = page.getByRole('dialog', { name: 'Review changes' });
    const list = review.getByRole('list', { name: 'Planned changes' });
    await list.waitFor();
    const items = (await list.getByRole('listitem').allTextContents()).map((i) => i.trim());
    for (const e of expected) assert.ok(items.some((i) => e.test(i)), `${e} not in ${JSON.stringify(items)}`);
    await assertAccessible(page, 'review changes');
    await screenshot('review-changes');
    const apply = review.getByRole('button', { name: 'Apply changes' });
    if (confirmDestructive) {
      assert.equal(await apply.isDisabled(), true);
      await review.getByLabel('I understand that this data will be deleted').check();
    }
    await apply.click();
    await page.getByText(`Model applied (version ${version})`).waitFor();
    await page.getByText('The model is applied: every change is live.').waitFor();
  }

  it('builds a component and two collection types with a relation and a component, reviews and applies them; the API serves them', async () => {
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Content-type builder' }).click();
    await page.waitForURL(`${origin}/projects/my-blog/model`);
    await page.getByRole('heading', { name: 'No content type yet' }).waitFor();
    await assertAccessible(page, 'builder (empty)');

    await page.getByRole('button', { name: 'New component' }).click();
    let dialog = page.getByRole('dialog', { name: 'Create component' });
    await dialog.getByLabel('Display name').fill('Seo');
    await field(dialog, 'Category').fill('shared');
    assert.equal(await dialog.getByTestId('entry-uid').textContent(), 'uid: shared.seo');
    await assertAccessible(page, 'create component');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Seo', level: 3 }).waitFor();
    await addAttribute('metaTitle', 'Short text');

    await page.getByRole('button', { name: 'New collection type' }).click();
    dialog = page.getByRole('dialog', { name: 'Create collection type' });
    await dialog.getByLabel('Display name').fill('Author');
    assert.equal(await dialog.getByTestId('entry-uid').textContent(), 'uid: api::author.author · REST: /api/authors');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Author', level: 3 }).waitFor();
    await addAttribute('name', 'Short text', async (d) => {
      await d.getByLabel('Maximum length').fill('80');
      await d.getByLabel('Required').check();
    });
    await addAttribute('seo', 'Component', (d) => pick(d, 'Component', 'Seo (shared.seo)'));

    await page.getByRole('button', { name: 'New collection type' }).click();
    dialog = page.getByRole('dialog', { name: 'Create collection type' });
    await dialog.getByLabel('Display name').fill('Tag');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Tag', level: 3 }).waitFor();
    await addAttribute('label', 'Short text');
    await addAttribute('authors', 'Relation', async (d) => {
      await pick(d, 'Related type', 'Author');
      await pick(d, 'Relation', 'Many to many');
      await d.getByLabel('Field on Author').fill('tags');
      await assertAccessible(page, 'relation attribute');
    });
    const attributes = page.getByRole('table', { name: 'Attributes of Tag' });
    assert.match((await attributes.getByRole('row', { name: /authors/ }).textContent())!, /manyToMany → Author \(inverse: tags\)/);
    await page.getByText('Not applied yet: Author, Tag, Seo').waitFor();
    await assertAccessible(page, 'builder with changes');
    await screenshot('content-type-builder');

    await reviewAndApply([/create component shared\.seo/, /create content type api::author\.author/, /create content type api::tag\.tag/], 1);
    const schema = await schemaOf();
    assert.equal(schema.version, 1);
    assert.deepEqual(schema.components, { 'shared.seo': { collectionName: 'components_shared_seos', info: { displayName: 'Seo' }, attributes: { metaTitle: { type: 'string' } } } });
    assert.deepEqual(schema.contentTypes['api::author.author'], {
      kind: 'collectionType', collectionName: 'authors', info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' }, options: { draftAndPublish: true },
      attributes: {
        name: { type: 'string', required: true, maxLength: 80 },
        seo: { type: 'component', component: 'shared.seo', repeatable: false },
        tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', mappedBy: 'authors' },
      },
    });
    assert.deepEqual(schema.contentTypes['api::tag.tag'].attributes, {
      label: { type: 'string' },
      authors: { type: 'relation', relation: 'manyToMany', target: 'api::author.author', inversedBy: 'tags' },
    });
    // Live at once: the type exists (403 for the public role, not 404).
    assert.equal((await fetch(`${origin}/p/my-blog/api/tags`)).status, 403);
    assert.equal((await fetch(`${origin}/p/my-blog/api/nothings`)).status, 404);
  });

  it('a refused model change shows the API\'s message next to the attribute and changes nothing', async () => {
    const projectId = (await t.inject({ method: 'GET', url: '/v1/projects/my-blog', headers: { authorization: `Bearer ${await apiSession()}` } })).json().project.id;
    await t.platform.db.pool.query(compiledQuery({
      text: `INSERT INTO "t_${projectId}".ct_tag (document_id, published_at, label) VALUES ('tagdoc000000000000000001', now(), 'news'), ('tagdoc000000000000000002', now(), 'news')`, values: [],
    }));
    await page.getByRole('navigation', { name: 'Model' }).getByRole('button', { name: 'Tag' }).click();
    await page.getByRole('button', { name: 'Edit label' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit label' });
    await dialog.getByLabel('Unique').check();
    await dialog.getByRole('button', { name: 'Save attribute' }).click();
    await page.getByRole('button', { name: 'Review and apply' }).click();
    await page.getByTestId('error-label').waitFor();
    assert.equal(await page.getByTestId('error-label').textContent(), 'Cannot make attribute "label" of api::tag.tag unique: published entries share the same value');
    await page.getByText('The change was refused; nothing was changed').waitFor();
    await assertAccessible(page, 'refused change');
    await screenshot('refused-change');
    assert.equal((await schemaOf()).version, 1);
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await page.getByTestId('error-label').waitFor({ state: 'detached' });
  });

  it('deleting an attribute is marked as deleting data and applies only once confirmed', async () => {
    await addAttribute('color', 'Enumeration', async (d) => {
      await d.getByLabel('Values').fill('red');
      await d.getByLabel('Values').press('Enter');
      await d.getByLabel('Values').fill('blue');
      await d.getByLabel('Values').press('Enter');
    });
    await page.getByRole('button', { name: 'Delete label' }).click();
    await reviewAndApply([/drop attribute label of api::tag\.tag\s*deletes data/, /add attribute color to api::tag\.tag$/], 2, true);
    assert.deepEqual((await schemaOf()).contentTypes['api::tag.tag'].attributes, {
      authors: { type: 'relation', relation: 'manyToMany', target: 'api::author.author', inversedBy: 'tags' },
      color: { type: 'enumeration', enum: ['red', 'blue'] },
    });
  });

  it('imports a whole Strapi project folder and a single schema.json, and applies them as they are', async () => {
    const project = join(import.meta.dirname, '../fixtures/strapi-project');
    await page.getByTestId('import-folder').setInputFiles(project);
    await page.getByText('Imported 2 content types and 2 components (4 other files skipped): review and apply to keep them').waitFor();
    const single = { kind: 'singleType', collectionName: 'homepages', info: { singularName: 'homepage', pluralName: 'homepages', displayName: 'Homepage' }, options: { draftAndPublish: false }, attributes: { headline: { type: 'string' } } };
    await page.getByTestId('import-files').setInputFiles({ name: 'schema.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(single)) });
    await page.getByText('Imported 1 content type and 0 components: review and apply to keep them').waitFor();
    await page.getByRole('heading', { name: 'Homepage', level: 3 }).waitFor();
    await reviewAndApply([/create content type api::article\.article/, /create content type api::category\.category/, /create component shared\.quote/, /create content type api::homepage\.homepage/], 3);
    const schema = await schemaOf();
    const file = async (p: string) => JSON.parse(await readFile(join(project, p), 'utf8'));
    assert.deepEqual(schema.contentTypes['api::article.article'], await file('src/api/article/content-types/article/schema.json'));
    assert.deepEqual(schema.contentTypes['api::category.category'], await file('src/api/category/content-types/category/schema.json'));
    assert.deepEqual(schema.components['shared.seo'], await file('src/components/shared/seo.json'));
    assert.deepEqual(schema.contentTypes['api::homepage.homepage'], single);
    assert.equal((await fetch(`${origin}/p/my-blog/api/articles`)).status, 403);
  });

  it('creates a read-only API token: the key is shown once, with a warning and a copy button', async () => {
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'API tokens' }).click();
    await page.waitForURL(`${origin}/projects/my-blog/api-tokens`);
    await page.getByText('No tokens yet').waitFor();
    await assertAccessible(page, 'api tokens (empty)');
    await page.getByRole('button', { name: 'Create API token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API token' });
    await dialog.getByLabel('Name').fill('site');
    await dialog.getByLabel('Token type', { exact: true }).click();
    await page.getByRole('option', { name: /Custom permissions/ }).click();
    await dialog.getByRole('table', { name: 'Token permissions' }).waitFor();
    await assertAccessible(page, 'create token with custom permissions');
    await dialog.getByLabel('Token type', { exact: true }).click();
    await page.getByRole('option', { name: /Read-only/ }).click();
    await dialog.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('dialog', { name: 'Copy your API token' });
    await shown.getByText('Shown only once').waitFor();
    token = (await shown.getByTestId('new-token').textContent())!;
    assert.match(token, /^[0-9a-f]{256}$/);
    await assertAccessible(page, 'new token key');
    await screenshot('api-token-created');
    await shown.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('table', { name: 'API tokens' }).getByRole('row', { name: /site/ });
    await row.getByText('read-only').waitFor();
    // The key is not shown again anywhere.
    assert.equal(await page.getByText(token).count(), 0);
    await assertAccessible(page, 'api tokens (one)');
  });

  it('the curl, fetch and GraphQL snippets work exactly as shown with the token', async () => {
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Overview' }).click();
    await page.waitForURL(`${origin}/projects/my-blog`);
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
    // Having called the API, the first steps show it on the next visit (the builder test added content).
    await page.reload();
    const steps = page.getByRole('list', { name: 'First steps' }).getByRole('listitem');
    await page.locator('[aria-label="First steps"] li[data-done="true"]').nth(3).waitFor();
    assert.deepEqual(await steps.evaluateAll((items) => items.map((i) => i.getAttribute('data-done'))), ['true', 'true', 'true', 'true']);
  });

  it('grants the public role find on a type in the permissions matrix, and the API follows', async () => {
    const nav = page.getByRole('navigation', { name: 'Project' });
    await nav.getByRole('link', { name: 'Roles & permissions' }).click();
    const matrix = page.getByRole('table', { name: 'Permissions of Public' });
    await matrix.waitFor();
    await assertAccessible(page, 'roles');
    await screenshot('roles-and-permissions');
    assert.equal((await fetch(`${origin}/p/my-blog/api/tags`)).status, 403);
    await matrix.getByRole('checkbox', { name: 'find on tag' }).check();
    await page.getByRole('button', { name: 'Save permissions' }).click();
    await page.getByText('Permissions of Public saved').waitFor();
    assert.equal((await fetch(`${origin}/p/my-blog/api/tags`)).status, 200);
  });

  it('adds a locale, makes it the default and back, and deletes it after confirmation', async () => {
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Locales' }).click();
    const table = page.getByRole('table', { name: 'Locales' });
    await table.getByText('Default').waitFor();
    await page.getByLabel('Locale code').fill('fr');
    await page.getByRole('button', { name: 'Add locale' }).click();
    await table.getByRole('cell', { name: 'fr', exact: true }).waitFor();
    await assertAccessible(page, 'locales');
    await page.getByRole('button', { name: 'Make default fr' }).click();
    await table.getByRole('row', { name: /fr.*Default/ }).waitFor();
    await page.getByRole('button', { name: 'Make default en' }).click();
    await table.getByRole('row', { name: /en.*Default/ }).waitFor();
    await page.getByRole('button', { name: 'Delete fr' }).click();
    await page.getByRole('dialog', { name: 'Delete locale' }).getByRole('button', { name: 'Delete locale' }).click();
    await table.getByRole('cell', { name: 'fr', exact: true }).waitFor({ state: 'detached' });
  });

  it('settings: rename, browser access with a refused origin shown in place, GraphQL limits, delivery', async () => {
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Browser access (CORS)' }).waitFor();
    await assertAccessible(page, 'settings');
    await screenshot('project-settings');
    await page.getByLabel('Name', { exact: true }).fill('My Renamed Blog');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('heading', { name: 'My Renamed Blog', level: 1 }).waitFor();
    const origins = page.getByLabel('Allowed origins');
    await origins.fill('not an origin');
    await page.getByRole('button', { name: 'Save browser access' }).click();
    await page.getByText(/not an origin/).last().waitFor();
    await origins.fill('https://app.example.com');
    await page.getByRole('button', { name: 'Save browser access' }).click();
    await page.getByText('Saved').first().waitFor();
    const bearer = await apiSession();
    const cors = await t.inject({ method: 'GET', url: '/v1/projects/my-blog/settings/cors', headers: { authorization: `Bearer ${bearer}` } });
    assert.deepEqual(cors.json().cors.origins, ['https://app.example.com']);
    await page.getByLabel('Default page size').fill('5');
    // The earlier save's "Saved" may still be showing: wait for this save's answer instead.
    const saved = page.waitForResponse((res) => res.url().endsWith('/settings/graphql') && res.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Save GraphQL settings' }).click();
    assert.equal((await saved).status(), 200);
    const graphql = await t.inject({ method: 'GET', url: '/v1/projects/my-blog/settings/graphql', headers: { authorization: `Bearer ${bearer}` } });
    assert.equal(graphql.json().graphql.defaultLimit, 5);
    // Delivery: the CDN cache time and the answer cache switch.
    await page.getByRole('heading', { name: 'Delivery' }).waitFor();
    const answerCache = page.getByRole('switch', { name: 'Answer repeated reads from memory' });
    assert.equal(await answerCache.isChecked(), true);
    await page.getByLabel('CDN cache time (seconds)').fill('300');
    await answerCache.uncheck();
    const savedDelivery = page.waitForResponse((res) => res.url().endsWith('/settings/delivery') && res.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Save delivery settings' }).click();
    assert.equal((await savedDelivery).status(), 200);
    const delivery = await t.inject({ method: 'GET', url: '/v1/projects/my-blog/settings/delivery', headers: { authorization: `Bearer ${bearer}` } });
    assert.deepEqual(delivery.json(), { delivery: { sMaxAge: 300, answerCache: false } });
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
    await page.getByRole('link', { name: 'Open project My Renamed Blog' }).waitFor();
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

  it('deletes a project only after its slug is typed', async () => {
    await page.goto(`${origin}/projects/my-blog/settings`);
    await page.getByRole('button', { name: 'Delete project' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete project' });
    const confirm = dialog.getByRole('button', { name: 'Delete this project' });
    assert.equal(await confirm.isDisabled(), true);
    await dialog.getByLabel('Type "my-blog" to confirm').fill('my-blog');
    await confirm.click();
    await page.waitForURL(`${origin}/projects`);
    await page.getByRole('heading', { name: 'No projects yet' }).waitFor();
    assert.equal((await fetch(`${origin}/p/my-blog/api/tags`)).status, 404);
  });

  it('logged no error on any page', () => {
    // Only the refusals the tests provoked on purpose (the browser logs every 4xx).
    assert.deepEqual(consoleErrors(), [
      `console: Failed to load resource: the server responded with a status of 400 (Bad Request) ${origin}/v1/projects/my-blog/schema/plan`,
      `console: Failed to load resource: the server responded with a status of 400 (Bad Request) ${origin}/v1/projects/my-blog/settings/cors`,
    ]);
  });
});
