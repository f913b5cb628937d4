// `cms api <method> <path>` as a child process against a listening gateway: any /v1 route with the
// session, bodies from --data (JSON, @file, @-), --query, the JSON answer on stdout, a refusal's
// message on stderr with exit 1, usage errors with exit 2.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { cliFor, type Cli } from '../helpers/cli.ts';
import { as, signup, type Session } from '../helpers/management.ts';

describe('cms api', () => {
  let t: TestApp;
  let cli: Cli;
  let me: Session;
  let dir: string;
  const slug = `cli-api-${process.pid}`;
  const run = (args: string[], input?: string) => cli.run(['api', ...args], { env: { CMS_TOKEN: me.token }, input });

  before(async () => {
    t = await startTestApp();
    cli = await cliFor(t);
    me = await signup(t, `cli-api-${process.pid}@example.com`);
    dir = await mkdtemp(join(tmpdir(), 'cms-cli-api-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
    await cli?.close();
    await t?.close();
  });

  it('GETs a route with the session and prints its JSON answer', async () => {
    const res = await run(['get', '/v1/auth/me']);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout, `${JSON.stringify({ account: me.account }, null, 2)}\n`);
    // `/v1` may be left out.
    assert.deepEqual(JSON.parse((await run(['GET', 'auth/me'])).stdout), { account: me.account });
  });

  it('sends --data as the JSON body, from the argument, a file or stdin', async () => {
    const created = await run(['post', '/v1/projects', '--data', JSON.stringify({ name: 'CLI api', slug })]);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(JSON.parse(created.stdout).project.slug, slug);
    const file = join(dir, 'rename.json');
    await writeFile(file, JSON.stringify({ name: 'Renamed' }));
    const renamed = await run(['patch', `/v1/projects/${slug}`, '--data', `@${file}`]);
    assert.equal(renamed.code, 0, renamed.stderr);
    assert.equal(JSON.parse(renamed.stdout).project.name, 'Renamed');
    const locale = await run(['post', `/v1/projects/${slug}/locales`, '--data', '@-'], JSON.stringify({ code: 'fr' }));
    assert.equal(locale.code, 0, locale.stderr);
    assert.deepEqual(JSON.parse(locale.stdout), { locale: { code: 'fr', name: JSON.parse(locale.stdout).locale.name, isDefault: false } });
    const list = await as(t, me).get(`/v1/projects/${slug}/locales`);
    assert.deepEqual(list.json().locales.map((l: { code: string }) => l.code).sort(), ['en', 'fr']);
  });

  it('adds --query parameters and prints nothing for a 204', async () => {
    const page = await run(['get', '/v1/auth/audit-logs', '--query', 'pageSize=1', '--query', 'page=1']);
    assert.equal(page.code, 0, page.stderr);
    assert.deepEqual(JSON.parse(page.stdout).meta.pagination.pageSize, 1);
    const removed = await run(['delete', `/v1/projects/${slug}/locales/fr`]);
    assert.deepEqual(removed, { code: 0, stdout: '', stderr: '' });
  });

  it('prints a refusal\'s message on stderr and exits 1', async () => {
    const missing = await run(['get', '/v1/projects/nowhere-at-all']);
    assert.equal(missing.code, 1);
    assert.equal(missing.stdout, '');
    assert.equal(missing.stderr, 'Error: Not Found (404 NotFoundError)\n');
    const invalid = await run(['post', '/v1/projects', '--data', '{"name": 7}']);
    assert.equal(invalid.code, 1);
    assert.match(invalid.stderr, /^Error: .*\(400 ValidationError\)/);
    const anonymous = await cli.run(['api', 'get', '/v1/auth/me']);
    assert.equal(anonymous.code, 1);
    assert.match(anonymous.stderr, /Not logged in to .*: run `cms login`/);
  });

  it('refuses a wrong invocation with exit 2', async () => {
    assert.equal((await run(['fetch', '/v1/auth/me'])).code, 2);
    const notJson = await run(['post', '/v1/projects', '--data', '{name:']);
    assert.equal(notJson.code, 2);
    assert.match(notJson.stderr, /--data is not JSON/);
    const badQuery = await run(['get', '/v1/auth/audit-logs', '--query', 'nokey']);
    assert.equal(badQuery.code, 2);
    assert.match(badQuery.stderr, /--query nokey: expected key=value/);
  });
});
