// The content manager's rich field editors in a real Chromium: rich text (blocks) written with the
// toolbar and shortcuts, Markdown with its preview, JSON checked as it is typed, relations searched,
// picked and reordered (buttons, keyboard, drag and drop); the REST API then holds exactly that, a
// reload shows it back, and a later save writes only what changed. axe-core on every state.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { dragTo, listen, logIn, openPage } from '../helpers/browser-session.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { assertAccessible } from '../helpers/dashboard.ts';
import { joinByInvitation } from '../helpers/management.ts';
import { multipart } from '../helpers/multipart.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { addAuthorsAndCover, item, text } from '../fixtures/editor.ts';

const VIEWPORT = { viewport: { width: 1400, height: 1000 } };

const MODEL = {
  contentTypes: {
    'api::post.post': {
      kind: 'collectionType',
      info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' },
      options: { draftAndPublish: true },
      attributes: {
        title: { type: 'string', required: true },
        body: { type: 'blocks', required: true },
        notes: { type: 'richtext' },
        meta: { type: 'json' },
        authors: { type: 'relation', relation: 'manyWay', target: 'api::author.author' },
        editor: { type: 'relation', relation: 'oneWay', target: 'api::author.author' },
      },
    },
    'api::author.author': {
      kind: 'collectionType',
      info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' },
      options: { draftAndPublish: true },
      attributes: { name: { type: 'string', required: true } },
    },
  },
  components: {},
};

