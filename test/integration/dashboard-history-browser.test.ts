// The entry editor's History panel in a real Chromium: an article created and changed through the
// REST API with a named token, then published from the dashboard; the timeline lists the three
// versions newest first with their origin and author; the oldest beside the current entry shows
// the changed fields highlighted; restoring it (after a confirmation) puts its content in the
// editor and makes the published entry Modified, as a fourth version; a viewer sees the timeline
// without Restore; a restore names the links it left out (their entries deleted since). axe-core
// on every state.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { listen, logIn, openPage } from '../helpers/browser-session.ts';
import { assertAccessible } from '../helpers/dashboard.ts';
import { addMember, as, createProject, PASSWORD, type Session } from '../helpers/management.ts';

const VIEWPORT = { viewport: { width: 1400, height: 1000 } };
const localized = { pluginOptions: { i18n: { localized: true } } };

const MODEL = {
  contentTypes: {
    'api::article.article': {
      kind: 'collectionType',
      info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true },
      ...localized,
      attributes: {
        title: { type: 'string', ...localized },
        summary: { type: 'text', ...localized },
        views: { type: 'integer' },
        seo: { type: 'component', component: 'shared.seo' },
        tags: { type: 'relation', relation: 'oneToMany', target: 'api::tag.tag' },
      },
    },
    'api::tag.tag': {
      kind: 'collectionType',
      info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
      attributes: { name: { type: 'string' } },
    },
  },
  components: {
    'shared.seo': { info: { displayName: 'Seo' }, attributes: { metaTitle: { type: 'string' } } },
  },
};

const UID = 'api::article.article';

/** A version's time as the timeline shows it (the browser runs in en-US, UTC). */
const shown = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });

interface Version {
  id: number;
  origin: string;
  status: string;
  createdAt: string;
}

