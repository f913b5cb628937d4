// The content manager in a real Chromium: a model with every attribute type (localized, with
// French), an entry created through every field, saved as a draft, published and read back
// through the REST API value by value; its French version created from the English one; an
// invalid publish shown on its field; unpublish and discard; a conflicting edit made through the
// API; the list (columns, search, filters, sort, pages with the exact total) over 10,000 entries;
// a single type; a viewer's read-only forms. axe-core on every page state.
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { verifyPassword } from '@cms/auth';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { chooseOption, dragTo, listen, logIn, openPage, screenshot } from '../helpers/browser-session.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { assertAccessible } from '../helpers/dashboard.ts';
import { joinByInvitation } from '../helpers/management.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { addAuthorsAndCover, item, text } from '../fixtures/editor.ts';

const VIEWPORT = { viewport: { width: 1400, height: 1000 } };
const localized = { pluginOptions: { i18n: { localized: true } } };

const MODEL = {
  contentTypes: {
    'api::article.article': {
      kind: 'collectionType',
      info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true },
      pluginOptions: { i18n: { localized: true } },
      attributes: {
        title: { type: 'string', required: true, minLength: 3, maxLength: 80, ...localized },
        summary: { type: 'text', ...localized },
        body: { type: 'richtext', ...localized },
        content: { type: 'blocks', ...localized },
        contact: { type: 'email' },
        secret: { type: 'password' },
        slug: { type: 'uid', targetField: 'title' },
        views: { type: 'integer', min: 0 },
        bigViews: { type: 'biginteger' },
        rating: { type: 'float' },
        price: { type: 'decimal' },
        featured: { type: 'boolean' },
        releaseDate: { type: 'date' },
        startTime: { type: 'time' },
        publishAt: { type: 'datetime' },
        category: { type: 'enumeration', enum: ['news', 'guide', 'review'] },
        meta: { type: 'json' },
        cover: { type: 'media', multiple: false, allowedTypes: ['images'] },
        authors: { type: 'relation', relation: 'manyToMany', target: 'api::author.author', inversedBy: 'articles' },
        sections: { type: 'component', repeatable: true, component: 'shared.section', max: 3 },
        zone: { type: 'dynamiczone', components: ['shared.quote', 'shared.link'] },
      },
    },
    'api::author.author': {
      kind: 'collectionType',
      info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' },
      attributes: {
        name: { type: 'string', required: true },
        articles: { type: 'relation', relation: 'manyToMany', target: 'api::article.article', mappedBy: 'authors' },
      },
    },
    'api::product.product': {
      kind: 'collectionType',
      info: { singularName: 'product', pluralName: 'products', displayName: 'Product' },
      options: { draftAndPublish: true },
      attributes: { name: { type: 'string' }, sku: { type: 'string' }, price: { type: 'integer' } },
    },
    'api::homepage.homepage': {
      kind: 'singleType',
      info: { singularName: 'homepage', pluralName: 'homepages', displayName: 'Homepage' },
      options: { draftAndPublish: true },
      attributes: { headline: { type: 'string', required: true }, intro: { type: 'text' } },
    },
  },
  components: {
    'shared.section': {
      info: { displayName: 'Section' },
      attributes: { heading: { type: 'string', required: true }, body: { type: 'text' }, link: { type: 'component', component: 'shared.link' } },
    },
    'shared.quote': { info: { displayName: 'Quote' }, attributes: { text: { type: 'text' }, author: { type: 'string' } } },
    'shared.link': { info: { displayName: 'Link' }, attributes: { label: { type: 'string' }, url: { type: 'string' } } },
  },
};

const PRODUCTS = 10_000;

