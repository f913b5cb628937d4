// The `cms` CLI as a child process against a listening gateway: login (the session file, 0600),
// whoami, logout, CMS_URL/CMS_TOKEN, projects, API tokens (the key really reads the content
// API), exit codes, and errors — the server's message, another account's project untouched.
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { cliFor, type Cli } from '../helpers/cli.ts';
import { freePort } from '../helpers/process.ts';
import { as, count, createProject, PASSWORD, signup, type Session } from '../helpers/management.ts';

describe('cms CLI: accounts, projects, tokens', () => {
  let t: TestApp;
  let cli: Cli;
  let me: Session;
  let other: Session;
  const slug = `cli-${process.pid}`;

  before(async () => {
    t = await startTestApp();
    cli = await cliFor(t);
    me = await signup(t, `cli-${process.pid}@example.com`);
    other = await signup(t, `cli-other-${process.pid}@example.com`);
  });
  after(async () => {
    await cli?.close();
    await t?.close();
  });

  const sessionFile = async () => JSON.parse(await readFile(cli.configFile, 'utf8')) as { url: string; token: string; email: string };

  describe('login, whoami', () => {
    it('refuses a wrong password with the server\'s message, exit 1, and stores nothing', async () => {
      const res = await cli.run(['login', '--email', me.account.email, '--password-stdin'], { input: 'not the password\n' });
      assert.equal(res.code, 1, res.stderr);
      assert.equal(res.stderr, 'Error: Invalid email or password (401 UnauthorizedError)\n');
      await assert.rejects(stat(cli.configFile), { code: 'ENOENT' });
    });

    it('without credentials and no terminal to ask on is a usage error (exit 2)', async () => {
      const res = await cli.run(['login']);
      assert.equal(res.code, 2);
      assert.match(res.stderr, /No terminal to ask on: pass --email and --password/);
    });

    it('logs in and keeps the session in a 0600 file of the config directory', async () => {
      const res = await cli.run(['login', '--email', me.account.email, '--password-stdin'], { input: `${PASSWORD}\n` });
      assert.equal(res.code, 0, res.stderr);
      assert.equal(res.stdout, `Logged in to ${cli.url} as ${me.account.email} (session stored in ${cli.configFile}).\n`);
      assert.equal((await stat(cli.configFile)).mode & 0o777, 0o600);
      const stored = await sessionFile();
      assert.deepEqual(Object.keys(stored).sort(), ['email', 'token', 'url']);
      assert.equal(stored.url, cli.url);
      assert.equal(stored.email, me.account.email);
      // A real session of that account.
      const who = await as(t, stored.token).get('/v1/auth/me');
      assert.equal(who.statusCode, 200);
      assert.equal(who.json().account.id, me.account.id);
    });

    it('whoami shows the account, as text and JSON', async () => {
      const res = await cli.run(['whoami']);
      assert.equal(res.code, 0, res.stderr);
      assert.equal(res.stdout, `${me.account.email} on ${cli.url}\n`);
      const json = await cli.run(['whoami', '--json']);
      assert.deepEqual(JSON.parse(json.stdout), { id: me.account.id, email: me.account.email, name: null, emailVerified: false, twoFactorEnabled: false });
    });

    it('never sends the stored session to another address', async () => {
      const res = await cli.run(['whoami', '--url', 'http://127.0.0.1:9']);
      assert.equal(res.code, 1);
      assert.equal(res.stderr, 'Error: Not logged in to http://127.0.0.1:9: run `cms login` (or set CMS_TOKEN).\n');
    });

    it('CMS_TOKEN (a session token) works without a stored session, CMS_URL names the platform', async () => {
      const res = await cli.run(['whoami'], { env: { CMS_TOKEN: other.token, XDG_CONFIG_HOME: `${cli.home}/empty` } });
      assert.equal(res.code, 0, res.stderr);
      assert.equal(res.stdout, `${other.account.email} on ${cli.url}\n`);
      const printed = await cli.run(['login', '--email', other.account.email, '--password', PASSWORD, '--print-token'],
        { env: { XDG_CONFIG_HOME: `${cli.home}/empty` } });
      assert.equal(printed.code, 0, printed.stderr);
      assert.match(printed.stdout, /^\S+\n$/);
      assert.equal((await as(t, printed.stdout.trim()).get('/v1/auth/me')).json().account.id, other.account.id);
      await assert.rejects(stat(`${cli.home}/empty/cms/config.json`), { code: 'ENOENT' });
    });

    it('an unreachable platform is exit 1 with the reason', async () => {
      const closed = `http://127.0.0.1:${await freePort()}`;
      const res = await cli.run(['projects', 'list'], { env: { CMS_TOKEN: me.token, CMS_URL: closed } });
      assert.equal(res.code, 1);
      assert.equal(res.stderr, `Error: Cannot reach ${closed}: ECONNREFUSED\n`);
    });
  });

  describe('projects', () => {
    it('creates a project', async () => {
      const res = await cli.run(['projects', 'create', 'CLI blog', '--slug', slug]);
      assert.equal(res.code, 0, res.stderr);
      assert.equal(res.stdout, `Created ${slug} (CLI blog)\nREST:    ${cli.url}/p/${slug}/api\nGraphQL: ${cli.url}/p/${slug}/graphql\n`);
      const got = await as(t, me).get(`/v1/projects/${slug}`);
      assert.equal(got.statusCode, 200);
      assert.equal(got.json().project.role, 'owner');
    });

    it('lists the account\'s projects only', async () => {
      await createProject(t, other, { name: 'Not mine', slug: `theirs-${process.pid}` });
      const res = await cli.run(['projects', 'list']);
      assert.equal(res.code, 0, res.stderr);
      const lines = res.stdout.trimEnd().split('\n');
      assert.match(lines[0]!, /^SLUG\s+NAME\s+ROLE\s+PLAN\s+API$/);
      assert.equal(lines.length, 2);
      assert.match(lines[1]!, new RegExp(`^${slug}\\s+CLI blog\\s+owner\\s+\\S+\\s+${cli.url}/p/${slug}/api$`));
      const json = JSON.parse((await cli.run(['projects', 'list', '--json'])).stdout) as Array<{ slug: string }>;
      assert.deepEqual(json.map((p) => p.slug), [slug]);
    });

    it('a duplicate slug is the server\'s 409 message', async () => {
      const res = await cli.run(['projects', 'create', 'Again', '--slug', slug]);
      assert.equal(res.code, 1);
      assert.match(res.stderr, /^Error: .+ \(409 ApplicationError\)\n$/);
    });
  });

  describe('tokens', () => {
    let tokenId: number;
    let key: string;

    before(async () => {
      const pushed = await as(t, me).put(`/v1/projects/${slug}/schema`, {
        contentTypes: { 'api::tag.tag': { kind: 'collectionType', info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' }, attributes: { name: { type: 'string' } } } },
        components: {},
      });
      assert.equal(pushed.statusCode, 200, pushed.body);
    });

    it('creates a token and prints its key once; the key reads the content API', async () => {
      const res = await cli.run(['tokens', 'create', 'site', '--project', slug]);
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stderr, /^Created token \d+ \(site, read-only\)\. Its key is shown this once/);
      key = res.stdout.trim();
      assert.match(res.stdout, /^\S{20,}\n$/);
      tokenId = Number(/Created token (\d+)/.exec(res.stderr)![1]);
      const read = await t.inject({ method: 'GET', url: `/p/${slug}/api/tags`, headers: { authorization: `Bearer ${key}` } });
      assert.equal(read.statusCode, 200, read.body);
      assert.deepEqual(read.json().data, []);
      // Read-only: writing is refused.
      const write = await t.inject({ method: 'POST', url: `/p/${slug}/api/tags`, headers: { authorization: `Bearer ${key}` }, payload: { data: { name: 'x' } } });
      assert.equal(write.statusCode, 403);
    });

    it('creates a custom token with permissions, and refuses bad options as usage errors', async () => {
      const res = await cli.run(['tokens', 'create', 'writer', '--project', slug, '--type', 'custom',
        '--permission', 'api::tag.tag=find,create', '--lifespan', '7', '--json']);
      assert.equal(res.code, 0, res.stderr);
      const body = JSON.parse(res.stdout);
      assert.deepEqual(body.apiToken.permissions, { 'api::tag.tag': ['find', 'create'] });
      assert.equal(body.apiToken.type, 'custom');
      assert.ok(body.apiToken.expiresAt);
      const created = await t.inject({ method: 'POST', url: `/p/${slug}/api/tags`, headers: { authorization: `Bearer ${body.accessKey}` }, payload: { data: { name: 'x' } } });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal(await cli.run(['tokens', 'create', 'x', '--project', slug, '--type', 'admin']).then((r) => r.code), 2);
      assert.equal(await cli.run(['tokens', 'create', 'x', '--project', slug, '--lifespan', '5']).then((r) => r.code), 2);
      assert.equal(await cli.run(['tokens', 'create', 'x']).then((r) => r.code), 2, 'missing --project');
    });

    it('lists the tokens without their keys', async () => {
      const res = await cli.run(['tokens', 'list', '--project', slug]);
      assert.equal(res.code, 0, res.stderr);
      assert.ok(!res.stdout.includes(key));
      const lines = res.stdout.trimEnd().split('\n');
      assert.match(lines[0]!, /^ID\s+NAME\s+TYPE\s+EXPIRES\s+CREATED$/);
      assert.deepEqual(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 3)).sort(),
        [[String(tokenId), 'site', 'read-only'], [String(tokenId + 1), 'writer', 'custom']]);
    });

    it('revokes a token: the key stops working', async () => {
      const res = await cli.run(['tokens', 'revoke', String(tokenId), '--project', slug]);
      assert.equal(res.code, 0, res.stderr);
      assert.equal(res.stdout, `Revoked token ${tokenId}.\n`);
      const read = await t.inject({ method: 'GET', url: `/p/${slug}/api/tags`, headers: { authorization: `Bearer ${key}` } });
      assert.equal(read.statusCode, 401);
      const again = await cli.run(['tokens', 'revoke', String(tokenId), '--project', slug]);
      assert.equal(again.code, 1);
      assert.equal(again.stderr, 'Error: Not Found (404 NotFoundError)\n');
    });
  });

  describe('another account\'s project', () => {
    const theirs = `theirs-${process.pid}`;

    it('is the 404 message for every command, and nothing changes', async () => {
      const tokensBefore = await count(t, 'api_tokens');
      for (const args of [
        ['projects', 'delete', theirs, '--yes'],
        ['tokens', 'create', 'sneaky', '--project', theirs],
        ['tokens', 'list', '--project', theirs],
        ['schema', 'pull', `${cli.home}/theirs`, '--project', theirs],
        ['types', `${cli.home}/theirs.d.ts`, '--project', theirs],
      ]) {
        const res = await cli.run(args);
        assert.equal(res.code, 1, args.join(' '));
        assert.equal(res.stderr, 'Error: Not Found (404 NotFoundError)\n', args.join(' '));
        assert.equal(res.stdout, '', args.join(' '));
      }
      assert.equal(await count(t, 'api_tokens'), tokensBefore);
      assert.equal((await as(t, other).get(`/v1/projects/${theirs}`)).statusCode, 200);
      await assert.rejects(stat(`${cli.home}/theirs`), { code: 'ENOENT' });
    });
  });

  describe('projects delete', () => {
    it('without --yes and no terminal refuses, exit 1, nothing deleted', async () => {
      const res = await cli.run(['projects', 'delete', slug]);
      assert.equal(res.code, 1);
      assert.equal(res.stderr, `Error: Refusing to delete ${slug} without confirmation. Pass --yes to confirm without a prompt.\n`);
      assert.equal((await as(t, me).get(`/v1/projects/${slug}`)).statusCode, 200);
    });

    it('with --yes deletes it', async () => {
      const res = await cli.run(['projects', 'delete', slug, '--yes']);
      assert.equal(res.code, 0, res.stderr);
      assert.equal(res.stdout, `Deleted ${slug}.\n`);
      assert.equal((await as(t, me).get(`/v1/projects/${slug}`)).statusCode, 404);
    });
  });

  describe('usage errors', () => {
    it('exit 2 for an unknown command, option or a missing argument; 0 for help', async () => {
      assert.equal((await cli.run(['nope'])).code, 2);
      assert.equal((await cli.run(['projects', 'list', '--nope'])).code, 2);
      assert.equal((await cli.run(['projects', 'create'])).code, 2);
      assert.equal((await cli.run(['tokens', 'revoke', 'abc', '--project', 'x'])).code, 2);
      const help = await cli.run(['--help']);
      assert.equal(help.code, 0);
      for (const command of ['login', 'logout', 'whoami', 'projects', 'tokens', 'schema', 'types', 'openapi']) {
        assert.match(help.stdout, new RegExp(`^  ${command}\\b`, 'm'));
      }
    });
  });

  describe('logout', () => {
    it('ends the session on the server and deletes the file', async () => {
      const { token } = await sessionFile();
      const res = await cli.run(['logout']);
      assert.equal(res.code, 0, res.stderr);
      assert.equal(res.stdout, `Logged out of ${cli.url}.\n`);
      await assert.rejects(stat(cli.configFile), { code: 'ENOENT' });
      assert.equal((await as(t, token).get('/v1/auth/me')).statusCode, 401);
      const whoami = await cli.run(['whoami']);
      assert.equal(whoami.code, 1);
      assert.match(whoami.stderr, /Not logged in/);
      assert.equal((await cli.run(['logout'])).stdout, 'Not logged in.\n');
    });
  });
});