describe('dashboard field editors in a browser', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let p: ContentProject;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let consoleErrors: () => string[];
  let cover: Record<string, unknown>;
  let authorIds: Record<string, string>;
  let documentId: string;

  before(async () => {
    smtp = await startSmtp();
    t = await startTestApp({ env: { SMTP_URL: smtp.url, EMAIL_FROM: 'team@platform.test' } });
    origin = await listen(t);
    p = await setupContentProject(t, MODEL);
    ({ authorIds, cover } = await addAuthorsAndCover(p));
    // 31 newer images: the picker shows 30 at first, so the cover is found by search or "Show more".
    const filler = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'gray' } }).png().toBuffer();
    for (let i = 0; i < 31; i += 8) {
      await Promise.all(Array.from({ length: Math.min(8, 31 - i) }, async (_, j) => {
        const name = `filler-${String(i + j).padStart(2, '0')}.png`;
        const res = await p.api.raw('POST', '/api/upload', await multipart({ files: { name, content: filler, type: 'image/png' } }));
        assert.equal(res.statusCode, 201, res.body);
      }));
    }
    browser = await launchBrowser();
    ({ page, consoleErrors } = await openPage(browser, VIEWPORT));
    page.setDefaultTimeout(15_000);
    await logIn(page, origin, p.owner.account.email);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.close();
  });
  const body = () => page.getByRole('textbox', { name: /^body/ });
  const notes = () => page.getByRole('textbox', { name: 'notes' });
  const meta = () => page.getByRole('textbox', { name: 'meta' });
  const linked = (field: string) => page.getByRole('list', { name: `${field}: linked entries` }).getByRole('listitem');
  const tool = (name: string) => page.getByRole('toolbar', { name: 'body formatting' }).getByRole('button', { name, exact: true });
  async function pick(field: string, search: string, option: string) {
    await page.getByRole('combobox', { name: field }).fill(search);
    await page.getByRole('option', { name: option }).click();
  }
  async function order(field: string): Promise<string[]> {
    // A row reads "⠿", the entry's label, "↑", "↓", "Remove" (the glyphs are the buttons').
    return (await linked(field).allTextContents()).map((s) => s.replace(/[⠿↑↓]|Remove$/g, '').trim());
  }
  const stored = async () => (await p.api.get(`/api/posts/${documentId}?status=draft&populate=*`)).json().data;
  const names = (list: Array<{ documentId: string }>) => list.map((a) => Object.keys(authorIds).find((n) => authorIds[n] === a.documentId));

  const expectedBody = () => [
    { type: 'paragraph', children: [text('Hello '), text('bold', { bold: true }), text(' and '), text('italic', { italic: true })] },
    { type: 'heading', level: 2, children: [text('A heading')] },
    {
      type: 'list', format: 'unordered', children: [
        item('one'), item('two'), { type: 'list', format: 'unordered', indentLevel: 1, children: [item('nested')] }, item('three'),
      ],
    },
    { type: 'paragraph', children: [text(''), { type: 'link', url: 'https://example.com/docs', children: [text('Read the docs')] }, text('')] },
    {
      type: 'image', children: [text('')],
      image: {
        ...Object.fromEntries(['name', 'url', 'caption', 'width', 'height', 'formats', 'hash', 'ext', 'mime', 'size', 'previewUrl', 'provider', 'createdAt', 'updatedAt']
          .map((k) => [k, cover[k]])),
        alternativeText: 'A blue cover',
      },
    },
    { type: 'paragraph', children: [text('')] },
  ];

  it('writes rich text, Markdown, JSON and relations through their editors', async () => {
    await page.goto(`${origin}/projects/${p.slug}/content/api::post.post/new`);
    await page.getByRole('heading', { name: 'New Post entry' }).waitFor();
    await page.getByLabel(/^title/).fill('Field editors');

    // Blocks: marks by shortcut, a heading, a nested list, a link and an image from the media library.
    await body().click();
    await page.keyboard.type('Hello ');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('bold');
    await page.keyboard.press('Control+b');
    await page.keyboard.type(' and ');
    await page.keyboard.press('Control+i');
    await page.keyboard.type('italic');
    assert.equal(await tool('Italic').getAttribute('aria-pressed'), 'true');
    await page.keyboard.press('Control+i');
    await page.keyboard.press('Enter');
    await page.getByRole('combobox', { name: 'Text style' }).selectOption('heading-2');
    await page.keyboard.type('A heading');
    await page.keyboard.press('Enter');
    await tool('Bulleted list').click();
    await page.keyboard.type('one');
    await page.keyboard.press('Enter');
    await page.keyboard.type('two');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.type('nested');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('three');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Read the docs');
    await page.keyboard.press('Shift+Home');
    await tool('Link').click();
    await page.getByRole('dialog', { name: 'Add link' }).getByLabel(/^URL/).fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Save link' }).click();
    await page.getByText('Enter a web address').waitFor();
    await page.getByRole('dialog', { name: 'Add link' }).getByLabel(/^URL/).fill('example.com/docs');
    await page.getByRole('button', { name: 'Save link' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await body().getByRole('link', { name: 'Read the docs' }).waitFor();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await tool('Image').click();
    const dialog = page.getByRole('dialog', { name: 'Insert an image' });
    const shown = dialog.getByRole('group', { name: 'Images of the media library' }).getByRole('button');
    await dialog.getByRole('button', { name: 'Show more images' }).waitFor();
    assert.equal(await shown.count(), 30);
    assert.equal(await dialog.getByRole('button', { name: 'cover.png' }).count(), 0);
    await dialog.getByRole('button', { name: 'Show more images' }).click();
    await dialog.getByRole('button', { name: 'cover.png' }).waitFor();
    assert.equal(await shown.count(), 32);
    assert.equal(await dialog.getByRole('button', { name: 'Show more images' }).count(), 0);
    await dialog.getByLabel('Search images').fill('COVER');
    await shown.filter({ hasText: 'filler' }).first().waitFor({ state: 'detached' });
    assert.deepEqual(await shown.allTextContents(), ['cover.png']);
    await dialog.getByLabel('Search images').fill('no such image');
    await dialog.getByText('No image\'s name contains “no such image”.').waitFor();
    await dialog.getByLabel('Search images').fill('cover');
    await dialog.getByRole('button', { name: 'cover.png' }).click();
    await dialog.getByLabel('Alternative text').fill('A blue cover');
    await assertAccessible(page, 'image picker');
    await dialog.getByRole('button', { name: 'Insert image' }).click();
    await body().getByRole('img', { name: 'A blue cover' }).waitFor();
    // Undo takes back the last typing.
    await page.keyboard.type('oops');
    await body().getByText('oops').waitFor();
    await tool('Undo').click();
    await body().getByText('oops').waitFor({ state: 'detached' });

    // Markdown, and its preview.
    await notes().click();
    await page.keyboard.type('# Notes');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.insertText('Some **strong** words.');
    await page.getByRole('tab', { name: 'Preview' }).click();
    const preview = page.getByRole('tabpanel', { name: 'Preview' });
    await preview.getByRole('heading', { name: 'Notes' }).waitFor();
    assert.equal(await preview.locator('strong').textContent(), 'strong');
    await assertAccessible(page, 'markdown preview');
    await page.getByRole('tab', { name: 'Write' }).click();

    // JSON: text that does not parse is reported and holds the save back.
    await meta().click();
    await page.keyboard.insertText('{"a": ');
    await page.getByText(/^Invalid JSON: /).waitFor();
    assert.equal(await meta().getAttribute('aria-invalid'), 'true');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(/Fix the JSON in meta first/).waitFor();
    await meta().click();
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText('{"a": [1, 2], "b": {"c": true}}');
    await page.getByText(/^Invalid JSON: /).waitFor({ state: 'detached' });

    // Relations: searched as typed, picked, reordered with the buttons and the keyboard.
    await pick('authors', 'gr', 'Grace Hopper');
    await page.getByRole('combobox', { name: 'authors' }).fill('a');
    await page.getByRole('option', { name: 'Alan Turing' }).waitFor();
    assert.equal(await page.getByRole('option', { name: 'Grace Hopper' }).count(), 0, 'picked entries are not offered again');
    await page.getByRole('option', { name: 'Ada Lovelace' }).click();
    await pick('authors', 'tur', 'Alan Turing');
    assert.deepEqual(await order('authors'), ['Grace Hopper', 'Ada Lovelace', 'Alan Turing']);
    await page.getByRole('button', { name: 'Move Alan Turing up' }).click();
    assert.deepEqual(await order('authors'), ['Grace Hopper', 'Alan Turing', 'Ada Lovelace']);
    await page.getByRole('button', { name: 'Reorder Grace Hopper' }).focus();
    await page.keyboard.press('Space');
    await page.getByText('Picked up Grace Hopper, at position 1 of 3.').waitFor({ state: 'attached' });
    await page.keyboard.press('ArrowDown');
    await page.getByText('Grace Hopper moved to position 2 of 3.').waitFor({ state: 'attached' });
    await page.keyboard.press('Space');
    await linked('authors').first().filter({ hasText: 'Alan Turing' }).waitFor();
    assert.deepEqual(await order('authors'), ['Alan Turing', 'Grace Hopper', 'Ada Lovelace']);
    await pick('editor', 'ada', 'Ada Lovelace');
    await pick('editor', 'alan', 'Alan Turing');
    assert.deepEqual(await order('editor'), ['Alan Turing']);
    await assertAccessible(page, 'editors filled');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/content\/api::post\.post\/[a-z0-9]{24}$/);
    documentId = /\/([a-z0-9]{24})$/.exec(page.url())![1]!;
    const doc = await stored();
    assert.deepEqual(doc.body, expectedBody());
    assert.equal(doc.notes, '# Notes\n\nSome **strong** words.');
    assert.deepEqual(doc.meta, { a: [1, 2], b: { c: true } });
    assert.deepEqual(names(doc.authors), ['Alan Turing', 'Grace Hopper', 'Ada Lovelace']);
    assert.equal(doc.editor.documentId, authorIds['Alan Turing']);
  });

  it('shows the stored values again, and a later save writes only what changed', async () => {
    await page.reload();
    await body().getByRole('heading', { name: 'A heading', level: 2 }).waitFor();
    assert.equal(await body().locator('strong').textContent(), 'bold');
    assert.equal(await body().getByRole('link', { name: 'Read the docs' }).getAttribute('href'), 'https://example.com/docs');
    // The nested list sits in an item of its own (<ul> holds only <li>).
    assert.deepEqual(await body().locator('ul ul > li').allTextContents(), ['nested']);
    assert.deepEqual(await body().getByRole('list').first().getByRole('listitem').allTextContents(), ['one', 'two', 'nested', 'nested', 'three']);
    assert.equal((await notes().textContent())!.replace(/\u200b/g, ''), '# NotesSome **strong** words.');
    assert.match((await meta().innerText()).replace(/\s+/g, ' '), /^\{ "a": \[ 1, 2 \], "b": \{ "c": true \} \}$/);
    assert.deepEqual(await order('authors'), ['Alan Turing', 'Grace Hopper', 'Ada Lovelace']);
    await assertAccessible(page, 'stored entry');

    // Remove Grace; drag Ada to the top.
    await page.getByRole('button', { name: 'Remove Grace Hopper' }).click();
    assert.deepEqual(await order('authors'), ['Alan Turing', 'Ada Lovelace']);
    const handle = page.getByRole('button', { name: 'Reorder Ada Lovelace' });
    const target = page.getByRole('button', { name: 'Reorder Alan Turing' });
    await page.getByRole('combobox', { name: 'editor' }).scrollIntoViewIfNeeded();
    await dragTo(page, handle, target);
    await linked('authors').first().filter({ hasText: 'Ada Lovelace' }).waitFor();
    assert.deepEqual(await order('authors'), ['Ada Lovelace', 'Alan Turing']);
    // One more word in the rich text.
    await body().getByRole('heading', { name: 'A heading' }).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' again');
    // A code block at the end (Enter on its empty last line leaves it), then a quote.
    await page.keyboard.press('Control+End');
    await page.getByRole('combobox', { name: 'Text style' }).selectOption('code');
    await page.keyboard.type('let a = 1;');
    await page.keyboard.press('Enter');
    await page.keyboard.type('let b = 2;');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.getByRole('combobox', { name: 'Text style' }).selectOption('quote');
    await page.keyboard.type('Wise words');
    await body().locator('blockquote').filter({ hasText: 'Wise words' }).waitFor();

    const write = page.waitForResponse((res) => res.request().method() === 'PUT' && res.url().includes(`/api/posts/${documentId}`));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const response = await write;
    assert.equal(response.status(), 200, await response.text());
    const data = (response.request().postDataJSON() as { data: Record<string, unknown> }).data;
    assert.deepEqual(data.authors, {
      disconnect: [{ documentId: authorIds['Grace Hopper'] }],
      connect: [{ documentId: authorIds['Ada Lovelace'], position: { start: true } }, { documentId: authorIds['Alan Turing'], position: { after: authorIds['Ada Lovelace'] } }],
    });
    assert.equal('editor' in data, false, 'an unchanged relation is left out of the write');
    const doc = await stored();
    assert.deepEqual(names(doc.authors), ['Ada Lovelace', 'Alan Turing']);
    assert.equal(doc.editor.documentId, authorIds['Alan Turing']);
    assert.deepEqual(doc.body, [
      ...expectedBody().slice(0, 1),
      { type: 'heading', level: 2, children: [text('A heading again')] },
      ...expectedBody().slice(2, 5),
      { type: 'code', children: [text('let a = 1;\nlet b = 2;')] },
      { type: 'quote', children: [text('Wise words')] },
    ]);
  });

  it('a viewer reads every field without a way to change it', async () => {
    const email = 'viewer@fields.test';
    await joinByInvitation(t, smtp, p, email, 'viewer');
    const { context, page: view, consoleErrors: errors } = await openPage(browser, VIEWPORT);
    await logIn(view, origin, email);
    await view.goto(`${origin}/projects/${p.slug}/content/api::post.post/${documentId}`);
    const rich = view.getByRole('textbox', { name: /^body/ });
    await rich.getByRole('heading', { name: 'A heading again' }).waitFor();
    assert.equal(await rich.getAttribute('aria-readonly'), 'true');
    assert.equal(await rich.getAttribute('contenteditable'), 'false');
    assert.equal(await view.getByRole('toolbar').count(), 0);
    // Markdown reads rendered; JSON in its read-only editor.
    await view.getByRole('group', { name: 'notes' }).getByRole('heading', { name: 'Notes' }).waitFor();
    assert.equal(await view.getByRole('group', { name: 'notes' }).locator('strong').textContent(), 'strong');
    const json = view.getByRole('textbox', { name: 'meta' });
    assert.equal(await json.getAttribute('aria-readonly'), 'true');
    assert.equal(await view.getByRole('combobox', { name: 'authors' }).count(), 0);
    assert.equal(await view.getByRole('list', { name: 'authors: linked entries' }).getByRole('listitem').count(), 2);
    assert.equal(await view.getByRole('button', { name: /^(Remove|Move|Reorder) / }).count(), 0);
    // The read-only JSON editor refuses typing.
    await json.click();
    await view.keyboard.type('x');
    assert.equal((await json.textContent())!.includes('x'), false);
    await assertAccessible(view, 'viewer');
    assert.deepEqual(errors(), []);
    await context.close();
  });

  it('logged no error on any page', () => {
    assert.deepEqual(consoleErrors(), []);
  });
});
