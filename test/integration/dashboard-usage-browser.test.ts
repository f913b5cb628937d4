// The Usage page in a real Chromium: after requests through a project's REST, GraphQL and
// upload APIs — some refused by the per-second and auth rate limits — it shows today's
// requests, the chart of the last 30 days (and its table), the month against the plan's limits,
// the top routes in order and the rejections by limit; a project without requests shows its
// empty states. axe-core on every state, no console error.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { listen, logIn, openPage, screenshot } from '../helpers/browser-session.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { assertAccessible } from '../helpers/dashboard.ts';
import { multipart } from '../helpers/multipart.ts';
import { blogRawModel } from '../fixtures/index.ts';

const VIEWPORT = { width: 1280, height: 860 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const DAY_MS = 86_400_000;
const longDay = (date: Date) => date.toLocaleDateString('en', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
const n = (x: number) => new Intl.NumberFormat('en').format(x);
const share = (part: number, total: number) => `${Math.round((part / total) * 100)}%`;

/** The 29 days before today as metered earlier (written straight into the usage tables). */
const HISTORY = Array.from({ length: 29 }, (_, i) => {
  const ago = i + 1;
  return { date: new Date(Date.now() - ago * DAY_MS).toISOString().slice(0, 10), posts: 20 + ((ago * 7) % 15), tags: 4 + (ago % 4), perSecond: ago % 6 === 0 ? 4 : 0 };
});
const sum = (pick: (d: (typeof HISTORY)[number]) => number, days = HISTORY) => days.reduce((total, d) => total + pick(d), 0);

describe('dashboard usage page in a browser', () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let consoleErrors: () => string[];
  let p: ContentProject;

  const text = async (testId: string) => page.getByTestId(testId).textContent();
  const sql = (text: string, values: unknown[]) => t.platform.db.pool.query(compiledQuery({ text, values }));

  before(async () => {
    // Plan limits on (the free plan: 50 requests a second); 2 login attempts per identifier.
    t = await startTestApp({ env: { PLAN_LIMITS: 'true', AUTH_RATE_LIMIT_MAX: '2' } });
    origin = await listen(t);
    p = await setupContentProject(t, blogRawModel());
    // Verified: no banner above the page.
    await sql('UPDATE platform.accounts SET email_verified_at = now() WHERE id = $1', [p.owner.account.id]);
    browser = await launchBrowser();
    ({ page, consoleErrors } = await openPage(browser, { viewport: VIEWPORT }));
    await logIn(page, origin, p.owner.account.email);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows a project without requests with its empty states', async () => {
    await page.goto(`${origin}/projects/${p.slug}`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Usage' }).click();
    await page.waitForURL(`${origin}/projects/${p.slug}/usage`);
    await page.getByText('No requests yet this month.').waitFor();
    assert.equal(await text('requests-today'), '0');
    assert.equal(await text('usage-API requests'), '0 of 100,000');
    assert.equal(await text('usage-Documents'), '0 of 10,000');
    assert.equal(await text('usage-Media storage'), '0 B of 1 GB');
    const month = new Date().toLocaleDateString('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });
    await page.getByRole('heading', { name: `${month} against your plan` }).waitFor();
    await page.getByText('No requests in the last 30 days. Call your project\'s API').waitFor();
    await page.getByText('No requests in the last 30 days: routes show here').waitFor();
    await page.getByText('No request was refused by a rate limit in the last 30 days.').waitFor();
    assert.equal(await page.getByTestId('requests-chart').count(), 0);
    await assertAccessible(page, 'usage (empty)');
  });

  it('shows today\'s requests, the chart, the month against the limits, the top routes and the rejections', async () => {
    // The month so far: 29 earlier days (those of this month in its monthly counter too).
    for (const d of HISTORY) {
      await sql(`INSERT INTO platform.usage_daily (project_id, day, requests, rejected_per_second) VALUES ($1, $2::date, $3, $4)`, [p.id, d.date, d.posts + d.tags, d.perSecond]);
      await sql(`INSERT INTO platform.usage_routes (project_id, day, route, requests) VALUES ($1, $2::date, 'GET /api/posts', $3), ($1, $2::date, 'GET /api/tags/:documentId', $4)`,
        [p.id, d.date, d.posts, d.tags]);
    }
    const month = new Date().toISOString().slice(0, 7);
    const thisMonth = HISTORY.filter((d) => d.date.startsWith(month));
    await sql(`INSERT INTO platform.usage_counters (project_id, period, requests) VALUES ($1, $2::date, $3)`, [p.id, `${month}-01`, sum((d) => d.posts + d.tags, thisMonth)]);
    // A burst at the start of a second: 50 served, 30 refused by the per-second limit. On a loaded
    // machine the burst can run into the next second, whose 50 are served too: then another burst,
    // until one was refused (the figures below count every burst).
    let burstServed = 0;
    let burstRefused = 0;
    for (let tries = 0; burstRefused === 0 && tries < 3; tries++) {
      await sleep(1000 - (Date.now() % 1000) + 5);
      const burst = await Promise.all(Array.from({ length: 80 }, () => p.api.get('/api/posts')));
      const served = burst.filter((r) => r.statusCode === 200).length;
      const refused = burst.filter((r) => r.statusCode === 429).length;
      assert.equal(served + refused, 80);
      assert.ok(served >= 50, `burst: ${served} served, ${refused} refused`);
      burstServed += served;
      burstRefused += refused;
    }
    assert.ok(burstRefused > 0);
    await sleep(1100);
    for (let i = 0; i < 3; i++) assert.equal((await p.api.get('/api/posts')).statusCode, 200);
    const tag = await p.api.post('/api/tags', { data: { label: 'metered' } });
    assert.equal(tag.statusCode, 201, tag.body);
    for (let i = 0; i < 2; i++) assert.equal((await p.api.get(`/api/tags/${tag.json().data.documentId}`)).statusCode, 200);
    assert.equal((await p.api.post('/graphql', { query: '{ tags { label } }' })).statusCode, 200);
    const upload = await p.api.raw('POST', '/api/upload', await multipart({ files: { name: 'notes.txt', content: 'a'.repeat(2048), type: 'text/plain' } }));
    assert.equal(upload.statusCode, 201, upload.body);
    // Two wrong logins, the third refused by the auth limit.
    const logins = [];
    for (let i = 0; i < 3; i++) logins.push((await p.client(null).post('/api/auth/local', { identifier: 'someone', password: 'wrong' })).statusCode);
    assert.deepEqual(logins, [400, 400, 429]);
    await t.platform.usage.flush();
    const { storageBytes, historyBytes } = (await p.admin.get(`/v1/projects/${p.slug}/usage`)).json();

    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByTestId('requests-chart').locator('svg .recharts-bar-rectangle').first().waitFor();
    const served = burstServed + 10 + sum((d) => d.posts + d.tags);
    const refused = burstRefused + 1 + sum((d) => d.perSecond);
    assert.equal(await text('requests-today'), n(burstServed + 10));
    assert.equal(await text('requests-30-days'), n(served));
    assert.equal(await text('rejected-30-days'), n(refused));
    // The chart: stacked bars of today, labelled for assistive technology.
    const chart = page.getByTestId('requests-chart').getByRole('application');
    const label = await chart.getAttribute('aria-label');
    assert.equal(label, `Requests per day from ${longDay(new Date(Date.now() - 29 * DAY_MS))} to ${longDay(new Date())}: ${n(served)} served and ${n(refused)} refused by rate limits in all.`);
    // A bar for every day, and one more for each day with rejections.
    const bars = await page.getByTestId('requests-chart').locator('.recharts-bar-rectangle').count();
    assert.equal(bars, 30 + 1 + HISTORY.filter((d) => d.perSecond > 0).length);
    // The month against the free plan.
    assert.equal(await text('usage-API requests'), `${n(burstServed + 10 + sum((d) => d.posts + d.tags, thisMonth))} of 100,000`);
    assert.equal(await text('usage-Documents'), '1 of 10,000');
    // 2,048 bytes stored as 2.05 KB (Strapi's `size`), as /usage reports it.
    assert.equal(storageBytes, 2050);
    assert.equal(await text('usage-Media storage'), '2 KB of 1 GB');
    // The content history's size on disk (its tables' first pages and the tag's version), in KB.
    assert.ok(historyBytes > 0 && historyBytes < 1024 ** 2, String(historyBytes));
    assert.equal(await text('history-bytes'), `Content history: ${n(Math.round(historyBytes / 1024))} KB`);
    assert.equal(await page.getByText('No requests yet this month.').count(), 0);
    // Top routes, busiest first, with their share of the 30 days' requests.
    const rows = await page.getByRole('table', { name: 'Top routes' }).getByRole('row').allTextContents();
    const posts = burstServed + 3 + sum((d) => d.posts);
    const tags = 2 + sum((d) => d.tags);
    assert.deepEqual(rows, [
      'RouteRequestsShare',
      `GET /api/posts${n(posts)}${share(posts, served)}`,
      `GET /api/tags/:documentId${n(tags)}${share(tags, served)}`,
      `POST /api/auth/local2${share(2, served)}`,
      `POST /api/tags1${share(1, served)}`,
      `POST /api/upload1${share(1, served)}`,
      `POST /graphql1${share(1, served)}`,
    ]);
    // Rejections by limit.
    assert.equal(await text('rejected-total'), n(refused));
    assert.deepEqual(
      [await text('rejected-perSecond'), await text('rejected-monthly'), await text('rejected-auth')],
      [n(burstRefused + sum((d) => d.perSecond)), '0', '1'],
    );
    await assertAccessible(page, 'usage (with requests)');
    // `make screenshots` keeps the page in docs/screenshots.
    if (process.env.UPDATE_SCREENSHOTS) {
      const top = (await page.getByRole('heading', { name: 'Usage', level: 2 }).boundingBox())!.y - 16;
      await screenshot(page, 'usage', { fullPage: true, clip: { x: 0, y: top, ...VIEWPORT } });
    }

    // The same figures as a table, newest day first.
    const toggle = page.getByRole('button', { name: 'Show the figures as a table' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.click();
    const days = page.getByRole('table', { name: 'Requests per day' });
    await days.waitFor();
    const dayRows = await days.getByRole('row').allTextContents();
    assert.equal(dayRows.length, 31);
    assert.equal(dayRows[0], 'Day (UTC)RequestsRejected');
    assert.equal(dayRows[1], `${longDay(new Date())}${burstServed + 10}${burstRefused + 1}`);
    const yesterday = HISTORY[0]!;
    assert.equal(dayRows[2], `${longDay(new Date(Date.now() - DAY_MS))}${yesterday.posts + yesterday.tags}${yesterday.perSecond}`);
    assert.equal(dayRows[30], `${longDay(new Date(Date.now() - 29 * DAY_MS))}${n(HISTORY[28]!.posts + HISTORY[28]!.tags)}${HISTORY[28]!.perSecond}`);
    assert.equal(await page.getByRole('button', { name: 'Hide the figures' }).getAttribute('aria-expanded'), 'true');
    await assertAccessible(page, 'usage (table shown)');
  });

  it('logged no error on any page', () => {
    assert.deepEqual(consoleErrors(), []);
  });
});