describe('dashboard content history in a browser', () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let consoleErrors: () => string[];
  let owner: Session;
  let viewer: Session;
  let slug: string;
  let apiKey: string;
  let documentId: string;

  async function signupNamed(email: string, name: string): Promise<Session> {
    const res = await t.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email, password: PASSWORD, name } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json();
  }
  /** The project's content API with the "Importer" token. */
  async function content(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
    return t.inject({ method, url: `/p/${slug}${url}`, payload: payload as object, headers: { authorization: `Bearer ${apiKey}` } });
  }
  /** The document's versions as the management API lists them, newest first. */
  async function versions(of = documentId): Promise<Version[]> {
    const res = await as(t, owner).get(`/v1/projects/${slug}/history?contentType=${UID}&documentId=${of}&locale=en`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  }
  /** Waits until `read()` answers `expected` (a change the page made lands in the background). */
  async function eventually<T>(read: () => Promise<T>, expected: T) {
    for (let i = 0; i < 100 && JSON.stringify(await read()) !== JSON.stringify(expected); i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(await read(), expected);
  }
  /** Waits until the input's value is `value` (the form is replaced after a read). */
  async function hasValue(locator: Locator, value: string) {
    await eventually(() => locator.inputValue(), value);
  }

  const articleUrl = () => `${origin}/projects/${slug}/content/${UID}/${documentId}?locale=en`;
  const badge = (p: Page) => p.locator('h2 + [data-status]');
  const field = (p: Page, label: string) => p.getByLabel(label, { exact: true });
  const drawer = (p: Page) => p.getByRole('dialog', { name: 'History' });
  const timeline = (p: Page) => drawer(p).getByRole('list', { name: 'Versions' }).getByRole('listitem');
  const compared = (p: Page) => drawer(p).getByRole('table', { name: 'This version and the current entry' });
  /** The comparison's rows: field, this version, current, and whether it is marked changed. */
  const rows = (p: Page) => compared(p).locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [
    ...[...tr.children].map((cell) => cell.textContent ?? ''), tr.hasAttribute('data-changed'),
  ]));
  const toast = (p: Page, text: string) => p.locator('.mantine-Notification-root').filter({ hasText: text }).waitFor();
  /** The timeline's texts for `list` (newest first), as the page shows them. */
  const entries = (list: Version[], authors: Record<string, string>) => list.map((v, i) =>
    `Version ${list.length - i}${{ draft: 'Draft', published: 'Published', modified: 'Modified' }[v.status]}${shown(v.createdAt)}${authors[v.origin]}`);
  const AUTHORS = { rest: 'REST API · API token “Importer”', dashboard: 'Dashboard · Ada Lovelace', restore: 'Restore · Ada Lovelace' };

  async function openHistory(p: Page, count: number) {
    await p.getByRole('button', { name: 'History', exact: true }).click();
    await drawer(p).waitFor();
    await eventually(() => timeline(p).count(), count);
  }

  before(async () => {
    t = await startTestApp();
    origin = await listen(t);
    owner = await signupNamed('owner@history.test', 'Ada Lovelace');
    viewer = await signupNamed('viewer@history.test', 'Vic Viewer');
    const project = await createProject(t, owner, { name: 'History' });
    slug = project.slug;
    const pushed = await as(t, owner).put(`/v1/projects/${slug}/schema`, MODEL);
    assert.equal(pushed.statusCode, 200, pushed.body);
    const token = await as(t, owner).post(`/v1/projects/${slug}/api-tokens`, { name: 'Importer', type: 'full-access' });
    assert.equal(token.statusCode, 201, token.body);
    apiKey = token.json().accessKey;
    await addMember(t, project.id, viewer, 'viewer');
    browser = await launchBrowser();
    ({ page, consoleErrors } = await openPage(browser, VIEWPORT));
    await logIn(page, origin, 'owner@history.test');
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('lists the versions newest first with their origin, author and status', async () => {
    const created = await content('POST', '/api/articles', { data: { title: 'First title', summary: 'First summary', views: 1, seo: { metaTitle: 'Meta' } } });
    assert.equal(created.statusCode, 201, created.body);
    documentId = created.json().data.documentId;
    const updated = await content('PUT', `/api/articles/${documentId}`, { data: { title: 'Second title', views: 2 } });
    assert.equal(updated.statusCode, 200, updated.body);

    // The third change from the dashboard's editor.
    await page.goto(articleUrl());
    await hasValue(field(page, 'title'), 'Second title');
    await field(page, 'summary').fill('Dashboard summary');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await toast(page, 'Published');
    await badge(page).filter({ hasText: /^Published$/ }).waitFor();
    const list = await versions();
    assert.deepEqual(list.map((v) => [v.origin, v.status]), [['dashboard', 'published'], ['rest', 'published'], ['rest', 'published']]);

    await openHistory(page, 3);
    assert.deepEqual(await timeline(page).allTextContents(), entries(list, AUTHORS));
    assert.equal(await drawer(page).getByText('Choose a version to see it beside the current entry.').count(), 1);
    await assertAccessible(page, 'history timeline');
  });

  it('shows the oldest version beside the current entry, the changed fields highlighted', async () => {
    const oldest = timeline(page).nth(2).getByRole('button');
    await oldest.click();
    assert.equal(await oldest.getAttribute('aria-current'), 'true');
    await compared(page).waitFor();
    assert.equal(await drawer(page).getByRole('heading', { name: 'Version 1' }).count(), 1);
    assert.equal(await drawer(page).getByRole('status').filter({ hasText: /fields? differ|Same as/ }).textContent(), '3 fields differ from the current entry.');
    assert.deepEqual(await rows(page), [
      ['titleChanged', 'First title', 'Second title', true],
      ['summaryChanged', 'First summary', 'Dashboard summary', true],
      ['viewsChanged', '1', '2', true],
      ['seo › metaTitle', 'Meta', 'Meta', false],
      ['tags', '—', '—', false],
    ]);
    await assertAccessible(page, 'version compared');
  });

  it('restores it after a confirmation: the editor shows its content and the entry is Modified', async () => {
    await drawer(page).getByRole('button', { name: 'Restore', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Restore Version 1' });
    await confirm.waitFor();
    assert.match((await confirm.textContent())!, /The entry’s draft becomes this version’s content \(.+\); a published entry keeps its published version until you publish again\. Unsaved changes in the form are lost\./);
    await assertAccessible(page, 'restore confirmation');
    await confirm.getByRole('button', { name: 'Restore', exact: true }).click();
    await toast(page, 'Version 1 restored');
    await drawer(page).waitFor({ state: 'hidden' });
    await badge(page).filter({ hasText: /^Modified$/ }).waitFor();
    await hasValue(field(page, 'title'), 'First title');
    await hasValue(field(page, 'summary'), 'First summary');
    await hasValue(field(page, 'views'), '1');
    await hasValue(field(page, 'metaTitle'), 'Meta');
    await assertAccessible(page, 'restored entry');

    // The draft is the version; the published entry is unchanged until published again.
    const draft = (await content('GET', `/api/articles/${documentId}?status=draft&populate=*`)).json().data;
    assert.deepEqual([draft.title, draft.summary, draft.views, draft.seo.metaTitle], ['First title', 'First summary', 1, 'Meta']);
    const published = (await content('GET', `/api/articles/${documentId}`)).json().data;
    assert.deepEqual([published.title, published.summary, published.views], ['Second title', 'Dashboard summary', 2]);

    // The restore is the newest version.
    const list = await versions();
    assert.deepEqual(list.map((v) => [v.origin, v.status]), [['restore', 'modified'], ['dashboard', 'published'], ['rest', 'published'], ['rest', 'published']]);
    await openHistory(page, 4);
    assert.deepEqual(await timeline(page).allTextContents(), entries(list, AUTHORS));
    await drawer(page).getByRole('button', { name: 'Close' }).click();
    await drawer(page).waitFor({ state: 'hidden' });
  });

  it('a viewer sees the timeline and the comparison, without Restore', async () => {
    const { context, page: view, consoleErrors: viewerErrors } = await openPage(browser, VIEWPORT);
    await logIn(view, origin, 'viewer@history.test');
    await view.goto(articleUrl());
    await hasValue(field(view, 'title'), 'First title');
    await openHistory(view, 4);
    assert.deepEqual(await timeline(view).allTextContents(), entries(await versions(), AUTHORS));
    // The newest version is the current entry.
    await timeline(view).nth(0).getByRole('button').click();
    await compared(view).waitFor();
    assert.equal(await drawer(view).getByRole('status').filter({ hasText: /fields? differ|Same as/ }).textContent(), 'Same as the current entry.');
    assert.equal(await drawer(view).getByRole('button', { name: 'Restore', exact: true }).count(), 0);
    await assertAccessible(view, 'viewer history');
    assert.deepEqual(viewerErrors(), []);
    await context.close();
  });

  it('names the links a restore left out: their entries were deleted since', async () => {
    const tag = await content('POST', '/api/tags', { data: { name: 'Ephemeral' } });
    assert.equal(tag.statusCode, 201, tag.body);
    const tagId: string = tag.json().data.documentId;
    const tagged = await content('POST', '/api/articles', { data: { title: 'Tagged', tags: [tagId] } });
    assert.equal(tagged.statusCode, 201, tagged.body);
    const taggedId: string = tagged.json().data.documentId;
    assert.equal((await content('DELETE', `/api/tags/${tagId}`)).statusCode, 204);
    const count = (await versions(taggedId)).length;

    await page.goto(`${origin}/projects/${slug}/content/${UID}/${taggedId}?locale=en`);
    await hasValue(field(page, 'title'), 'Tagged');
    await openHistory(page, count);
    await timeline(page).nth(count - 1).getByRole('button').click();
    await drawer(page).getByRole('button', { name: 'Restore', exact: true }).click();
    await page.getByRole('dialog', { name: 'Restore Version 1' }).getByRole('button', { name: 'Restore', exact: true }).click();
    const note = page.locator('.mantine-Notification-root').filter({ hasText: 'Left out' });
    await note.waitFor();
    assert.equal(await note.locator('.mantine-Notification-title').textContent(), 'Version 1 restored');
    assert.equal(await note.locator('.mantine-Notification-description').textContent(), `Left out, deleted since: tags 1 (entry ${tagId}).`);
    await drawer(page).waitFor({ state: 'hidden' });
    await assertAccessible(page, 'restore with links left out');
    assert.equal((await versions(taggedId))[0]!.origin, 'restore');
  });

  it('logs no console errors', () => {
    assert.deepEqual(consoleErrors(), []);
  });
});
