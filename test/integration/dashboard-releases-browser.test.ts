// Releases, scheduling and preview in a real Chromium (with the scheduler on): a release created and
// its schedule edited (Europe/Paris, through the date-time and time zone pickers) then removed;
// two entries added from their editor (publish and unpublish) and more through the API; the
// release page groups them by type and locale with their validity, one blocked entry with its
// reason; switching and removing actions; Publish now fails naming the entry, which is fixed in
// the editor, then publishes: done and read-only, the documents published and unpublished on the
// content API; an entry scheduled from its editor (one cancelled, one run); a scheduled release
// fires at its time; Open preview opens the type's filled URL, or says there is none; a viewer
// sees it all read-only. axe-core on every state.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { chooseOption, listen, logIn, openPage, pickDateTime } from '../helpers/browser-session.ts';
import { assertAccessible } from '../helpers/dashboard.ts';
import { addMember, as, createProject, PASSWORD, type Session } from '../helpers/management.ts';

const VIEWPORT = { viewport: { width: 1400, height: 1000 } };
const localized = { pluginOptions: { i18n: { localized: true } } };
const collection = (singularName: string, pluralName: string, displayName: string, extra: Record<string, unknown>) => ({
  kind: 'collectionType', info: { singularName, pluralName, displayName }, options: { draftAndPublish: true }, ...extra,
});
const MODEL = {
  contentTypes: {
    'api::article.article': collection('article', 'articles', 'Article', { ...localized, attributes: { title: { type: 'string', required: true, ...localized } } }),
    'api::author.author': collection('author', 'authors', 'Author', { attributes: { name: { type: 'string', required: true, minLength: 2 } } }),
  },
  components: {},
};
const ARTICLE = 'api::article.article';
const AUTHOR = 'api::author.author';
const PARIS = 'Europe/Paris';
const TEMPLATE = 'https://site.example/preview/{type}/{documentId}?locale={locale}&status={status}';
const NOTE = 'Publishes the entry’s draft as it is at publish time.';

/** A schedule as the pages show it: the instant on its zone's clock (en-US), the zone named. */
const zoned = (at: Date | string, zone: string) => `${new Date(at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: zone })} (${zone})`;
/** A release's publish time as the pages show it (the browser runs in en-US, UTC). */
const shown = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
/** `ms` from now, to the second (the pickers' precision). */
const fromNow = (ms: number) => new Date(Math.ceil((Date.now() + ms) / 1000) * 1000);

type Row = [entry: string, action: string, validity: string];

