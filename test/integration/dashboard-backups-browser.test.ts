// Settings → Backups in a real Chromium, against the real backups, exports and restores: back up
// now (the new row running, then done) and download the archive; make an export and download it;
// restore a backup in place after the content changed (the backup's content back through the
// content API, the API token still working) and as a new project (opened from its link, holding
// the content); an editor is told that backups are for owners; a project deleted in Settings is
// listed under "Recently deleted" on the projects page and restored from there, its content API
// answering again. axe-core on each state, no console error.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { listen, logIn, openPage, screenshot } from '../helpers/browser-session.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { assertAccessible } from '../helpers/dashboard.ts';
import { addMember, as, createProject, signup } from '../helpers/management.ts';

const VIEWPORT = { width: 1280, height: 860 };
const MODEL = {
  contentTypes: {
    'api::article.article': {
      kind: 'collectionType', info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: false }, attributes: { title: { type: 'string' }, body: { type: 'text' } },
    },
  },
  components: {},
};
const BACKED_UP = ['Alpha', 'Bravo', 'Charlie'];

/** The page's date formats (en-US, UTC in the test's browser); ICU's narrow spaces read as spaces. */
const spaces = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ');
const dateTime = (iso: string) => spaces(new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }));
const dateOnly = (iso: string) => spaces(new Date(iso).toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' }));
const kb = (bytes: number) => (bytes >= 1024 ** 2 ? `${Math.round(bytes / 1024 ** 2)} MB` : `${Math.round(bytes / 1024)} KB`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface BackupJson { id: string; kind: string; status: string; size: number | null; createdAt: string; expiresAt: string | null; url: string | null }

describe('dashboard backups page in a browser', () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let consoleErrors: () => string[];
  let p: ContentProject;
  let backup: BackupJson;

  const sql = (text: string, values: unknown[]) => t.platform.db.pool.query(compiledQuery({ text, values }));
  const cells = async (row: ReturnType<Page['getByRole']>) => (await row.getByRole('cell').allTextContents()).map(spaces);
  /** The titles of a project's articles through its content API, with `token`. */
  async function titles(slug: string, token: string): Promise<string[]> {
    const res = await t.inject({ method: 'GET', url: `/p/${slug}/api/articles?sort=title&pagination[pageSize]=100`, headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data.map((d: { title: string }) => d.title);
  }
  const fullAccessToken = async (slug: string) =>
    (await p.admin.post(`/v1/projects/${slug}/api-tokens`, { name: `t${Math.random()}`, type: 'full-access' })).json().accessKey as string;
  /** A downloaded file's bytes, after checking its name. */
  async function download(click: () => Promise<void>, name: RegExp): Promise<Buffer> {
    const [file] = await Promise.all([page.waitForEvent('download'), click()]);
    assert.match(file.suggestedFilename(), name);
    return readFile((await file.path())!);
  }

  before(async () => {
    t = await startTestApp();
    origin = await listen(t);
    p = await setupContentProject(t, MODEL);
    // Verified: no banner above the pages (nor in the screenshot).
    await sql('UPDATE platform.accounts SET email_verified_at = now() WHERE id = $1', [p.owner.account.id]);
    for (const title of BACKED_UP) assert.equal((await p.api.post('/api/articles', { data: { title, body: `${title} body` } })).statusCode, 201);
    browser = await launchBrowser();
    ({ page, consoleErrors } = await openPage(browser, { viewport: VIEWPORT }));
    await logIn(page, origin, p.owner.account.email);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('starts empty; "Back up now" shows the new backup running, then done; its download is the gzip archive', async () => {
    await page.goto(`${origin}/projects/${p.slug}`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Backups' }).click();
    await page.waitForURL(`${origin}/projects/${p.slug}/settings/backups`);
    await page.getByText('No backups yet — a backup is taken every day.').waitFor();
    await assertAccessible(page, 'backups (empty)');

    // The list answers slowly for a while, so the running row is seen before the backup ends.
    await page.route('**/v1/projects/*/backups', async (route) => {
      if (route.request().method() === 'GET') await sleep(1500);
      await route.continue();
    });
    await page.getByRole('button', { name: 'Back up now' }).click();
    const table = page.getByRole('table', { name: 'Backups' });
    const row = table.getByRole('row').nth(1);
    await row.locator('[data-status="running"]').waitFor();
    assert.deepEqual((await cells(row)).slice(1, 4), ['Manual', 'Running', '—']);
    await assertAccessible(page, 'backups (running)');
    await page.unrouteAll({ behavior: 'wait' });
    await row.locator('[data-status="done"]').waitFor({ timeout: 60_000 });

    const { backups } = (await p.admin.get(`/v1/projects/${p.slug}/backups`)).json() as { backups: BackupJson[] };
    assert.equal(backups.length, 1);
    backup = backups[0]!;
    assert.equal(backup.status, 'done');
    assert.deepEqual(await cells(row), [dateTime(backup.createdAt), 'Manual', 'Done', kb(backup.size!), dateOnly(backup.expiresAt!), 'DownloadRestore…']);
    assert.equal(await table.getByRole('row').count(), 2);

    const link = row.getByRole('link', { name: `Download the backup of ${dateTime(backup.createdAt)}` });
    // The API's address as seen from the page's origin.
    const href = (await link.getAttribute('href'))!;
    assert.equal(href, `${origin}${new URL(backup.url!).pathname}`);
    const bytes = await download(() => link.click(), new RegExp(`^${p.slug}-backup-\\d{4}-\\d\\d-\\d\\d\\.tar\\.gz$`));
    assert.deepEqual([...bytes.subarray(0, 2)], [0x1f, 0x8b]);
    assert.equal(bytes.length, backup.size);
    // The archive holds the project's articles.
    const tar = gunzipSync(bytes).toString('utf8');
    for (const title of BACKED_UP) assert.match(tar, new RegExp(`"title": ?"${title}"`), title);
    // The link alone (the session cookie) answers with the archive.
    const direct = await page.context().request.get(href);
    assert.equal(direct.status(), 200);
    assert.equal(direct.headers()['content-type'], 'application/gzip');
    await assertAccessible(page, 'backups (done)');
  });

  it('shows a failed daily backup with its reason, and nothing to download or restore', async () => {
    await sql(`INSERT INTO platform.project_archives (id, project_id, kind, status, storage_key, error, created_at, finished_at, expires_at)
               VALUES ('failed1', $1, 'scheduled', 'failed', 'archives/x/failed1.tar.gz', 'the media storage could not be reached',
                       now() - interval '1 day', now() - interval '1 day', now() + interval '6 days')`, [p.id]);
    await page.reload();
    const table = page.getByRole('table', { name: 'Backups' });
    await table.getByText('the media storage could not be reached').waitFor();
    const { backups } = (await p.admin.get(`/v1/projects/${p.slug}/backups`)).json() as { backups: BackupJson[] };
    assert.deepEqual(backups.map((b) => b.id), [backup.id, 'failed1']);
    const failed = backups[1]!;
    const rows = table.getByRole('row');
    assert.equal(await rows.count(), 3);
    assert.deepEqual(await cells(rows.nth(1)), [dateTime(backup.createdAt), 'Manual', 'Done', kb(backup.size!), dateOnly(backup.expiresAt!), 'DownloadRestore…']);
    assert.deepEqual(await cells(rows.nth(2)), [dateTime(failed.createdAt), 'Daily', 'Failedthe media storage could not be reached', '—', dateOnly(failed.expiresAt!), '']);
    assert.equal(await rows.nth(2).getByRole('button').count() + await rows.nth(2).getByRole('link').count(), 0);
    await assertAccessible(page, 'backups (a failed one)');
  });

  it('"Download an export" prepares the export, then offers its archive', async () => {
    await page.getByRole('button', { name: 'Download an export' }).click();
    const ready = page.getByRole('link', { name: 'Download the export' });
    await ready.waitFor({ timeout: 60_000 });
    await page.getByText(/^Ready: \d+ KB, made /).waitFor();
    const bytes = await download(() => ready.click(), new RegExp(`^${p.slug}-export-\\d{4}-\\d\\d-\\d\\d\\.tar\\.gz$`));
    assert.deepEqual([...bytes.subarray(0, 2)], [0x1f, 0x8b]);
    const tar = gunzipSync(bytes).toString('utf8');
    assert.ok(tar.includes('metadata.json'));
    for (const title of BACKED_UP) assert.match(tar, new RegExp(`"title": ?"${title}"`), title);
    const direct = await page.context().request.get((await ready.getAttribute('href'))!);
    assert.equal(direct.status(), 200);
    assert.equal(direct.headers()['content-type'], 'application/gzip');
    assert.equal(await page.getByRole('button', { name: 'Make a new export' }).isEnabled(), true);
    await page.getByText('It loads into a self-hosted Strapi 5 with', { exact: false }).waitFor();
    await assertAccessible(page, 'backups (export ready)');
    await screenshot(page, 'backups', { fullPage: true });
  });

  it('restores a backup in place after typing the slug: the backup\'s content is back, the API token still works', async () => {
    // The content changes after the backup: one renamed, one deleted, one added.
    const listed = (await p.api.get('/api/articles?sort=title')).json().data as Array<{ documentId: string; title: string }>;
    assert.equal((await p.api.put(`/api/articles/${listed[0]!.documentId}`, { data: { title: 'Alpha, changed' } })).statusCode, 200);
    assert.equal((await p.api.del(`/api/articles/${listed[2]!.documentId}`)).statusCode, 204);
    assert.equal((await p.api.post('/api/articles', { data: { title: 'Delta' } })).statusCode, 201);
    const key = await p.token('read-only');
    assert.deepEqual(await titles(p.slug, key), ['Alpha, changed', 'Bravo', 'Delta']);

    const when = dateTime(backup.createdAt);
    await page.getByRole('button', { name: `Restore the backup of ${when}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore backup' });
    assert.equal(await dialog.getByRole('radio', { name: 'In place' }).isChecked(), true);
    // What will be replaced, and what stays, named before anything happens.
    await dialog.getByText(`Restore Content tests to the backup of ${when}?`, { exact: true }).waitFor();
    await dialog.getByText('Its content, media and end users will be replaced by the backup\'s. API tokens, members, settings and webhooks stay.', { exact: true }).waitFor();
    const confirm = dialog.getByRole('button', { name: 'Restore in place' });
    assert.equal(await confirm.isDisabled(), true);
    await dialog.getByLabel(`Type "${p.slug}" to confirm`).fill('not-the-slug');
    assert.equal(await confirm.isDisabled(), true);
    await dialog.getByLabel(`Type "${p.slug}" to confirm`).fill(p.slug);
    await assertAccessible(page, 'restore (in place)');
    await confirm.click();

    await dialog.getByText('Restored', { exact: true }).waitFor({ timeout: 120_000 });
    await dialog.getByText(`Content tests now holds the content, media and end users of the backup of ${when}.`).waitFor();
    await page.getByText('Content tests was restored').waitFor();
    await assertAccessible(page, 'restore (in place, done)');
    // The backup's content, read with a token made after the backup (tokens stay).
    assert.deepEqual(await titles(p.slug, key), BACKED_UP);
    assert.deepEqual(await titles(p.slug, await fullAccessToken(p.slug)), BACKED_UP);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('restores a backup as a new project: it opens from the link and holds the backup\'s content', async () => {
    const when = dateTime(backup.createdAt);
    await page.getByRole('button', { name: `Restore the backup of ${when}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore backup' });
    await dialog.getByRole('radio', { name: 'As a new project' }).check();
    const name = dialog.getByLabel('Name of the new project');
    assert.equal(await name.inputValue(), 'Content tests (restored)');
    await name.fill('');
    assert.equal(await dialog.getByRole('button', { name: 'Restore as a new project' }).isDisabled(), true);
    await name.fill('Restored copy');
    await assertAccessible(page, 'restore (new project)');
    // The restore's answers are held back a moment: the window is closed while it runs, and the
    // page follows it instead.
    await page.route('**/v1/projects/*/restores/*', async (route) => {
      await sleep(1500);
      await route.continue();
    });
    await dialog.getByRole('button', { name: 'Restore as a new project' }).click();
    await dialog.getByText(`Making a new project from the backup of ${when}…`, { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'hidden' });
    const status = page.getByTestId('restore-status');
    await status.getByText(`Making a new project from the backup of ${when}…`, { exact: false }).waitFor();
    assert.equal(await page.getByRole('button', { name: `Restore the backup of ${when}` }).isDisabled(), true);
    await assertAccessible(page, 'restore (new project, running)');
    await page.unrouteAll({ behavior: 'wait' });

    const open = status.getByRole('link', { name: 'Open Restored copy' });
    await open.waitFor({ timeout: 120_000 });
    await status.getByText(`“Restored copy” was made from the backup of ${when}.`).waitFor();
    await assertAccessible(page, 'restore (new project, done)');
    const slug = (await open.getAttribute('href'))!.replace('/projects/', '');
    assert.notEqual(slug, p.slug);
    await open.click();
    await page.waitForURL(`${origin}/projects/${slug}`);
    await page.getByRole('heading', { name: 'Restored copy', level: 1 }).waitFor();
    assert.deepEqual(await titles(slug, await fullAccessToken(slug)), BACKED_UP);
    await page.getByRole('link', { name: 'Projects' }).first().click();
    await page.getByRole('link', { name: 'Open project Restored copy' }).waitFor();
    // The source project kept its own content.
    assert.deepEqual(await titles(p.slug, await fullAccessToken(p.slug)), BACKED_UP);
  });

  it('an editor is told that backups and exports are for owners, with nothing to press', async () => {
    const editor = await signup(t, `editor-${process.pid}@backups.test`);
    await addMember(t, p.id, editor, 'editor');
    const { context, page: editorPage, consoleErrors: editorErrors } = await openPage(browser, { viewport: VIEWPORT });
    await logIn(editorPage, origin, editor.account.email);
    await editorPage.goto(`${origin}/projects/${p.slug}/settings/backups`);
    const note = editorPage.getByRole('note', { name: 'Backups and exports are for owners' });
    await note.waitFor();
    assert.match((await note.textContent())!, /Only the project's owners can manage backups and exports.*Your role is editor/);
    for (const button of ['Back up now', 'Download an export']) assert.equal(await editorPage.getByRole('button', { name: button }).count(), 0, button);
    assert.equal(await editorPage.getByRole('table', { name: 'Backups' }).count(), 0);
    // The API would refuse it anyway.
    assert.equal((await as(t, editor).get(`/v1/projects/${p.slug}/backups`)).statusCode, 403);
    await assertAccessible(editorPage, 'backups (editor)');
    // An editor owns nothing deleted: no "Recently deleted" on its projects page.
    await editorPage.goto(`${origin}/projects`);
    await editorPage.getByRole('link', { name: 'Open project Content tests' }).waitFor();
    assert.equal(await editorPage.getByRole('heading', { name: 'Recently deleted' }).count(), 0);
    assert.deepEqual(editorErrors(), []);
    await context.close();
  });

  it('a deleted project is listed under "Recently deleted" and restored from there, its API answering again', async () => {
    const scratch = await createProject(t, p.owner, { name: 'Scratch pad' });
    assert.equal((await p.admin.put(`/v1/projects/${scratch.slug}/schema`, MODEL)).statusCode, 200);
    const key = await fullAccessToken(scratch.slug);
    assert.equal((await t.inject({ method: 'POST', url: `/p/${scratch.slug}/api/articles`, headers: { authorization: `Bearer ${key}` }, payload: { data: { title: 'Kept' } } })).statusCode, 201);
    await page.goto(`${origin}/projects`);
    await page.getByRole('link', { name: 'Open project Scratch pad' }).click();
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Delete project' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete project' });
    await dialog.getByText('You can restore it from the projects page for 7 days', { exact: false }).waitFor();
    await dialog.getByLabel(`Type "${scratch.slug}" to confirm`).fill(scratch.slug);
    await dialog.getByRole('button', { name: 'Delete this project' }).click();
    await page.waitForURL(`${origin}/projects`);

    const deleted = page.getByRole('table', { name: 'Recently deleted projects' });
    await deleted.waitFor();
    assert.equal(await page.getByRole('link', { name: 'Open project Scratch pad' }).count(), 0);
    const { projects } = (await p.admin.get('/v1/projects?status=deleted')).json() as { projects: Array<{ slug: string; deletedAt: string; purgeAt: string }> };
    assert.deepEqual(projects.map((x) => x.slug), [scratch.slug]);
    const rows = deleted.getByRole('row');
    assert.equal(await rows.count(), 2);
    assert.deepEqual(await cells(rows.nth(1)), ['Scratch pad', scratch.slug, dateTime(projects[0]!.deletedAt), dateTime(projects[0]!.purgeAt), 'Restore']);
    assert.equal(Date.parse(projects[0]!.purgeAt) - Date.parse(projects[0]!.deletedAt), 7 * 86_400_000);
    assert.equal((await t.inject({ method: 'GET', url: `/p/${scratch.slug}/api/articles`, headers: { authorization: `Bearer ${key}` } })).statusCode, 404);
    await assertAccessible(page, 'projects (recently deleted)');

    await page.getByRole('button', { name: 'Restore Scratch pad' }).click();
    await page.getByText('Scratch pad is back').waitFor();
    await page.getByRole('link', { name: 'Open project Scratch pad' }).waitFor();
    await deleted.waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('heading', { name: 'Recently deleted' }).count(), 0);
    assert.deepEqual(await titles(scratch.slug, key), ['Kept']);
    await page.getByRole('link', { name: 'Open project Scratch pad' }).click();
    await page.getByRole('heading', { name: 'Scratch pad', level: 1 }).waitFor();
  });

  it('logged no error', () => {
    assert.deepEqual(consoleErrors(), []);
  });
});
