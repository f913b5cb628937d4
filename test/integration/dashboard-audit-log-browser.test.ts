// The project's Audit log page in a real Chromium: an owner opens it from the project's menu and
// sees the changes made through the API and the dashboard, newest first, with their actor; filters
// by action, actor and dates; pages through; the Export link downloads the same filters as JSON
// Lines. An editor has no menu entry and is told the log is for owners. axe-core on every state.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { chooseOption, listen, logIn, openPage } from '../helpers/browser-session.ts';
import { assertAccessible } from '../helpers/dashboard.ts';
import { addMember, as, createProject, PASSWORD, type Session } from '../helpers/management.ts';
import { collectionType as ct } from '../fixtures/index.ts';

const VIEWPORT = { viewport: { width: 1400, height: 1000 } };
const MODEL = { contentTypes: { 'api::article.article': ct('article', 'articles', { title: { type: 'string' } }) }, components: {} };

describe('dashboard audit log in a browser', () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let consoleErrors: () => string[];
  let owner: Session;
  let editor: Session;
  let slug: string;
  let projectId: number;
  let tokenId: number;
  let apiKey: string;

  async function signupNamed(email: string, name: string): Promise<Session> {
    const res = await t.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email, password: PASSWORD, name } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json();
  }
  const table = (p: Page) => p.getByRole('table', { name: 'Audit log' });
  /** The table's rows as `action | actor` (waits for the table to settle). */
  async function rows(p: Page): Promise<string[]> {
    await p.locator('table[aria-label="Audit log"][aria-busy="false"]').waitFor();
    return table(p).locator('tbody tr').evaluateAll((trs) => trs.map((tr) => `${tr.children[1]!.textContent} | ${tr.children[2]!.textContent}`));
  }
  async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
    let value = await read();
    for (let i = 0; i < 100 && !ok(value); i++) {
      await new Promise((r) => setTimeout(r, 100));
      value = await read();
    }
    assert.ok(ok(value), `${what}: ${JSON.stringify(value)}`);
    return value;
  }

  before(async () => {
    t = await startTestApp();
    origin = await listen(t);
    owner = await signupNamed('owner@audit.test', 'Olive Owner');
    editor = await signupNamed('editor@audit.test', 'Ed Editor');
    const project = await createProject(t, owner, { name: 'Audited' });
    slug = project.slug;
    projectId = project.id;
    assert.equal((await as(t, owner).put(`/v1/projects/${slug}/schema`, MODEL)).statusCode, 200);
    const token = await as(t, owner).post(`/v1/projects/${slug}/api-tokens`, { name: 'Importer', type: 'full-access' });
    tokenId = token.json().apiToken.id;
    apiKey = token.json().accessKey;
    for (const title of ['One', 'Two']) {
      const res = await t.inject({ method: 'POST', url: `/p/${slug}/api/articles?status=draft`, payload: { data: { title } }, headers: { authorization: `Bearer ${apiKey}` } });
      assert.equal(res.statusCode, 201, res.body);
    }
    await addMember(t, projectId, editor, 'editor');
    browser = await launchBrowser();
    ({ page, consoleErrors } = await openPage(browser, VIEWPORT));
    await logIn(page, origin, 'owner@audit.test');
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('an owner opens it from the project\'s menu: newest first, with actors and a summary', async () => {
    await page.goto(`${origin}/projects/${slug}`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Audit log' }).click();
    await page.waitForURL(`${origin}/projects/${slug}/audit-log`);
    await page.getByRole('heading', { name: 'Audit log', level: 2 }).waitFor();
    const shown = await rows(page);
    assert.deepEqual(shown, [
      `entry.create | api-tokenAPI token ${tokenId}`,
      `entry.create | api-tokenAPI token ${tokenId}`,
      'api-token.create | accountowner@audit.test',
      'content-type.update | accountowner@audit.test',
      'project.create | accountowner@audit.test',
    ]);
    assert.equal(await page.getByTestId('audit-total').textContent(), '1–5 of 5 entries');
    const details = await table(page).locator('tbody tr').first().locator('td').nth(3).textContent();
    assert.match(details!, /^uid: api::article\.article · documentId: [a-z0-9]{24} · status: draft · fields: title$/);
    await assertAccessible(page, 'the audit log');
  });

  it('filters by action, actor and dates; Clear shows everything again', async () => {
    await chooseOption(page, page.getByRole('combobox', { name: 'Action' }), 'entry.create');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await eventually(() => rows(page), (r) => r.length === 2 && r.every((x) => x.startsWith('entry.create')), 'entry.create only');

    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByRole('textbox', { name: 'Actor' }).fill('owner@audit.test');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await eventually(() => rows(page), (r) => r.length === 3 && r.every((x) => x.endsWith('owner@audit.test')), 'the owner\'s entries');

    await page.getByRole('textbox', { name: 'Actor' }).fill('');
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('From').fill(tomorrow);
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await page.getByText('No entry matches these filters.').waitFor();
    await assertAccessible(page, 'no entry matches');
    await page.getByRole('button', { name: 'Clear' }).click();
    await eventually(() => rows(page), (r) => r.length === 5, 'everything again');
  });

  it('pages through 25 entries at a time', async () => {
    await t.platform.db.pool.query(compiledQuery({
      text: `INSERT INTO platform.audit_logs (project_id, action, actor_type, payload, created_at)
             SELECT $1, 'webhook.update', 'system', jsonb_build_object('n', n), now() - make_interval(secs => 3600 + n) FROM generate_series(1, 30) n`,
      values: [projectId],
    }));
    await page.reload();
    await eventually(() => page.getByTestId('audit-total').textContent(), (x) => x === '1–25 of 35 entries', 'the first page');
    await page.getByRole('button', { name: 'Page 2' }).click();
    await eventually(() => page.getByTestId('audit-total').textContent(), (x) => x === '26–35 of 35 entries', 'the second page');
    const second = await rows(page);
    assert.equal(second.length, 10);
    assert.ok(second.every((r) => r === 'webhook.update | systemSystem'), 'older entries on the second page');
    await assertAccessible(page, 'the second page');
  });

  it('the Export link downloads the filtered log as JSON Lines', async () => {
    await chooseOption(page, page.getByRole('combobox', { name: 'Action' }), 'entry.create');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await eventually(() => rows(page), (r) => r.length === 2, 'filtered');
    const link = page.getByRole('link', { name: 'Export (JSON Lines)' });
    const href = await link.getAttribute('href');
    assert.equal(href, `/v1/projects/${slug}/audit-logs/export?action=entry.create`);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    assert.equal(download.suggestedFilename(), `audit-log-${slug}.jsonl`);
    const text = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
    const lines = text.trimEnd().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => [l.action, l.actor]), [
      ['entry.create', { type: 'api-token', id: String(tokenId) }], ['entry.create', { type: 'api-token', id: String(tokenId) }],
    ]);
  });

  it('an editor has no menu entry and is told the log is for owners', async () => {
    const { context, page: other, consoleErrors: otherErrors } = await openPage(browser, VIEWPORT);
    try {
      await logIn(other, origin, 'editor@audit.test');
      await other.goto(`${origin}/projects/${slug}`);
      await other.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Team' }).waitFor();
      assert.equal(await other.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Audit log' }).count(), 0);
      await other.goto(`${origin}/projects/${slug}/audit-log`);
      await other.getByText('Only the owners of this project can read its audit log.').waitFor();
      await assertAccessible(other, 'the audit log as an editor');
      assert.deepEqual(otherErrors(), []);
    } finally {
      await context.close();
    }
  });

  it('no console errors', () => {
    assert.deepEqual(consoleErrors(), []);
  });
});