describe('dashboard releases, scheduling and preview in a browser', () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let consoleErrors: () => string[];
  let owner: Session;
  let viewer: Session;
  let slug: string;
  let apiKey: string;
  let releaseId: number;
  const docs: Record<string, string> = {};

  async function signupNamed(email: string, name: string): Promise<Session> {
    const res = await t.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email, password: PASSWORD, name } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json();
  }
  const admin = () => as(t, owner);
  async function content(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
    return t.inject({ method, url: `/p/${slug}${url}`, payload: payload as object, headers: { authorization: `Bearer ${apiKey}` } });
  }
  /** A document written through the content API (a draft unless `published`): its documentId. */
  async function write(plural: string, data: Record<string, unknown>, options: { id?: string; locale?: string; published?: boolean } = {}) {
    const query = `?status=${options.published ? 'published' : 'draft'}${options.locale ? `&locale=${options.locale}` : ''}`;
    const res = await content(options.id ? 'PUT' : 'POST', `/api/${plural}${options.id ? `/${options.id}` : ''}${query}`, { data });
    assert.equal(res.statusCode, options.id ? 200 : 201, res.body);
    return res.json().data.documentId as string;
  }
  const isPublished = async (plural: string, id: string, locale?: string) =>
    (await content('GET', `/api/${plural}/${id}?status=published${locale ? `&locale=${locale}` : ''}`)).statusCode === 200;
  async function addAction(release: number, body: Record<string, unknown>) {
    const res = await admin().post(`/v1/projects/${slug}/releases/${release}/actions`, body);
    assert.equal(res.statusCode, 201, res.body);
  }
  const releaseJson = async (id: number) => (await admin().get(`/v1/projects/${slug}/releases/${id}`)).json().data;
  /** Waits until `read()` answers `expected` (a change that lands in the background). */
  async function eventually<T>(read: () => Promise<T>, expected: T, tries = 100) {
    for (let i = 0; i < tries && JSON.stringify(await read()) !== JSON.stringify(expected); i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(await read(), expected);
  }

  const releasesUrl = () => `${origin}/projects/${slug}/releases`;
  const releaseUrl = (id: number) => `${releasesUrl()}/${id}`;
  const editorUrl = (uid: string, id: string, locale?: string) => `${origin}/projects/${slug}/content/${uid}/${id}${locale ? `?locale=${locale}` : ''}`;
  const toast = (p: Page, text: string) => p.locator('.mantine-Notification-root').filter({ hasText: text }).first().waitFor();
  const dialog = (p: Page, name: string) => p.getByRole('dialog', { name });
  const statusBadge = (p: Page) => p.locator('h2 + [data-release-status]');
  const schedule = (p: Page) => p.getByTestId('release-schedule');
  const hasText = (locator: Locator, text: string) => eventually(() => locator.textContent(), text);
  /** The release page's groups (type · locale) in order. */
  const groups = (p: Page) => p.locator('section[aria-label]').locator('h3').allTextContents();
  /** Every entry row: its name, its action (the chosen one, or the text of a read-only row) and its validity. */
  const rows = (p: Page) => p.locator('tr[data-action-id]').evaluateAll((trs) => trs.map((tr) => {
    const cells = [...tr.querySelectorAll('td')];
    const chosen = cells[1]?.querySelector('input[type=radio]:checked')?.getAttribute('value');
    const action = chosen ? `${chosen} (switchable)` : cells[1]?.querySelector('p')?.textContent ?? '';
    return [cells[0]?.textContent ?? '', action, cells[2]?.textContent ?? ''];
  })) as Promise<Row[]>;
  const row = (p: Page, entry: string) => p.locator('tr[data-action-id]').filter({ has: p.getByText(entry, { exact: true }) });

  before(async () => {
    t = await startTestApp({ env: { SCHEDULER: 'true' } });
    origin = await listen(t);
    owner = await signupNamed('owner@releases.test', 'Ada Owner');
    viewer = await signupNamed('viewer@releases.test', 'Vic Viewer');
    const project = await createProject(t, owner, { name: 'Releases' });
    slug = project.slug;
    assert.equal((await admin().post(`/v1/projects/${slug}/locales`, { code: 'fr' })).statusCode, 201);
    const pushed = await admin().put(`/v1/projects/${slug}/schema`, MODEL);
    assert.equal(pushed.statusCode, 200, pushed.body);
    const token = await admin().post(`/v1/projects/${slug}/api-tokens`, { name: 'Importer', type: 'full-access' });
    assert.equal(token.statusCode, 201, token.body);
    apiKey = token.json().accessKey;
    const preview = await admin().put(`/v1/projects/${slug}/settings/preview`, { draftAccess: 'find', urls: { [ARTICLE]: TEMPLATE } });
    assert.equal(preview.statusCode, 200, preview.body);
    await addMember(t, project.id, viewer, 'viewer');

    docs.article = await write('articles', { title: 'Spring article' });
    await write('articles', { title: 'Article de printemps' }, { id: docs.article, locale: 'fr' });
    docs.ada = await write('authors', { name: 'Ada Lovelace' }, { published: true });
    docs.x = await write('authors', { name: 'X' });
    docs.drop = await write('articles', { title: 'Draft to drop' });

    browser = await launchBrowser();
    ({ context, page, consoleErrors } = await openPage(browser, VIEWPORT));
    await logIn(page, origin, 'owner@releases.test');
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('creates a release, schedules it in a time zone and unschedules it', async () => {
    await page.goto(releasesUrl());
    await page.getByRole('heading', { name: 'Releases', level: 2 }).waitFor();
    await page.getByText('No pending releases. Create one to publish several entries together.').waitFor();
    assert.equal(await page.getByRole('tab', { name: 'Pending (0)' }).getAttribute('aria-selected'), 'true');
    await assertAccessible(page, 'no releases');

    await page.getByRole('button', { name: 'New release' }).click();
    const create = dialog(page, 'New release');
    await create.getByLabel('Name').fill('Spring launch');
    await assertAccessible(page, 'new release form');
    await create.getByRole('button', { name: 'Create release' }).click();
    await page.waitForURL(/\/releases\/\d+$/);
    releaseId = Number(/(\d+)$/.exec(page.url())![1]);
    await page.getByRole('heading', { name: 'Spring launch', level: 2 }).waitFor();
    await hasText(statusBadge(page), 'Empty');
    assert.equal(await schedule(page).textContent(), 'Not scheduled');
    await page.getByText('No entries yet. Open an entry in the content manager and use Add to release.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Publish now' }).isDisabled(), true);
    await assertAccessible(page, 'empty release');

    // A schedule on Paris's wall clock, an hour from now.
    const at = fromNow(3_600_000);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const edit = dialog(page, 'Edit release');
    await edit.getByLabel('Schedule the release').check();
    await chooseOption(page, edit.getByRole('combobox', { name: 'Time zone' }), PARIS);
    await pickDateTime(page, edit.getByRole('button', { name: 'Date and time' }), at, PARIS);
    await assertAccessible(page, 'release schedule form');
    await edit.getByRole('button', { name: 'Save' }).click();
    await hasText(schedule(page), `Scheduled for ${zoned(at, PARIS)}`);
    const stored = await releaseJson(releaseId);
    assert.deepEqual([stored.scheduledAt, stored.timezone], [at.toISOString(), PARIS]);
    await assertAccessible(page, 'scheduled release');

    await page.getByRole('button', { name: 'Unschedule' }).click();
    await hasText(schedule(page), 'Not scheduled');
    const unscheduled = await releaseJson(releaseId);
    assert.deepEqual([unscheduled.scheduledAt, unscheduled.timezone], [null, null]);
  });

  it('adds entries from their editor: one to publish, one to unpublish', async () => {
    await page.goto(editorUrl(ARTICLE, docs.article!, 'en'));
    await page.getByRole('button', { name: 'Add to release' }).click();
    const add = dialog(page, 'Add to release');
    await chooseOption(page, add.getByRole('combobox', { name: 'Release' }), 'Spring launch');
    assert.equal(await add.getByRole('radio', { name: 'Publish', exact: true }).isChecked(), true);
    await add.getByText('The release publishes the entry’s draft as it is at publish time, later edits included.').waitFor();
    await assertAccessible(page, 'add to release');
    await add.getByRole('button', { name: 'Add', exact: true }).click();
    await toast(page, 'Added to “Spring launch”');
    await add.waitFor({ state: 'hidden' });

    await page.goto(editorUrl(AUTHOR, docs.ada!));
    await page.getByRole('button', { name: 'Add to release' }).click();
    await chooseOption(page, add.getByRole('combobox', { name: 'Release' }), 'Spring launch');
    await add.getByRole('radio', { name: 'Unpublish' }).check();
    await add.getByRole('button', { name: 'Add', exact: true }).click();
    await toast(page, 'Added to “Spring launch”');

    for (const [contentType, entryDocumentId, locale] of [[ARTICLE, docs.article, 'fr'], [AUTHOR, docs.x, null], [ARTICLE, docs.drop, 'en']]) {
      await addAction(releaseId, { contentType, entryDocumentId, locale, type: 'publish' });
    }
  });

  it('groups the entries by type and locale with their validity; switches and removes actions', async () => {
    await page.goto(releaseUrl(releaseId));
    await hasText(statusBadge(page), 'Blocked');
    await eventually(() => groups(page), ['Article · English (en)', 'Article · French (fr)', 'Author']);
    assert.deepEqual(await rows(page), [
      ['Spring article', 'publish (switchable)', 'Ready'],
      ['Draft to drop', 'publish (switchable)', 'Ready'],
      ['Article de printemps', 'publish (switchable)', 'Ready'],
      ['Ada Lovelace', 'unpublish (switchable)', 'Ready'],
      // The reason the publishing write would get (the action's entryError).
      ['X', 'publish (switchable)', 'Blockedname must be at least 2 characters'],
    ]);
    // Next to each publish action: its draft goes out as it is then.
    assert.equal(await page.getByText(NOTE, { exact: true }).count(), 4);
    assert.equal(await row(page, 'Ada Lovelace').getByText(NOTE).count(), 0);
    await page.getByText('Some entries cannot be published as they are').waitFor();
    assert.equal(await page.getByText('5 entries').count(), 1);
    await assertAccessible(page, 'blocked release');

    // Unpublishing needs nothing of the draft: X is valid then, and the release ready.
    await row(page, 'X').getByText('Unpublish', { exact: true }).click();
    await hasText(statusBadge(page), 'Ready');
    await hasText(row(page, 'X').locator('td').nth(2), 'Ready');
    await row(page, 'X').getByText('Publish', { exact: true }).click();
    await hasText(statusBadge(page), 'Blocked');

    await page.getByRole('button', { name: 'Remove Draft to drop from the release' }).click();
    await eventually(() => page.locator('tr[data-action-id]').count(), 4);
    await page.getByText('4 entries').waitFor();
    assert.equal((await releaseJson(releaseId)).actions.meta.count, 4);
  });

  it('Publish now names the entry that fails; fixed in its editor, the release publishes and is done', async () => {
    await page.getByRole('button', { name: 'Publish now' }).click();
    const confirm = dialog(page, 'Publish now');
    assert.equal(await confirm.locator('.mantine-Text-root').first().textContent(),
      'Every entry of “Spring launch” is published or unpublished now, all together: if one of them cannot be, nothing changes. Publish actions publish each entry’s draft as it is now.');
    await assertAccessible(page, 'publish confirmation');
    await confirm.getByRole('button', { name: 'Publish now' }).click();
    const failure = page.getByRole('alert').filter({ hasText: 'The release could not be published' });
    await failure.waitFor();
    const reason = 'name must be at least 2 characters';
    assert.deepEqual(await failure.getByRole('listitem').allTextContents(), [`Author · X: ${reason}`]);
    await hasText(statusBadge(page), 'Failed');
    await hasText(row(page, 'X').locator('td').nth(2), `Blocked${reason}`);
    await assertAccessible(page, 'failed publish');
    // Nothing changed.
    assert.deepEqual([await isPublished('articles', docs.article!, 'en'), await isPublished('authors', docs.ada!), await isPublished('authors', docs.x!)], [false, true, false]);

    // Fixed in the editor.
    await row(page, 'X').getByRole('link', { name: 'X' }).click();
    const name = page.getByLabel(/^name( \*)?$/);
    await eventually(() => name.inputValue(), 'X');
    await name.fill('Xavier');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(page, 'Saved');
    await page.goto(releaseUrl(releaseId));
    await eventually(() => row(page, 'Xavier').locator('td').nth(2).textContent(), 'Ready');
    await page.getByText('The last publish failed').waitFor();

    await page.getByRole('button', { name: 'Publish now' }).click();
    await confirm.getByRole('button', { name: 'Publish now' }).click();
    await toast(page, '“Spring launch” published');
    await hasText(statusBadge(page), 'Done');
    const done = await releaseJson(releaseId);
    assert.equal(await schedule(page).textContent(), `Published ${shown(done.releasedAt)}`);
    await page.getByText('This release is done: it cannot change any more.').waitFor();
    // Read-only: no actions to take, no switches; validity is no longer shown.
    for (const name of ['Edit', 'Delete', 'Publish now', 'Unschedule']) assert.equal(await page.getByRole('button', { name, exact: true }).count(), 0);
    assert.equal(await page.getByRole('button', { name: /^Remove / }).count(), 0);
    assert.deepEqual(await rows(page), [
      ['Spring article', 'Publish', ''], ['Article de printemps', 'Publish', ''], ['Ada Lovelace', 'Unpublish', ''], ['Xavier', 'Publish', ''],
    ]);
    await assertAccessible(page, 'done release');

    // The documents as the content API reads them now.
    assert.deepEqual([
      await isPublished('articles', docs.article!, 'en'), await isPublished('articles', docs.article!, 'fr'),
      await isPublished('authors', docs.ada!), await isPublished('authors', docs.x!), await isPublished('articles', docs.drop!, 'en'),
    ], [true, true, false, true, false]);

    await page.goto(`${releasesUrl()}?status=done`);
    const list = page.getByRole('table', { name: 'Done releases' });
    await list.waitFor();
    assert.deepEqual(await list.locator('tbody td').allTextContents(), ['Spring launch', 'Done', '4', `Published ${shown(done.releasedAt)}`]);
    assert.equal(await page.getByRole('tab', { name: 'Pending (0)' }).count(), 1);
    await assertAccessible(page, 'done releases');
  });

  it('schedules an entry from its editor: one cancelled, the other runs at its time', async () => {
    docs.timed = await write('articles', { title: 'Timed article' });
    await page.goto(editorUrl(ARTICLE, docs.timed, 'en'));
    await hasText(page.locator('h2 + [data-status]'), 'Draft');
    const scheduled = page.getByRole('region', { name: 'Scheduled' });
    const later = fromNow(3_600_000);
    const soon = fromNow(25_000);
    for (const at of [later, soon]) {
      await page.getByRole('button', { name: 'Schedule', exact: true }).click();
      const form = dialog(page, 'Schedule');
      await chooseOption(page, form.getByRole('combobox', { name: 'Time zone' }), PARIS);
      await pickDateTime(page, form.getByRole('button', { name: 'Date and time' }), at, PARIS);
      if (at === later) await assertAccessible(page, 'schedule form');
      await form.getByRole('button', { name: 'Schedule', exact: true }).click();
      await toast(page, `Publish scheduled for ${zoned(at, PARIS)}`);
      await form.waitFor({ state: 'hidden' });
    }
    await eventually(() => scheduled.getByRole('listitem').allTextContents(), [`Publish on ${zoned(soon, PARIS)}Cancel`, `Publish on ${zoned(later, PARIS)}Cancel`]);
    await assertAccessible(page, 'scheduled actions');

    await scheduled.getByRole('button', { name: `Cancel: Publish on ${zoned(later, PARIS)}` }).click();
    await eventually(() => scheduled.getByRole('listitem').allTextContents(), [`Publish on ${zoned(soon, PARIS)}Cancel`]);
    const listed = (await admin().get(`/v1/projects/${slug}/scheduled-actions?documentId=${docs.timed}`)).json().data;
    assert.deepEqual(listed.map((a: { status: string; scheduledFor: { datetime: string } }) => [a.status, a.scheduledFor.datetime]).sort(),
      [['canceled', later.toISOString()], ['scheduled', soon.toISOString()]].sort());

    // It runs (the scheduler, within 5 s of its time): the editor shows the entry published.
    await page.locator('h2 + [data-status="published"]').waitFor({ timeout: 60_000 });
    await scheduled.waitFor({ state: 'detached' });
    assert.equal(await isPublished('articles', docs.timed, 'en'), true);
  });

  it('a scheduled release publishes by itself at its time', async () => {
    docs.launch = await write('articles', { title: 'Launch day' });
    const at = fromNow(30_000);
    await page.goto(releasesUrl());
    await page.getByRole('button', { name: 'New release' }).click();
    const create = dialog(page, 'New release');
    await create.getByLabel('Name').fill('Timed launch');
    await create.getByLabel('Schedule the release').check();
    await chooseOption(page, create.getByRole('combobox', { name: 'Time zone' }), PARIS);
    await pickDateTime(page, create.getByRole('button', { name: 'Date and time' }), at, PARIS);
    await create.getByRole('button', { name: 'Create release' }).click();
    await page.waitForURL(/\/releases\/\d+$/);
    const id = Number(/(\d+)$/.exec(page.url())![1]);
    await addAction(id, { contentType: ARTICLE, entryDocumentId: docs.launch, locale: 'en', type: 'publish' });
    await page.reload();
    await hasText(statusBadge(page), 'Ready');
    assert.equal(await schedule(page).textContent(), `Scheduled for ${zoned(at, PARIS)}`);

    await page.goto(releasesUrl());
    await eventually(() => page.getByRole('table', { name: 'Pending releases' }).locator('tbody td').allTextContents(),
      ['Timed launch', 'Ready', '1', `Scheduled for ${zoned(at, PARIS)}`]);
    await assertAccessible(page, 'pending releases');

    // The page reads it again every 2 s from a minute before its time.
    await page.goto(releaseUrl(id));
    await page.locator('h2 + [data-release-status="done"]').waitFor({ timeout: 60_000 });
    const done = await releaseJson(id);
    assert.ok(Date.parse(done.releasedAt) >= at.getTime(), `${done.releasedAt} is not before ${at.toISOString()}`);
    assert.equal(await schedule(page).textContent(), `Published ${shown(done.releasedAt)}`);
    assert.equal(await isPublished('articles', docs.launch, 'en'), true);
  });

  it('Open preview opens the type’s URL filled for the entry; a type without one says so', async () => {
    await context.route('https://site.example/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Preview</title>' }));
    await page.goto(editorUrl(ARTICLE, docs.article!, 'fr'));
    const open = page.getByRole('link', { name: 'Open preview' });
    const expected = `https://site.example/preview/article/${docs.article}?locale=fr&status=draft`;
    await eventually(() => open.getAttribute('href'), expected);
    assert.equal(await open.getAttribute('target'), '_blank');
    const [popup] = await Promise.all([context.waitForEvent('page'), open.click()]);
    await popup.waitForLoadState();
    assert.equal(popup.url(), expected);
    await popup.close();
    await assertAccessible(page, 'editor with preview');

    await page.goto(editorUrl(AUTHOR, docs.ada!));
    const off = page.getByRole('button', { name: 'Open preview' });
    await eventually(() => off.getAttribute('aria-describedby').then((id) => (id ? page.locator(`[id="${id}"]`).textContent() : null)),
      'This content type has no preview URL: set its template in the project’s preview settings.');
    assert.equal(await off.getAttribute('aria-disabled'), 'true');
    await assertAccessible(page, 'editor without preview');
  });

  it('a viewer sees releases read-only', async () => {
    const pending = (await admin().post(`/v1/projects/${slug}/releases`, { name: 'Viewer check' })).json().data;
    await addAction(pending.id, { contentType: AUTHOR, entryDocumentId: docs.ada, type: 'publish' });
    const { context: other, page: view, consoleErrors: viewerErrors } = await openPage(browser, VIEWPORT);
    await logIn(view, origin, 'viewer@releases.test');
    await view.goto(`${origin}/projects/${slug}/releases`);
    await view.getByRole('table', { name: 'Pending releases' }).waitFor();
    assert.equal(await view.getByRole('button', { name: 'New release' }).isDisabled(), true);
    await view.getByRole('link', { name: 'Viewer check' }).click();
    await hasText(statusBadge(view), 'Ready');
    assert.deepEqual(await rows(view), [['Ada Lovelace', 'Publish', 'Ready']]);
    for (const name of ['Edit', 'Delete', 'Publish now']) assert.equal(await view.getByRole('button', { name, exact: true }).count(), 0);
    assert.equal(await view.getByRole('button', { name: /^Remove / }).count(), 0);
    await assertAccessible(view, 'viewer release');

    await view.goto(editorUrl(ARTICLE, docs.article!, 'en'));
    await view.getByRole('link', { name: 'Open preview' }).waitFor();
    for (const name of ['Add to release', 'Schedule']) assert.equal(await view.getByRole('button', { name, exact: true }).count(), 0);
    await assertAccessible(view, 'viewer editor');
    assert.deepEqual(viewerErrors(), []);
    await other.close();
  });

  it('logs no console errors but the refused publish', () => {
    assert.deepEqual(consoleErrors(), [
      `console: Failed to load resource: the server responded with a status of 400 (Bad Request) ${origin}/v1/projects/${slug}/releases/${releaseId}/publish`,
    ]);
  });
});