describe('dashboard content manager in a browser', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let p: ContentProject;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let consoleErrors: () => string[];
  let coverId: number;

  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  /** An input by its whole label (a required field's label ends with " *"). */
  const field = (scope: Page | Locator, label: string) => scope.getByLabel(new RegExp(`^${escape(label)}( \\*)?$`));
  /** Waits until the element's whole text is `text` (the page updates after its API calls). */
  async function hasText(locator: Locator, text: string) {
    await locator.filter({ hasText: new RegExp(`^${escape(text)}$`) }).first().waitFor();
    assert.equal(await locator.first().textContent(), text);
  }
  /** Waits until the input's value is `value` (a form replaced after a read). */
  async function hasValue(locator: Locator, value: string) {
    for (let i = 0; i < 100 && (await locator.inputValue()) !== value; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(await locator.inputValue(), value);
  }
  /** Waits until `read()` answers `expected` (a write the page started finishes in the background). */
  async function eventually(read: () => Promise<unknown>, expected: unknown) {
    for (let i = 0; i < 100 && !isDeepStrictEqual(await read(), expected); i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(await read(), expected);
  }
  const sql = (text: string, values: unknown[] = []) => t.platform.db.pool.query(compiledQuery({ text, values }));

  before(async () => {
    smtp = await startSmtp();
    t = await startTestApp({ env: { SMTP_URL: smtp.url, EMAIL_FROM: 'team@platform.test' } });
    origin = await listen(t);
    p = await setupContentProject(t, MODEL, ['fr']);
    // Three authors to relate to, and an image for the cover.
    coverId = (await addAuthorsAndCover(p)).cover.id;
    browser = await launchBrowser();
    ({ page, consoleErrors } = await openPage(browser, VIEWPORT));
    await logIn(page, origin, p.owner.account.email);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.close();
  });

  let documentId: string;
  const articleUrl = (locale = 'en') => `${origin}/projects/${p.slug}/content/api::article.article/${documentId}?locale=${locale}`;
  const badge = () => page.locator('h2 + [data-status]');
  const group = (name: RegExp) => page.getByRole('group', { name });

  it('creates an entry through every field and saves it as a draft', async () => {
    await page.goto(`${origin}/projects/${p.slug}`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Content', exact: true }).click();
    await page.getByRole('heading', { name: 'Article', level: 2 }).waitFor();
    assert.equal(page.url(), `${origin}/projects/${p.slug}/content/api::article.article`);
    await hasText(page.getByTestId('list-total'), '0 entries');
    await assertAccessible(page, 'empty list');
    await page.getByRole('link', { name: 'Create new entry' }).click();
    await page.getByRole('heading', { name: 'New Article entry' }).waitFor();
    assert.equal(page.url(), `${origin}/projects/${p.slug}/content/api::article.article/new?locale=en`);
    // The limits are shown with the field.
    assert.equal(await page.getByText('3 to 80 characters').count(), 1);
    await field(page, 'title').fill('Hello content manager');
    // The uid follows its target field while it was not typed by hand, and is checked live.
    assert.equal(await field(page, 'slug').inputValue(), 'hello-content-manager');
    await page.getByRole('status').filter({ hasText: 'Available: hello-content-manager' }).waitFor();
    await field(page, 'summary').fill('A short summary.');
    // Markdown.
    await page.getByRole('textbox', { name: 'body', exact: true }).click();
    await page.keyboard.insertText('# Title\n\nSome **markdown**.');
    // Blocks: a heading, a paragraph with bold text, a list.
    const blocks = page.getByRole('textbox', { name: 'content', exact: true });
    const tool = (name: string) => page.getByRole('toolbar', { name: 'content formatting' }).getByRole('button', { name, exact: true });
    await blocks.click();
    await page.getByRole('toolbar', { name: 'content formatting' }).getByRole('combobox', { name: 'Text style' }).selectOption('heading-2');
    await page.keyboard.type('Big news');
    await page.keyboard.press('Enter');
    await page.keyboard.type('This is ');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('bold');
    await page.keyboard.press('Control+b');
    await page.keyboard.type(' text.');
    await page.keyboard.press('Enter');
    await tool('Bulleted list').click();
    await page.keyboard.type('First item');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Second item');
    // JSON.
    await page.getByRole('textbox', { name: 'meta', exact: true }).click();
    await page.keyboard.insertText('{"tags": ["a", "b"], "score": 3}');
    // Media: the uploaded image, picked in the library.
    await page.getByRole('button', { name: 'Select media for cover' }).click();
    const picker = page.getByRole('dialog', { name: 'Select media for cover' });
    await picker.getByRole('checkbox', { name: /^cover\.png/ }).click();
    await picker.getByRole('button', { name: 'Select file' }).click();
    await page.getByRole('list', { name: 'cover: selected files' }).getByText('cover.png').waitFor();
    // A relation, picked by searching.
    await page.getByRole('combobox', { name: 'authors' }).fill('hop');
    await page.getByRole('option', { name: 'Grace Hopper' }).click();
    await page.getByRole('list', { name: 'authors: linked entries' }).getByText('Grace Hopper').waitFor();
    await field(page, 'contact').fill('ada@example.com');
    await field(page, 'secret').fill('s3cret-value');
    await field(page, 'views').fill('1234');
    await field(page, 'bigViews').fill('9007199254740993');
    await field(page, 'rating').fill('4.5');
    await field(page, 'price').fill('19.99');
    await page.getByRole('switch', { name: 'featured' }).check();
    await field(page, 'releaseDate').fill('2024-03-15');
    await field(page, 'startTime').fill('14:30:15');
    await field(page, 'publishAt').fill('2024-03-15 09:45:30');
    await page.getByRole('combobox', { name: 'category' }).click();
    await page.getByRole('option', { name: 'guide' }).click();
    // Two sections, the second dragged above the first.
    await page.getByRole('button', { name: 'Add an item to sections' }).click();
    await field(group(/^Section 1/), 'heading').fill('First section');
    await field(group(/^Section 1/), 'body').fill('Body one');
    await page.getByRole('button', { name: 'Add an item to sections' }).click();
    await field(group(/^Section 2/), 'heading').fill('Second section');
    await group(/^Section 2/).getByRole('button', { name: 'Add link' }).click();
    await field(group(/^Section 2/), 'label').fill('Read more');
    await field(group(/^Section 2/), 'url').fill('https://example.com/more');
    assert.equal(await page.getByText('2 items · At most 3 items').count(), 1);
    const handle = page.getByRole('button', { name: 'Reorder Section 2: Second section' });
    const target = page.getByRole('button', { name: 'Reorder Section 1: First section' });
    await dragTo(page, handle, target);
    await group(/^Section 1: Second section$/).waitFor();
    // dnd-kit swallows the clicks of the 50 ms after a drop.
    await page.waitForTimeout(200);
    assert.equal(await field(group(/^Section 2: First section$/), 'body').inputValue(), 'Body one');
    // A dynamic-zone item.
    await page.getByRole('button', { name: 'Add a component to zone' }).click();
    await page.getByRole('menuitem', { name: 'Quote' }).click();
    await field(group(/^Quote 1/), 'text').fill('Simplicity is prerequisite for reliability.');
    await field(group(/^Quote 1/), 'author').fill('Edsger Dijkstra');
    await assertAccessible(page, 'new entry filled');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/content\/api::article\.article\/[a-z0-9]{24}\?locale=en$/);
    documentId = /\/([a-z0-9]{24})\?/.exec(page.url())![1]!;
    await page.getByRole('heading', { name: 'Hello content manager' }).waitFor();
    await hasText(badge(), 'Draft');
    const draft = (await p.api.get(`/api/articles/${documentId}?status=draft&populate=*`)).json().data;
    assert.equal(draft.publishedAt, null);
    assert.equal(draft.title, 'Hello content manager');
    assert.equal((await p.api.get(`/api/articles/${documentId}`)).statusCode, 404);
    await assertAccessible(page, 'draft entry');
  });

  it('publishes it; the REST API answers exactly what was typed', async () => {
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await badge().filter({ hasText: 'Published' }).waitFor();
    const res = await p.api.get(`/api/articles/${documentId}?populate=*`);
    assert.equal(res.statusCode, 200, res.body);
    const doc = res.json().data;
    const pick = (o: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, o[k]]));
    assert.deepEqual(pick(doc, ['title', 'summary', 'contact', 'slug', 'views', 'bigViews', 'rating', 'price', 'featured', 'releaseDate', 'startTime', 'publishAt', 'category', 'locale']), {
      title: 'Hello content manager', summary: 'A short summary.', contact: 'ada@example.com', slug: 'hello-content-manager',
      views: 1234, bigViews: '9007199254740993', rating: 4.5, price: 19.99, featured: true, releaseDate: '2024-03-15',
      startTime: '14:30:15.000', publishAt: '2024-03-15T09:45:30.000Z', category: 'guide', locale: 'en',
    });
    assert.equal('secret' in doc, false);
    assert.equal(doc.body, '# Title\n\nSome **markdown**.');
    assert.deepEqual(doc.content, [
      { type: 'heading', level: 2, children: [text('Big news')] },
      { type: 'paragraph', children: [text('This is '), text('bold', { bold: true }), text(' text.')] },
      { type: 'list', format: 'unordered', children: [item('First item'), item('Second item')] },
    ]);
    assert.deepEqual(doc.meta, { tags: ['a', 'b'], score: 3 });
    assert.deepEqual({ id: doc.cover.id, name: doc.cover.name }, { id: coverId, name: 'cover.png' });
    assert.deepEqual(doc.authors.map((a: { name: string }) => a.name), ['Grace Hopper']);
    assert.deepEqual(doc.sections.map((s: Record<string, unknown>) => ({ heading: s.heading, body: s.body, link: s.link })), [
      { heading: 'Second section', body: null, link: undefined },
      { heading: 'First section', body: 'Body one', link: undefined },
    ]);
    assert.deepEqual(doc.zone.map(({ id: _, ...rest }: Record<string, unknown>) => rest), [
      { __component: 'shared.quote', text: 'Simplicity is prerequisite for reliability.', author: 'Edsger Dijkstra' },
    ]);
    const deep = (await p.api.get(`/api/articles/${documentId}?populate[sections][populate]=link`)).json().data;
    assert.deepEqual(deep.sections.map((s: { link: Record<string, unknown> | null }) => s.link && { label: s.link.label, url: s.link.url }), [
      { label: 'Read more', url: 'https://example.com/more' }, null,
    ]);
    // The password was written (hashed), never shown back.
    const secret = (await sql(`SELECT secret FROM ${p.schema}.ct_article WHERE document_id = $1 AND published_at IS NOT NULL`, [documentId])).rows[0]!.secret as string;
    assert.equal(await verifyPassword('s3cret-value', secret), true);
    assert.equal(await field(page, 'secret').inputValue(), '');
    await screenshot(page, 'content-editor');

    // Another entry may not take the same uid: the check says so before saving.
    await page.getByRole('link', { name: 'Back to Article' }).click();
    await page.getByRole('link', { name: 'Create new entry' }).click();
    await field(page, 'title').fill('Hello, content manager!');
    assert.equal(await field(page, 'slug').inputValue(), 'hello-content-manager');
    await page.getByText('Taken: another document uses hello-content-manager').waitFor();
    assert.equal(await field(page, 'slug').getAttribute('aria-invalid'), 'true');
    await page.goto(articleUrl('en'));
    await page.getByRole('heading', { name: 'Hello content manager' }).waitFor();
  });

  it('creates the French version filled in from the English one, changes a field and saves it', async () => {
    await page.getByRole('combobox', { name: 'Locale' }).click();
    await page.getByRole('option', { name: 'French (fr), not created yet' }).click();
    await page.waitForURL(articleUrl('fr'));
    await page.getByText('No French (fr) version yet').waitFor();
    await assertAccessible(page, 'missing locale version');
    await page.getByRole('button', { name: 'Create French (fr) version' }).click();
    await page.getByText('Filled in from English (en). Change what differs, then save to create it.').waitFor();
    assert.equal(await field(page, 'title').inputValue(), 'Hello content manager');
    assert.equal(await field(page, 'summary').inputValue(), 'A short summary.');
    assert.equal(await field(page, 'views').inputValue(), '1234');
    await field(page, 'title').fill('Bonjour le gestionnaire');
    await page.getByRole('button', { name: 'Regenerate slug' }).click();
    assert.equal(await field(page, 'slug').inputValue(), 'bonjour-le-gestionnaire');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('heading', { name: 'Bonjour le gestionnaire' }).waitFor();
    await hasText(badge(), 'Draft');
    const fr = (await p.api.get(`/api/articles/${documentId}?status=draft&locale=fr&populate=*`)).json().data;
    assert.deepEqual(
      { title: fr.title, summary: fr.summary, slug: fr.slug, views: fr.views, category: fr.category, locale: fr.locale, sections: fr.sections.map((x: { heading: string }) => x.heading) },
      { title: 'Bonjour le gestionnaire', summary: 'A short summary.', slug: 'bonjour-le-gestionnaire', views: 1234, category: 'guide', locale: 'fr', sections: ['Second section', 'First section'] },
    );
    // Relations are per locale: the French version links what its form showed; media are shared.
    const frLinks = (await p.api.get(`/api/articles/${documentId}?status=draft&locale=fr&populate[authors][fields][0]=name&populate[cover][fields][0]=name`)).json().data;
    assert.deepEqual({ authors: frLinks.authors.map((a: { name: string }) => a.name), cover: frLinks.cover.name }, { authors: ['Grace Hopper'], cover: 'cover.png' });
    // The English version is untouched (published, same title).
    assert.equal((await p.api.get(`/api/articles/${documentId}?locale=en`)).json().data.title, 'Hello content manager');
  });

  it('an invalid publish shows the API\'s error on its field and keeps the form', async () => {
    await page.goto(articleUrl('en'));
    await page.getByRole('heading', { name: 'Hello content manager' }).waitFor();
    await field(page, 'title').fill('ab');
    await field(page, 'summary').fill('A changed summary.');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await hasText(page.getByRole('alert').filter({ hasText: 'Not saved' }), 'Not savedtitle must be at least 3 characters. The fields concerned are marked below.');
    assert.equal(await field(page, 'title').getAttribute('aria-invalid'), 'true');
    const describedBy = (await field(page, 'title').getAttribute('aria-describedby'))!.split(' ');
    const errorText = await page.locator(describedBy.map((id) => `[id="${id}"]`).join(', ')).allTextContents();
    assert.ok(errorText.includes('title must be at least 3 characters'), JSON.stringify(errorText));
    await assertAccessible(page, 'refused publish');
    // Nothing typed was lost; nothing was written.
    assert.equal(await field(page, 'title').inputValue(), 'ab');
    assert.equal(await field(page, 'summary').inputValue(), 'A changed summary.');
    assert.equal(await field(page, 'contact').inputValue(), 'ada@example.com');
    assert.equal((await p.api.get(`/api/articles/${documentId}?locale=en&status=draft`)).json().data.title, 'Hello content manager');
    await field(page, 'title').fill('Hello content manager');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await hasText(badge(), 'Modified');
  });

  it('discards the draft back to the published version, then unpublishes', async () => {
    await page.getByRole('button', { name: 'Discard draft' }).click();
    const discard = page.getByRole('dialog', { name: 'Discard draft' });
    await discard.getByText('The draft (English (en)) goes back to the published version: its unpublished changes are lost.').waitFor();
    await assertAccessible(page, 'discard confirmation');
    await discard.getByRole('button', { name: 'Discard draft' }).click();
    await hasText(badge(), 'Published');
    assert.equal(await field(page, 'summary').inputValue(), 'A short summary.');
    assert.equal((await p.api.get(`/api/articles/${documentId}?locale=en&status=draft`)).json().data.summary, 'A short summary.');

    await page.getByRole('button', { name: 'Unpublish' }).click();
    await page.getByRole('dialog', { name: 'Unpublish' }).getByRole('button', { name: 'Unpublish' }).click();
    await hasText(badge(), 'Draft');
    assert.deepEqual((await p.api.get(`/api/articles?locale=en&filters[documentId][$eq]=${documentId}`)).json().data, []);
    assert.equal((await p.api.get(`/api/articles/${documentId}?locale=en&status=draft`)).json().data.title, 'Hello content manager');
    // The French draft is another version: untouched.
    assert.equal((await p.api.get(`/api/articles/${documentId}?locale=fr&status=draft`)).json().data.title, 'Bonjour le gestionnaire');
  });

  it('asks before overwriting a change made elsewhere: load theirs, or overwrite', async () => {
    const elsewhere = async (summary: string) => {
      const res = await p.api.put(`/api/articles/${documentId}?status=draft&locale=en`, { data: { summary } });
      assert.equal(res.statusCode, 200, res.body);
    };
    await elsewhere('Edited through the API.');
    await field(page, 'summary').fill('Edited in the dashboard.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const prompt = page.getByRole('dialog', { name: 'This document was changed meanwhile' });
    await prompt.waitFor();
    await assertAccessible(page, 'conflict prompt');
    // Nothing was written yet.
    assert.equal((await p.api.get(`/api/articles/${documentId}?locale=en&status=draft`)).json().data.summary, 'Edited through the API.');
    await prompt.getByRole('button', { name: 'Load their version' }).click();
    await hasValue(field(page, 'summary'), 'Edited through the API.');

    await elsewhere('A second API edit.');
    await field(page, 'summary').fill('The dashboard wins.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await prompt.getByRole('button', { name: 'Overwrite' }).click();
    await prompt.waitFor({ state: 'hidden' });
    await eventually(async () => (await p.api.get(`/api/articles/${documentId}?locale=en&status=draft`)).json().data.summary, 'The dashboard wins.');
    await hasValue(field(page, 'summary'), 'The dashboard wins.');
  });

  it('asks before leaving unsaved changes: staying keeps them, leaving drops them', async () => {
    const back = page.getByRole('link', { name: 'Back to Article' });
    const ask = page.getByRole('dialog', { name: 'Leave without saving?' });
    // What the browser's own prompt (closing the tab, reloading) asks the page: leave or not.
    const unloadRefused = () => page.evaluate(() => {
      const e = new Event('beforeunload', { cancelable: true });
      (globalThis as unknown as EventTarget).dispatchEvent(e);
      return e.defaultPrevented;
    });
    // Nothing to lose yet (once the overwrite's saved version has replaced the form's values).
    await eventually(unloadRefused, false);
    await field(page, 'summary').fill('Not saved yet.');
    // Closing the tab asks first (from the render that follows the change on).
    await eventually(unloadRefused, true);
    await back.click();
    await ask.getByText('Your changes to this entry are not saved. They are lost if you leave.').waitFor();
    await assertAccessible(page, 'leave prompt');
    await ask.getByRole('button', { name: 'Stay on this page' }).click();
    await ask.waitFor({ state: 'hidden' });
    assert.equal(page.url(), articleUrl('en'));
    assert.equal(await field(page, 'summary').inputValue(), 'Not saved yet.');

    await back.click();
    await ask.getByRole('button', { name: 'Leave without saving' }).click();
    await page.waitForURL(`${origin}/projects/${p.slug}/content/api::article.article?locale=en`);
    assert.equal((await p.api.get(`/api/articles/${documentId}?locale=en&status=draft`)).json().data.summary, 'The dashboard wins.');
    // Back to the entry: nothing changed, so leaving does not ask.
    await page.goto(articleUrl('en'));
    await hasValue(field(page, 'summary'), 'The dashboard wins.');
    await eventually(unloadRefused, false);
  });

  it('lists entries per locale with their status, and follows changes made elsewhere', async () => {
    await page.getByRole('link', { name: 'Back to Article' }).click();
    await page.waitForURL(`${origin}/projects/${p.slug}/content/api::article.article?locale=en`);
    const table = page.getByRole('table', { name: 'Article entries' });
    await hasText(page.getByTestId('list-total'), '1–1 of 1 entry');
    assert.deepEqual(await table.getByRole('row').allTextContents(), ['titlesummarycontactStatus', 'Hello content managerThe dashboard wins.ada@example.comDraft']);
    // Written elsewhere (the API, another member): the open list follows the live stream.
    const created = await p.api.post('/api/articles?status=draft', { data: { title: 'Written elsewhere' } });
    assert.equal(created.statusCode, 201, created.body);
    await table.getByRole('row', { name: /Written elsewhere/ }).waitFor();
    await hasText(page.getByTestId('list-total'), '1–2 of 2 entries');
    assert.equal((await p.api.del(`/api/articles/${created.json().data.documentId}`)).statusCode, 204);
    await table.getByRole('row', { name: /Written elsewhere/ }).waitFor({ state: 'detached' });
    await hasText(page.getByTestId('list-total'), '1–1 of 1 entry');
    await page.getByRole('combobox', { name: 'Locale' }).click();
    await page.getByRole('option', { name: 'French (fr)' }).click();
    await table.getByRole('row', { name: /Bonjour le gestionnaire/ }).waitFor();
    assert.deepEqual(await table.getByRole('row').allTextContents(), ['titlesummarycontactStatus', 'Bonjour le gestionnaireA short summary.ada@example.comDraft']);
    await table.getByRole('link', { name: 'Bonjour le gestionnaire' }).click();
    await page.waitForURL(articleUrl('fr'));
  });

  it('lists 10,000 entries fast: columns, search, filters, sort, pages with the exact total', async (tc) => {
    // Half of them published, a quarter published then changed (newer draft).
    await sql(`INSERT INTO ${p.schema}.ct_product (document_id, published_at, name, sku, price, updated_at)
      SELECT 'product' || lpad(i::text, 17, '0'), NULL, 'Product ' || i, 'SKU-' || lpad(i::text, 5, '0'), i,
             now() + CASE WHEN i % 4 = 0 THEN interval '1 minute' ELSE interval '0' END
      FROM generate_series(1, ${PRODUCTS}) i
      UNION ALL
      SELECT 'product' || lpad(i::text, 17, '0'), now(), 'Product ' || i, 'SKU-' || lpad(i::text, 5, '0'), i, now()
      FROM generate_series(2, ${PRODUCTS}, 2) i`);
    await sql(`ANALYZE ${p.schema}.ct_product`);
    const table = page.getByRole('table', { name: 'Product entries' });
    const started = Date.now();
    await page.getByRole('navigation', { name: 'Content types' }).getByRole('link', { name: 'Product' }).click();
    await table.getByRole('row').nth(25).waitFor();
    await hasText(page.getByTestId('list-total'), '1–25 of 10,000 entries');
    const elapsed = Date.now() - started;
    const calls = (await page.evaluate(`performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/products?'))
      .map((e) => ({ url: decodeURIComponent(e.name.slice(e.name.indexOf('/api/'))), ms: Math.round(e.duration) }))`)) as Array<{ url: string; ms: number }>;
    tc.diagnostic(`first page of ${PRODUCTS} entries: ${elapsed} ms from the click to the rows shown; API calls: ${
      calls.map((c) => `${c.ms} ms (${c.url.includes('status=published') ? 'their published rows' : 'the page of drafts'})`).join(', ')}`);
    assert.deepEqual((await table.getByRole('row').allTextContents()).slice(0, 5), ['nameskupriceStatus', 'Product 1SKU-000011Draft', 'Product 2SKU-000022Published', 'Product 3SKU-000033Draft', 'Product 4SKU-000044Modified']);
    await assertAccessible(page, 'list of 10,000');

    // Columns: sku out, updatedAt in.
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('checkbox', { name: 'sku' }).uncheck();
    await page.getByRole('checkbox', { name: 'updatedAt' }).check();
    await page.keyboard.press('Escape');
    await hasText(table.getByRole('row').first(), 'namepriceupdatedAtStatus');

    // Sort by price: ascending, then descending.
    await table.getByRole('button', { name: 'price' }).click();
    await table.getByRole('columnheader', { name: 'price' }).and(page.locator('[aria-sort="ascending"]')).waitFor();
    await table.getByRole('button', { name: /^price/ }).click();
    await table.getByRole('columnheader', { name: /^price/ }).and(page.locator('[aria-sort="descending"]')).waitFor();
    await hasText(table.getByRole('row').nth(1).getByRole('cell').first(), 'Product 10000');
    assert.deepEqual(await table.getByRole('row').nth(1).getByRole('cell').allTextContents().then((c) => [c[0], c[1], c[3]]), ['Product 10000', '10000', 'Modified']);
    assert.equal(page.url(), `${origin}/projects/${p.slug}/content/api::product.product?sort=price%3Adesc`);

    // Search (_q).
    await page.getByLabel('Search').fill('Product 4242');
    await hasText(page.getByTestId('list-total'), '1–1 of 1 entry');
    assert.equal(await table.getByRole('row').nth(1).getByRole('cell').first().textContent(), 'Product 4242');
    await page.getByLabel('Search').fill('');
    await hasText(page.getByTestId('list-total'), '1–25 of 10,000 entries');

    // Filters, with the API's operators.
    const addFilter = async (fieldName: string, condition: string, value: string) => {
      await page.getByRole('button', { name: 'Add filter' }).click();
      const dropdown = page.getByRole('dialog');
      await dropdown.getByRole('combobox', { name: 'Field' }).click();
      await dropdown.getByRole('option', { name: fieldName, exact: true }).click();
      await dropdown.getByRole('combobox', { name: 'Condition' }).click();
      await dropdown.getByRole('option', { name: condition, exact: true }).click();
      await dropdown.getByRole('textbox', { name: 'Value' }).fill(value);
      await dropdown.getByRole('button', { name: 'Apply filter' }).click();
    };
    await addFilter('price', 'is greater than', '9990');
    await page.getByRole('listitem').filter({ hasText: 'price is greater than 9990' }).waitFor();
    await hasText(page.getByTestId('list-total'), '1–10 of 10 entries');
    await assertAccessible(page, 'filtered list');
    await screenshot(page, 'content-list');
    await page.getByRole('button', { name: 'Remove filter price is greater than 9990' }).click();
    await addFilter('name', 'ends with', '777');
    await hasText(page.getByTestId('list-total'), '1–10 of 10 entries');
    assert.deepEqual(await table.getByRole('row').evaluateAll((rows) => rows.slice(1).map((r) => r.firstElementChild!.textContent)),
      ['Product 9777', 'Product 8777', 'Product 7777', 'Product 6777', 'Product 5777', 'Product 4777', 'Product 3777', 'Product 2777', 'Product 1777', 'Product 777']);
    await page.getByRole('button', { name: 'Remove filter name ends with 777' }).click();

    // Pages with the exact total.
    await addFilter('price', 'is lower than or equal to', '100');
    await hasText(page.getByTestId('list-total'), '1–25 of 100 entries');
    await page.getByRole('button', { name: 'Page 2' }).click();
    await hasText(page.getByTestId('list-total'), '26–50 of 100 entries');
    assert.equal(await table.getByRole('row').nth(1).getByRole('cell').first().textContent(), 'Product 75');
    await chooseOption(page, page.getByRole('combobox', { name: 'Entries per page' }), '50');
    await hasText(page.getByTestId('list-total'), '1–50 of 100 entries');
    assert.equal(await table.getByRole('row').count(), 51);
  });

  it('edits a single type in one form', async () => {
    await page.getByRole('navigation', { name: 'Content types' }).getByRole('link', { name: 'Homepage' }).click();
    await page.getByText('Homepage has no content yet.').waitFor();
    await assertAccessible(page, 'empty single type');
    await field(page, 'headline').fill('Welcome home');
    await field(page, 'intro').fill('Everything starts here.');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await hasText(badge(), 'Published');
    const home = (await p.api.get('/api/homepage')).json().data;
    assert.deepEqual({ headline: home.headline, intro: home.intro }, { headline: 'Welcome home', intro: 'Everything starts here.' });
    await field(page, 'intro').fill('Everything starts here, again.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await hasText(badge(), 'Modified');
    assert.equal((await p.api.get('/api/homepage?status=draft')).json().data.intro, 'Everything starts here, again.');
    assert.equal((await p.api.get('/api/homepage')).json().data.intro, 'Everything starts here.');
  });

  it('a viewer sees every form read-only', async () => {
    const email = 'viewer@content.test';
    await joinByInvitation(t, smtp, p, email, 'viewer');
    const { context: viewerContext, page: view, consoleErrors: viewerErrors } = await openPage(browser, VIEWPORT);
    await logIn(view, origin, email);
    await view.goto(articleUrl('en'));
    await view.getByRole('heading', { name: 'Hello content manager' }).waitFor();
    assert.equal(await field(view, 'title').inputValue(), 'Hello content manager');
    assert.equal(await field(view, 'title').isDisabled(), true);
    assert.equal(await field(view, 'summary').isDisabled(), true);
    assert.equal(await view.getByRole('switch', { name: 'featured' }).isDisabled(), true);
    for (const name of ['Save', 'Publish', 'Delete', 'Add an item to sections', 'Add a component to zone']) {
      assert.equal(await view.getByRole('button', { name, exact: true }).count(), 0, name);
    }
    await assertAccessible(view, 'viewer editor');
    await view.getByRole('link', { name: 'Back to Article' }).click();
    await view.getByRole('table', { name: 'Article entries' }).getByRole('link', { name: 'Hello content manager' }).waitFor();
    assert.equal(await view.getByRole('link', { name: 'Create new entry' }).count(), 0);
    await view.getByRole('navigation', { name: 'Content types' }).getByRole('link', { name: 'Homepage' }).click();
    assert.equal(await field(view, 'headline').inputValue(), 'Welcome home');
    assert.equal(await field(view, 'headline').isDisabled(), true);
    assert.deepEqual(viewerErrors(), []);
    await viewerContext.close();
  });

  it('deletes one locale, then every locale, after confirming', async () => {
    await page.goto(articleUrl('fr'));
    await page.getByRole('heading', { name: 'Bonjour le gestionnaire' }).waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete' });
    await dialog.getByRole('radio', { name: 'Only French (fr)' }).waitFor();
    assert.equal(await dialog.getByRole('radio', { name: 'Only French (fr)' }).isChecked(), true);
    await assertAccessible(page, 'delete confirmation');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL(`${origin}/projects/${p.slug}/content/api::article.article?locale=fr`);
    await hasText(page.getByTestId('list-total'), '0 entries');
    assert.equal((await p.api.get(`/api/articles?status=draft&locale=*&fields[0]=locale`)).json().data.map((d: { locale: string }) => d.locale).join(), 'en');

    await page.goto(articleUrl('en'));
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByRole('radio', { name: 'Every locale' }).check();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL(`${origin}/projects/${p.slug}/content/api::article.article?locale=en`);
    await hasText(page.getByTestId('list-total'), '0 entries');
    assert.deepEqual((await p.api.get('/api/articles?status=draft&locale=*')).json().data, []);
  });

  it('logged no error on any page but the refused publish', () => {
    assert.deepEqual(consoleErrors(), [
      `console: Failed to load resource: the server responded with a status of 400 (Bad Request) ${origin}/p/${p.slug}/api/articles/${documentId}?status=published&locale=en`,
    ]);
  });
});
