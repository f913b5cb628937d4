// The media library in a real Chromium: two images dropped on the page upload with a progress
// bar each (the upload is throttled so progress is seen), their thumbnails appear from the
// generated formats without a reload, alternative text, focal point and the URL; folders
// (create, move a file in, open, delete); search and type filter; a failed upload retried and
// one cancelled; a file in use warns before deletion; a file picked in the content editor's
// media field and published. axe-core on each state, no console error.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, CDPSession, Locator, Page, Response, Route } from 'playwright-core';
import sharp from 'sharp';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { listen, logIn, openPage, screenshot } from '../helpers/browser-session.ts';
import { assertAccessible } from '../helpers/dashboard.ts';
import { addMember, as, createProject, signup, type Session } from '../helpers/management.ts';

const VIEWPORT = { viewport: { width: 1280, height: 900 } };
const EMAIL = 'media@library.test';

const MODEL = {
  contentTypes: {
    'api::article.article': {
      kind: 'collectionType',
      info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true },
      attributes: { title: { type: 'string' }, cover: { type: 'media', multiple: false, allowedTypes: ['images'] } },
    },
  },
  components: {},
};

/** A tinted PNG of noise (so it does not compress): large enough to take a moment on a throttled link. */
const noisePng = (width: number, height: number, tint = '#2f9e8f') =>
  sharp({ create: { width, height, channels: 3, background: 'white', noise: { type: 'gaussian', mean: 160, sigma: 30 } } }).tint(tint).png().toBuffer();

type Json = Record<string, any>;

/** An image element as the page has it (this file is type-checked without the DOM library). */
type Img = { complete: boolean; naturalWidth: number };

