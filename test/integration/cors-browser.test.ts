// A real browser app on another origin calling a project's API: preflighted fetch with a Bearer
// token and the official @strapi/client in the page read and write documents; an origin the
// project does not list is blocked by the browser; a settings change is live on a second gateway.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { blogRawModel } from '../fixtures/index.ts';

const require = createRequire(import.meta.url);
const CLIENT_BUNDLE = require.resolve('@strapi/client').replace(/bundle\.[a-z]+$/, 'bundle.browser.iife.min.js');

async function listen(app: TestApp): Promise<string> {
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.fastify.server.address() as { port: number }).port}`;
}

/** A front end's own origin: one page and the client's browser bundle. */
async function startFrontEnd(): Promise<{ server: Server; origin: string }> {
  const bundle = await readFile(CLIENT_BUNDLE);
  const server = createServer((req, res) => {
    if (req.url === '/strapi-client.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    } else {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>front end</title><script src="/strapi-client.js"></script>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // `localhost` and `127.0.0.1` are different origins: the page is cross-origin to the gateway.
  return { server, origin: `http://localhost:${(server.address() as { port: number }).port}` };
}

describe('a browser app on another origin', () => {
  let t: TestApp;
  let second: TestApp;
  let p: ContentProject;
  let gateway: string;
  let secondGateway: string;
  let token: string;
  let frontEnd: { server: Server; origin: string };
  let browser: Browser;
  let page: Page;

  before(async () => {
    t = await startTestApp();
    second = await startTestApp({ share: t });
    p = await setupContentProject(t, blogRawModel());
    token = await p.token('full-access');
    gateway = `${await listen(t)}/p/${p.slug}`;
    secondGateway = `${await listen(second)}/p/${p.slug}`;
    frontEnd = await startFrontEnd();
    browser = await launchBrowser();
    page = await browser.newPage();
    await page.goto(frontEnd.origin);
  });
  after(async () => {
    await browser?.close();
    frontEnd?.server.close();
    await second?.close();
    await t?.close();
  });

  /** fetch() in the page: the answer, or the browser's refusal. */
  const pageFetch = (url: string, init: { method?: string; body?: unknown } = {}) =>
    page.evaluate(async ({ url, token, init }) => {
      try {
        const res = await fetch(url, {
          method: init.method ?? 'GET',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
        });
        return { status: res.status, body: await res.text(), requestId: res.headers.get('x-request-id') };
      } catch (err) {
        return { blocked: String(err) };
      }
    }, { url, token, init });

  it('fetch with a Bearer token (preflighted) writes and reads documents', async () => {
    const created = await pageFetch(`${gateway}/api/tags`, { method: 'POST', body: { data: { label: 'from the browser' } } });
    assert.equal(created.status, 201, JSON.stringify(created));
    const documentId = JSON.parse(created.body!).data.documentId as string;
    const read = await pageFetch(`${gateway}/api/tags/${documentId}`);
    assert.equal(read.status, 200, JSON.stringify(read));
    assert.equal(JSON.parse(read.body!).data.label, 'from the browser');
    assert.match(read.requestId ?? '', /./, 'x-request-id is readable (exposed)');
    const refused = await pageFetch(`${gateway}/api/tags`, { method: 'POST', body: { data: {} } });
    assert.equal(refused.status, 400, 'errors are readable too');
    assert.equal(JSON.parse(refused.body!).error.name, 'ValidationError');
  });

  it('@strapi/client in the page: create, find, update, delete', async () => {
    const result = await page.evaluate(async ({ baseURL, token }) => {
      const client = (globalThis as unknown as { strapi: { strapi(c: object): any } }).strapi.strapi({ baseURL, auth: token });
      const tags = client.collection('tags');
      const created = await tags.create({ label: 'client' });
      const found = await tags.find({ filters: { label: { $eq: 'client' } } });
      const updated = await tags.update(created.data.documentId, { label: 'client 2' });
      await tags.delete(created.data.documentId);
      const after = await tags.find({ filters: { documentId: { $eq: created.data.documentId } } });
      return { found: found.data.map((d: { label: string }) => d.label), updated: updated.data.label, after: after.data.length };
    }, { baseURL: `${gateway}/api`, token });
    assert.deepEqual(result, { found: ['client'], updated: 'client 2', after: 0 });
  });

  it('an origin the project does not list is blocked; listing it again is live on the second gateway', async () => {
    const put = await p.admin.put(`/v1/projects/${p.slug}/settings/cors`, { origins: ['https://somewhere-else.example'] });
    assert.equal(put.statusCode, 200);
    for (const base of [gateway, secondGateway]) {
      const blocked = await pageFetch(`${base}/api/tags`);
      assert.match(String(blocked.blocked), /Failed to fetch/, `${base}: ${JSON.stringify(blocked)}`);
    }
    assert.equal((await p.admin.put(`/v1/projects/${p.slug}/settings/cors`, { origins: [frontEnd.origin] })).statusCode, 200);
    const started = Date.now();
    let res = await pageFetch(`${secondGateway}/api/tags`);
    while (res.status !== 200 && Date.now() - started < 1000) res = await pageFetch(`${secondGateway}/api/tags`);
    assert.equal(res.status, 200, JSON.stringify(res));
    assert.ok(Date.now() - started < 1000);
  });
});
