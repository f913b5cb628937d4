// `cms env` against a listening gateway: create (--wait until the copy is ready), list (table and
// JSON), promote (the plan printed, nothing changed without --apply; an added field applied; a
// removed one refused without --yes outside a terminal, applied with it; equal models), delete
// (refused without --yes, then gone), create without --wait (copying, and how to follow it), the
// project named by --project, CMS_PROJECT or being the account's only one, bad names (exit 2),
// the plan's limit, and another account seeing nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { cliFor, type Cli } from '../helpers/cli.ts';
import { as, createProject, PASSWORD, signup, type Session } from '../helpers/management.ts';

const ARTICLE = 'api::article.article';
const article = (attributes: Record<string, unknown>) => ({
  kind: 'collectionType', info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
  options: { draftAndPublish: false }, attributes,
});
const MODEL = { contentTypes: { [ARTICLE]: article({ title: { type: 'string' }, body: { type: 'text' } }) }, components: {} };

describe('cms env', () => {
  let t: TestApp;
  let cli: Cli;
  let me: Session;
  let other: Session;
  let slug: string;
  let env: string;

  const admin = () => as(t, me);
  const attributes = async (s: string) => {
    const res = await admin().get(`/v1/projects/${s}/schema`);
    assert.equal(res.statusCode, 200, res.body);
    return Object.keys(res.json().contentTypes[ARTICLE].attributes).sort();
  };
  const setAttributes = async (s: string, attrs: Record<string, unknown>) => {
    const res = await admin().put(`/v1/projects/${s}/schema`, { contentTypes: { [ARTICLE]: article(attrs) }, components: {} });
    assert.equal(res.statusCode, 200, res.body);
  };
  const listed = async () => {
    const res = await admin().get(`/v1/projects/${slug}/environments`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().environments as Array<{ name: string; slug: string; status: string; apiUrl: string; graphqlUrl: string; createdAt: string }>;
  };

  before(async () => {
    t = await startTestApp();
    cli = await cliFor(t);
    me = await signup(t, `cli-env-${process.pid}@example.com`);
    other = await signup(t, `cli-env-other-${process.pid}@example.com`);
    slug = (await createProject(t, me, { name: 'Acme', slug: `acme-${process.pid}` })).slug;
    env = `${slug}--staging`;
    assert.equal((await admin().put(`/v1/projects/${slug}/schema`, MODEL)).statusCode, 200);
    const login = await cli.run(['login', '--email', me.account.email, '--password', PASSWORD]);
    assert.equal(login.code, 0, login.stderr);
  });
  after(async () => {
    await cli?.close();
    await t?.close();
  });

  it('lists no environments of the account\'s only project when no project is named', async () => {
    const res = await cli.run(['env', 'list']);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout, `${slug} has no environments: create one with \`cms env create <name> --project ${slug}\`.\n`);
  });

  it('refuses a name outside the contract\'s rule as a usage error (exit 2), asking the server nothing', async () => {
    for (const name of ['Staging', '1st', 'a_b', 'x'.repeat(21)]) {
      const res = await cli.run(['env', 'create', name, '--project', slug]);
      assert.equal(res.code, 2, name);
      assert.equal(res.stderr, `Error: Not an environment name: ${name} (a lowercase letter, then up to 19 lowercase letters, digits or dashes).\n`);
    }
    assert.deepEqual(await listed(), []);
  });

  it('create --wait copies the project and prints the environment once it is ready', async () => {
    const res = await cli.run(['env', 'create', 'staging', '--project', slug, '--wait']);
    assert.equal(res.code, 0, res.stderr);
    const [made] = await listed();
    assert.equal(made!.status, 'ready');
    assert.equal(made!.slug, env);
    // The addresses as the CLI's origin sees them (the list above is read through inject).
    assert.equal(res.stdout, `Created ${env} (ready)\nREST:    ${cli.url}/p/${env}/api\nGraphQL: ${cli.url}/p/${env}/graphql\n`);
    assert.deepEqual(await attributes(env), ['body', 'title']);
  });

  it('list prints a table, and --json the API\'s environments; CMS_PROJECT names the project', async () => {
    const envs = await listed();
    const res = await cli.run(['env', 'list', '--project', slug]);
    assert.equal(res.code, 0, res.stderr);
    const lines = res.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 2);
    assert.match(lines[0]!, /^NAME +SLUG +STATUS +CREATED +API$/);
    assert.deepEqual(lines[1]!.split(/ +/), ['staging', env, 'ready', envs[0]!.createdAt, `${cli.url}/p/${env}/api`]);
    const json = await cli.run(['env', 'list', '--json'], { env: { CMS_PROJECT: slug } });
    assert.equal(json.code, 0, json.stderr);
    const local = (u: string) => u.replace(cli.url, 'http://localhost:80');
    assert.deepEqual(JSON.parse(json.stdout).map((e: { apiUrl: string; graphqlUrl: string }) => ({ ...e, apiUrl: local(e.apiUrl), graphqlUrl: local(e.graphqlUrl) })), envs);
  });

  it('a second environment is over the free plan\'s limit: the server\'s 403, exit 1', async () => {
    const res = await cli.run(['env', 'create', 'qa', '--project', slug]);
    assert.equal(res.code, 1);
    assert.equal(res.stderr, 'Error: The free plan allows 1 environment per project: delete one, or upgrade the plan (403 ForbiddenError)\n');
    assert.deepEqual((await listed()).map((e) => e.name), ['staging']);
  });

  it('promote without --apply prints the plan of an added field and changes nothing', async () => {
    await setAttributes(env, { title: { type: 'string' }, body: { type: 'text' }, summary: { type: 'string' } });
    const res = await cli.run(['env', 'promote', 'staging', '--project', slug]);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout, `Promoting the model of ${env} to ${slug}:\n  + add attribute summary to ${ARTICLE}\n`);
    assert.equal(res.stderr, `Nothing was changed: run again with --apply to apply this plan to ${slug}.\n`);
    assert.deepEqual(await attributes(slug), ['body', 'title']);
  });

  it('promote --apply applies a plan without destructive steps, no question asked', async () => {
    const res = await cli.run(['env', 'promote', 'staging', '--project', slug, '--apply']);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout, `Promoting the model of ${env} to ${slug}:\n  + add attribute summary to ${ARTICLE}\n`
      + `Promoted: ${slug} has the model of ${env} (1 step; content was not copied).\n`);
    assert.deepEqual(await attributes(slug), ['body', 'summary', 'title']);
  });

  it('with equal models there is nothing to promote', async () => {
    const res = await cli.run(['env', 'promote', 'staging', '--project', slug, '--apply']);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout, `The models of ${slug} and ${env} are equal: nothing to promote.\n`);
  });

  it('a removed field is refused outside a terminal without --yes (exit 1, nothing changed), applied with it', async () => {
    await setAttributes(env, { title: { type: 'string' }, summary: { type: 'string' } });
    const refused = await cli.run(['env', 'promote', 'staging', '--project', slug, '--apply']);
    assert.equal(refused.code, 1);
    assert.equal(refused.stdout, `Promoting the model of ${env} to ${slug}:\n  ! drop attribute body of ${ARTICLE}  (deletes stored data)\n`);
    assert.equal(refused.stderr, `Error: The promotion deletes stored data of ${slug} (1 step marked !): nothing was changed. Pass --yes to confirm without a prompt.\n`);
    assert.deepEqual(await attributes(slug), ['body', 'summary', 'title']);

    const usage = await cli.run(['env', 'promote', 'staging', '--project', slug, '--yes']);
    assert.equal(usage.code, 2);
    assert.equal(usage.stderr, 'Error: --yes goes with --apply\n');

    const applied = await cli.run(['env', 'promote', 'staging', '--project', slug, '--apply', '--yes']);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stdout, new RegExp(`Promoted: ${slug} has the model of ${env} \\(1 step; content was not copied\\)\\.\\n$`));
    assert.deepEqual(await attributes(slug), ['summary', 'title']);
    // A backup of the parent was taken before each of the two promotions applied.
    const backups = (await admin().get(`/v1/projects/${slug}/backups`)).json().backups as Array<{ kind: string; status: string }>;
    assert.deepEqual(backups.map((b) => [b.kind, b.status]), [['manual', 'done'], ['manual', 'done']]);
  });

  it('another account sees nothing and makes nothing: the server\'s 404, exit 1', async () => {
    const token = other.token;
    for (const args of [['env', 'list'], ['env', 'create', 'mine'], ['env', 'promote', 'staging', '--apply', '--yes'], ['env', 'delete', 'staging', '--yes']]) {
      const res = await cli.run([...args, '--project', slug], { env: { CMS_TOKEN: token } });
      assert.equal(res.code, 1, args.join(' '));
      assert.match(res.stderr, /^Error: .*\(404 NotFoundError\)\n$/, args.join(' '));
    }
    // Without a project of its own there is none to default to.
    const none = await cli.run(['env', 'list'], { env: { CMS_TOKEN: token } });
    assert.equal(none.code, 2);
    assert.equal(none.stderr, 'Error: No project yet: create one with `cms projects create <name>`.\n');
    assert.deepEqual((await listed()).map((e) => e.name), ['staging']);
    assert.deepEqual(await attributes(slug), ['summary', 'title']);
  });

  it('delete asks for --yes outside a terminal, then deletes the environment; an unknown one is an error', async () => {
    const refused = await cli.run(['env', 'delete', 'staging', '--project', slug]);
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr, `Error: Refusing to delete ${env} without confirmation. Pass --yes to confirm without a prompt.\n`);
    assert.equal((await listed()).length, 1);

    const res = await cli.run(['env', 'delete', 'staging', '--project', slug, '--yes']);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout, `Deleted ${env}.\n`);
    assert.deepEqual(await listed(), []);
    assert.equal((await admin().get(`/v1/projects/${env}`)).statusCode, 404);
    // The parent is untouched.
    assert.deepEqual(await attributes(slug), ['summary', 'title']);

    const unknown = await cli.run(['env', 'delete', 'staging', '--project', slug, '--yes']);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr, `Error: ${slug} has no environment staging (see \`cms env list --project ${slug}\`).\n`);
  });

  it('create without --wait prints the environment copying and says how to follow it', async () => {
    const res = await cli.run(['env', 'create', 'qa', '--project', slug]);
    assert.equal(res.code, 0, res.stderr);
    const qa = `${slug}--qa`;
    assert.equal(res.stdout, `Created ${qa} (copying)\nREST:    ${cli.url}/p/${qa}/api\nGraphQL: ${cli.url}/p/${qa}/graphql\n`);
    assert.equal(res.stderr, `The copy goes on in the background: \`cms env list --project ${slug}\` shows when it is ready.\n`);
    // Followed until it ends, then deleted.
    for (let i = 0; (await listed())[0]!.status === 'copying'; i++) {
      assert.ok(i < 600, 'the copy did not end');
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal((await listed())[0]!.status, 'ready');
    assert.equal((await admin().del(`/v1/projects/${slug}/environments/qa`)).statusCode, 204);
  });

  it('with several projects and none named, asks which (exit 2)', async () => {
    await createProject(t, me, { name: 'Second', slug: `second-${process.pid}` });
    const slugs = ((await admin().get('/v1/projects')).json().projects as Array<{ slug: string }>).map((x) => x.slug);
    assert.equal(slugs.length, 2);
    const res = await cli.run(['env', 'list']);
    assert.equal(res.code, 2);
    assert.equal(res.stderr, `Error: Which project? Pass --project <slug> (or set CMS_PROJECT): ${slugs.join(', ')}.\n`);
  });
});