describe('dashboard media library in a browser', () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  let consoleErrors: () => string[];
  let owner: Session;
  let projectId: number;
  let slug: string;
  let token: string;
  let images: { first: Buffer; second: Buffer };

  const rest = async (method: string, url: string, payload?: unknown) =>
    t.inject({ method: method as 'GET', url: `/p/${slug}${url}`, payload: payload as object, headers: { authorization: `Bearer ${token}` } });
  const filesNamed = async (name: string) =>
    ((await rest('GET', `/api/upload/files?filters[name][$eq]=${encodeURIComponent(name)}`)).json() as Json[]);
  const folderTile = (name: string) => page.getByTestId('folder-tile').filter({ hasText: name });
  const card = (name: string) => page.getByTestId('media-file').filter({ has: page.getByText(name, { exact: true }) });
  const upload = (files: Array<{ name: string; mimeType: string; buffer: Buffer }>) => page.getByTestId('media-file-input').setInputFiles(files);
  const throttle = (bytesPerSecond: number) => cdp.send('Network.emulateNetworkConditions', {
    offline: false, latency: bytesPerSecond ? 20 : 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond || -1,
  });
  /** The names of the files shown, in order. */
  const names = (within: Page | Locator = page) => within.getByTestId('media-file').evaluateAll((els) => els.map((e) => e.getAttribute('data-name')));
  /** Poll from here (the page's CSP forbids the string evaluation waitForFunction polls with). */
  async function until(what: string, check: () => Promise<unknown>, ms = 20_000): Promise<void> {
    for (const end = Date.now() + ms; !(await check()); await new Promise((r) => setTimeout(r, 50))) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    }
  }
  /** Every value the file's progress bar shows until its upload ends. */
  async function watchProgress(name: string): Promise<number[]> {
    const bar = page.getByRole('progressbar', { name: `Upload of ${name}` });
    await bar.waitFor();
    const seen: number[] = [];
    for (let i = 0; i < 600; i++) {
      const value = Number(await bar.getAttribute('aria-valuenow'));
      if (seen.at(-1) !== value) seen.push(value);
      if (value === 100) break;
      await page.waitForTimeout(25);
    }
    return seen;
  }
  async function openDetails(name: string) {
    await card(name).getByRole('button').click();
    await page.getByRole('dialog', { name: `Details of ${name}` }).waitFor();
    return page.getByRole('dialog', { name: `Details of ${name}` });
  }
  async function closeDetails() {
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  }

  before(async () => {
    // Upload answers do not wait for the formats: the page must pick them up by itself.
    t = await startTestApp({ env: { MEDIA_PROCESSING_WAIT_MS: '0' } });
    origin = await listen(t);
    owner = await signup(t, EMAIL);
    ({ id: projectId, slug } = await createProject(t, owner, { name: 'Photo Blog' }));
    const admin = as(t, owner);
    assert.equal((await admin.put(`/v1/projects/${slug}/schema`, MODEL)).statusCode, 200);
    token = (await admin.post(`/v1/projects/${slug}/api-tokens`, { name: 'test', type: 'full-access' })).json().accessKey;
    images = { first: await noisePng(900, 600), second: await noisePng(640, 480, '#e8590c') };
    browser = await launchBrowser();
    ({ context, page, consoleErrors } = await openPage(browser, VIEWPORT));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    cdp = await context.newCDPSession(page);
    await logIn(page, origin, EMAIL);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('opens the empty library from the project navigation', async () => {
    await page.goto(`${origin}/projects/${slug}`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Media library' }).click();
    await page.waitForURL(`${origin}/projects/${slug}/media`);
    await page.getByText('No files yet.').waitFor();
    await page.getByRole('button', { name: 'Choose files' }).waitFor();
    await assertAccessible(page, 'media library (empty)');
  });

  it('uploads two images with a progress bar each; their thumbnails appear from the formats without a reload', async () => {
    await throttle(400_000);
    // The bodies are read as the answers come; awaited below (a body may still be on its way).
    const answering: Array<Promise<Json[]>> = [];
    const onResponse = (res: Response) => {
      if (res.request().method() === 'POST' && new URL(res.url()).pathname === `/p/${slug}/api/upload`) answering.push(res.json());
    };
    page.on('response', onResponse);
    await upload([
      { name: 'first.png', mimeType: 'image/png', buffer: images.first },
      { name: 'second.png', mimeType: 'image/png', buffer: images.second },
    ]);
    const [first, second] = await Promise.all([watchProgress('first.png'), watchProgress('second.png')]);
    await throttle(0);
    // Real progress: values between 0 and 100 were shown on the way.
    assert.ok(first.some((v) => v > 0 && v < 100), `first.png progress: ${first.join(', ')}`);
    assert.ok(second.some((v) => v > 0 && v < 100), `second.png progress: ${second.join(', ')}`);
    await page.getByText('Uploads (2 of 2 finished)').waitFor();
    page.off('response', onResponse);
    const answers = await Promise.all(answering);
    // The upload answers came before the formats: the page found them later by itself.
    assert.deepEqual(answers.map((a) => [a.length, a[0]!.formats]), [[1, null], [1, null]]);
    assert.equal(await page.getByTestId('upload-item').and(page.locator('[data-status="done"]')).count(), 2);
    for (const name of ['first.png', 'second.png']) {
      const thumbnail = card(name).getByTestId('thumbnail');
      await thumbnail.waitFor({ timeout: 20_000 });
      assert.match((await thumbnail.getAttribute('src'))!, new RegExp(`^/p/${slug}/uploads/thumbnail_${name.replace('.png', '')}_[0-9a-f]{10}\\.png$`));
      // The browser loaded it (the CSP allows it, the file is served).
      await until(`${name}'s thumbnail loaded`, () => thumbnail.evaluate((img) => (img as unknown as Img).complete && (img as unknown as Img).naturalWidth > 0));
    }
    const [stored] = await filesNamed('first.png');
    assert.deepEqual(Object.keys(stored!.formats).sort(), ['medium', 'small', 'thumbnail']);
    await page.getByRole('button', { name: 'Clear finished' }).click();
    await assertAccessible(page, 'media library (two images)');
  });

  it('sets the alternative text and focal point, and copies the URL', async () => {
    const dialog = await openDetails('first.png');
    await dialog.getByLabel('Alternative text').fill('A field of static');
    // Click on the image: the focal point is where the click was, in percent.
    const image = dialog.getByTestId('focal-point-image');
    // Its box is only final once the picture is in (a click before would land on a 0×0 image).
    await until('the focal point image loaded', () => image.evaluate((img) => (img as unknown as Img).complete && (img as unknown as Img).naturalWidth > 0));
    const box = (await image.boundingBox())!;
    await image.click({ position: { x: box.width * 0.25, y: box.height * 0.75 } });
    await dialog.getByTestId('focal-point-marker').waitFor();
    assert.equal(Math.round(Number(await dialog.getByLabel('Focal point X (%)').inputValue())), 25);
    assert.equal(Math.round(Number(await dialog.getByLabel('Focal point Y (%)').inputValue())), 75);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Saved.').waitFor();
    const [file] = await filesNamed('first.png');
    const res = await rest('GET', `/api/upload/files/${file!.id}`);
    assert.equal(res.json().alternativeText, 'A field of static');
    assert.equal(Math.round(res.json().focalPoint.x), 25);
    assert.equal(Math.round(res.json().focalPoint.y), 75);

    await dialog.getByRole('button', { name: 'Copy URL' }).click();
    await dialog.getByRole('button', { name: 'Copied' }).waitFor();
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), `${origin}/p/${slug}${file!.url}`);
    await assertAccessible(page, 'file details');
    await closeDetails();
  });

  it('creates a folder, moves a file into it and finds it there', async () => {
    await page.getByRole('button', { name: 'New folder' }).click();
    await page.getByRole('dialog', { name: 'New folder' }).getByLabel('Folder name').fill('Holidays');
    await page.getByRole('button', { name: 'Create folder' }).click();
    await folderTile('Holidays').waitFor();

    const dialog = await openDetails('second.png');
    await dialog.getByRole('combobox', { name: 'Folder' }).click();
    await page.getByRole('option', { name: 'Holidays' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Saved.').waitFor();
    await closeDetails();
    await card('second.png').waitFor({ state: 'detached' });
    // The folder list refetches on its own after the move: wait for its new count.
    await folderTile('Holidays').filter({ hasText: '1 file' }).waitFor();
    assert.equal(await folderTile('Holidays').textContent(), 'Holidays1 file');
    assert.equal(await page.getByRole('button', { name: 'Holidays 1 file', exact: true }).count(), 1);

    await folderTile('Holidays').click();
    await page.waitForURL(/\/media\?folder=\d+$/);
    await card('second.png').waitFor();
    assert.equal(await page.getByTestId('media-file').count(), 1);
    assert.equal(await page.getByRole('navigation', { name: 'Folder' }).textContent(), 'Media library/Holidays');
    await assertAccessible(page, 'folder Holidays');
    const folderId = Number(new URL(page.url()).searchParams.get('folder'));
    const [moved] = await filesNamed('second.png');
    const listed = (await as(t, owner).get(`/v1/projects/${slug}/media/files?folder=${folderId}`)).json();
    assert.deepEqual(listed.files.map((f: Json) => [f.id, f.folder]), [[moved!.id, folderId]]);
    await page.getByRole('navigation', { name: 'Folder' }).getByRole('button', { name: 'Media library' }).click();
    await card('first.png').waitFor();
  });

  it('searches every folder by name and filters by type; the list view shows the same files', async () => {
    await upload([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('some notes') }]);
    await card('notes.txt').waitFor();
    await page.getByLabel('Search files').fill('SECOND');
    await page.getByText('Results for “SECOND” in every folder').waitFor();
    await card('first.png').waitFor({ state: 'detached' });
    assert.deepEqual(await names(), ['second.png']);
    await page.getByLabel('Search files').fill('');
    await card('first.png').waitFor();

    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Other files' }).click();
    await card('first.png').waitFor({ state: 'detached' });
    assert.deepEqual(await names(), ['notes.txt']);
    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Images' }).click();
    await card('notes.txt').waitFor({ state: 'detached' });
    assert.deepEqual(await names(), ['first.png']);
    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'All types' }).click();

    await page.getByRole('radiogroup', { name: 'View' }).getByText('List', { exact: true }).click();
    await page.getByRole('table', { name: 'Files' }).waitFor();
    await page.getByRole('combobox', { name: 'Sort by' }).click();
    await page.getByRole('option', { name: 'Name (A to Z)' }).click();
    await until('the files sorted by name', async () => (await names()).join() === 'first.png,notes.txt');
    await assertAccessible(page, 'list view');
    await page.getByRole('radiogroup', { name: 'View' }).getByText('Grid', { exact: true }).click();
    await page.getByRole('list', { name: 'Files' }).waitFor();
  });

  it('a failed upload can be retried; an upload can be cancelled', async () => {
    // The first request for retry.png fails as a dropped connection would.
    let failures = 0;
    const failOnce = async (route: Route) => {
      if (route.request().method() === 'POST' && failures === 0) {
        failures++;
        return route.abort('connectionreset');
      }
      return route.fallback();
    };
    await page.route('**/api/upload', failOnce);
    await upload([{ name: 'retry.png', mimeType: 'image/png', buffer: await noisePng(300, 200, '#4c6ef5') }]);
    const item = page.getByTestId('upload-item').filter({ hasText: 'retry.png' });
    await item.and(page.locator('[data-status="failed"]')).waitFor();
    await item.getByRole('alert').waitFor();
    assert.deepEqual(await filesNamed('retry.png'), []);
    await assertAccessible(page, 'failed upload');
    await item.getByRole('button', { name: 'Retry retry.png' }).click();
    await item.and(page.locator('[data-status="done"]')).waitFor();
    await page.unroute('**/api/upload', failOnce);
    assert.equal(failures, 1);
    await card('retry.png').waitFor();
    assert.equal((await filesNamed('retry.png')).length, 1);
    // `make screenshots` keeps the library (a folder, images with their thumbnails, a file) in docs/screenshots.
    if (process.env.UPDATE_SCREENSHOTS) {
      await card('retry.png').getByTestId('thumbnail').waitFor();
      await until('every thumbnail loaded', () => page.getByTestId('thumbnail').evaluateAll((imgs) => imgs.every((img) => (img as unknown as Img).complete && (img as unknown as Img).naturalWidth > 0)));
      await screenshot(page, 'media-library', { fullPage: true });
    }

    await throttle(100_000);
    await upload([{ name: 'cancel.png', mimeType: 'image/png', buffer: await noisePng(900, 700) }]);
    const bar = page.getByRole('progressbar', { name: 'Upload of cancel.png' });
    await until('cancel.png under way', async () => Number(await bar.getAttribute('aria-valuenow')) > 0);
    await page.getByRole('button', { name: 'Cancel cancel.png' }).click();
    await bar.waitFor({ state: 'detached' });
    await throttle(0);
    await page.waitForTimeout(500);
    assert.deepEqual(await filesNamed('cancel.png'), []);
    await assertAccessible(page, 'after cancel');
  });

  it('shows viewers the library read-only', async () => {
    await addMember(t, projectId, await signup(t, 'viewer@library.test'), 'viewer');
    const { context: viewerContext, page: viewerPage, consoleErrors: viewerErrors } = await openPage(browser, VIEWPORT);
    try {
      await logIn(viewerPage, origin, 'viewer@library.test');
      await viewerPage.goto(`${origin}/projects/${slug}/media`);
      await viewerPage.getByTestId('media-file').filter({ hasText: 'first.png' }).getByRole('button').click();
      const dialog = viewerPage.getByRole('dialog', { name: 'Details of first.png' });
      await dialog.getByLabel('Alternative text').waitFor();
      assert.equal(await dialog.getByLabel('Alternative text').isDisabled(), true);
      for (const name of ['Save', 'Delete file', 'Replace file']) assert.equal(await dialog.getByRole('button', { name }).count(), 0, name);
      assert.equal(await dialog.getByRole('button', { name: 'Copy URL' }).count(), 1);
      for (const name of ['Choose files', 'New folder']) assert.equal(await viewerPage.getByRole('button', { name }).count(), 0, name);
      await assertAccessible(viewerPage, 'viewer');
      assert.deepEqual(viewerErrors(), []);
    } finally {
      await viewerContext.close();
    }
  });

  it('picks a file in the content editor\'s media field and publishes the document', async () => {
    await page.goto(`${origin}/projects/${slug}/content/api::article.article/new`);
    await page.getByRole('textbox', { name: 'title' }).fill('Static fields');
    await page.getByRole('button', { name: 'Select media for cover' }).click();
    const picker = page.getByRole('dialog', { name: 'Select media for cover' });
    await picker.waitFor();
    // Only images are allowed: the text file is not offered.
    await picker.getByRole('checkbox', { name: /^first\.png/ }).waitFor();
    assert.deepEqual(await names(picker), ['retry.png', 'first.png']);
    await picker.getByRole('checkbox', { name: /^first\.png/ }).click();
    await assertAccessible(page, 'media picker');
    await picker.getByRole('button', { name: 'Select file' }).click();
    await picker.waitFor({ state: 'detached' });
    await page.getByTestId('picked-media').filter({ hasText: 'first.png' }).waitFor();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Published').first().waitFor();
    const articles = (await rest('GET', '/api/articles?populate=cover')).json().data as Json[];
    const [first] = await filesNamed('first.png');
    assert.deepEqual(articles.map((a) => [a.title, a.cover?.id, a.cover?.alternativeText]), [['Static fields', first!.id, 'A field of static']]);
  });

  it('warns before deleting a file in use, deletes an unused one, and deletes a folder with its files', async () => {
    await page.goto(`${origin}/projects/${slug}/media`);
    let dialog = await openDetails('first.png');
    await dialog.getByRole('button', { name: 'Delete file' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete first.png' });
    await confirm.getByText('This file is still in use').waitFor();
    const usages = await confirm.getByTestId('file-usages').getByRole('listitem').allTextContents();
    assert.deepEqual(usages, ['Static fields (article, cover, draft)', 'Static fields (article, cover, published)']);
    await assertAccessible(page, 'delete warning');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await closeDetails();

    dialog = await openDetails('notes.txt');
    await dialog.getByRole('button', { name: 'Delete file' }).click();
    const confirmNotes = page.getByRole('dialog', { name: 'Delete notes.txt' });
    await confirmNotes.getByText('The file and its formats will be deleted. No document uses it.').waitFor();
    await confirmNotes.getByRole('button', { name: 'Delete file' }).click();
    await card('notes.txt').waitFor({ state: 'detached' });
    assert.deepEqual(await filesNamed('notes.txt'), []);

    await page.getByRole('button', { name: 'Actions for folder Holidays' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirmFolder = page.getByRole('dialog', { name: 'Delete folder Holidays' });
    await confirmFolder.getByText('Its 1 file will be deleted with it, and documents that use those files will no longer show them.').waitFor();
    await confirmFolder.getByRole('button', { name: 'Delete folder' }).click();
    await folderTile('Holidays').waitFor({ state: 'detached' });
    assert.deepEqual(await filesNamed('second.png'), []);
    await assertAccessible(page, 'after deletes');
    // Only the upload made to fail logged an error.
    assert.deepEqual(consoleErrors().filter((e) => !/ERR_CONNECTION_RESET/.test(e)), []);
  });
});
