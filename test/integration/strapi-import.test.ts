// `cms import strapi` end to end: the real CLI (a child process) imports a real Strapi 5 project
// folder and its `strapi export` archive (test/fixtures/strapi-export, README there) into a new
// project of a listening gateway. Every document version is then read back through the project's
// REST API and compared field by field with what the archive holds (read here on its own, with
// tar-stream); imported users log in with their original passwords; a second run and an
// interrupted-then-resumed run add nothing; encrypted archives, other accounts, viewers and bad
// batches are refused. `--from-url` is tested against the platform's own (Strapi-compatible) API;
// `--data` without the folder reads the model from the archive.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { cliFor, ROOT, type Cli } from '../helpers/cli.ts';
import { addMember, as, createProject, signup, type Session } from '../helpers/management.ts';
import { readStrapiArchive, type ArchiveContents } from '../helpers/strapi-archive.ts';
import {
  assertFixtureModel, assertFixtureUsers, assertMatchesArchive, FIXTURE, FIXTURE_ARCHIVE as ARCHIVE, FIXTURE_TYPES, fixtureReport, fullAccessToken,
} from '../helpers/strapi-fixture.ts';

describe('cms import strapi', () => {
  let t: TestApp;
  let cli: Cli;
  let me: Session;
  let other: Session;
  let fixture: ArchiveContents;
  let slug = '';
  let work = '';

  before(async () => {
    t = await startTestApp();
    cli = await cliFor(t);
    me = await signup(t, `import-${process.pid}@example.com`);
    other = await signup(t, `import-other-${process.pid}@example.com`);
    fixture = await readStrapiArchive(ARCHIVE);
    work = await mkdtemp(join(tmpdir(), 'cms-import-'));
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
    await cli?.close();
    await t?.close();
  });

  const run = (args: string[], session: Session = me) => cli.run(['import', 'strapi', ...args], { env: { CMS_TOKEN: session.token } });
  const projectCount = async (session: Session) => (await as(t, session).get('/v1/projects')).json().projects.length as number;

  const tokenOf = (project: string) => fullAccessToken(t, me, project);

  /**
   * Row counts of every table of a project's schema (what a duplicate would change); not the
   * totals ledger, which records every write statement, duplicate or not.
   */
  async function tableCounts(project: string): Promise<Record<string, number>> {
    const id = (await as(t, me).get(`/v1/projects/${project}`)).json().project.id as number;
    const tables = (await t.platform.db.pool.any(compiledQuery({
      text: `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name <> 'doc_counts' ORDER BY 1`, values: [`t_${id}`],
    }))) as unknown as Array<{ table_name: string }>;
    const counts: Record<string, number> = {};
    for (const { table_name } of tables) {
      const [row] = (await t.platform.db.pool.any(compiledQuery({ text: `SELECT count(*)::int AS n FROM "t_${id}"."${table_name}"`, values: [] }))) as unknown as Array<{ n: number }>;
      counts[table_name] = row!.n;
    }
    return counts;
  }

  it('refuses an encrypted or unreadable archive, asking for --no-encrypt, and creates nothing', async () => {
    const encrypted = join(work, 'export.tar.gz.enc');
    const garbage = join(work, 'export.tar.gz');
    await writeFile(encrypted, Buffer.from('Salted__ not really an archive'));
    await writeFile(garbage, Buffer.alloc(2048, 7));
    for (const file of [encrypted, garbage]) {
      const res = await run([FIXTURE, '--data', file]);
      assert.equal(res.code, 1, res.stderr);
      assert.match(res.stderr, /encrypted or not a \.tar\/\.tar\.gz.*strapi export --no-encrypt/);
    }
    assert.equal(await projectCount(me), 0);
  });

  it('imports the project folder and the archive into a new project: every version, field by field', async () => {
    const res = await run([FIXTURE, '--data', ARCHIVE]);
    assert.equal(res.code, 0, res.stderr);
    slug = /^Imported into (\S+):/.exec(res.stdout)?.[1] ?? '';
    assert.equal(slug, 'fixture-app');
    // The report: per type, locale and status what the archive held and what was imported, then what was left out.
    assert.equal(res.stdout, `${fixtureReport('fixture-app')}\n`);
    // Without a terminal (CI, logs): plain lines, one per batch or file, no progress-bar escape codes.
    assert.equal(res.stderr, [
      'Created the project fixture-app',
      'model: 4 content types, 3 components',
      'users: 2/2', 'users: 2 imported',
      'files: 1/3', 'files: 2/3', 'files: 3/3', 'files: 3 imported',
      'documents: 20/20', 'documents: 20 imported',
      'relations: 11/11', 'relations: 11 imported',
      '',
    ].join('\n'));
    await assertFixtureModel(t, me, slug);
    await assertMatchesArchive(t, me, slug, fixture);
  });

  it('keeps the users, their roles and passwords: they log in with the original password (then argon2id)', async () => {
    await assertFixtureUsers(t, me, slug, fixture);
  });

  it('run again into the same project, duplicates nothing', async () => {
    const before = await tableCounts(slug);
    const res = await run([FIXTURE, '--data', ARCHIVE, '--project', slug, '--json']);
    assert.equal(res.code, 0, res.stderr);
    // The same report, as JSON.
    const report = JSON.parse(res.stdout) as { project: string; counts: Array<{ type: string; locale: string | null; status: string | null; found: number; imported: number }>; skipped: Array<{ what: string }>; relationLinks: number };
    assert.equal(report.project, slug);
    assert.equal(report.counts.length, 13);
    for (const row of report.counts) assert.equal(row.imported, row.found, JSON.stringify(row));
    assert.deepEqual(report.counts.find((r) => r.type === 'api::article.article' && r.locale === 'en' && r.status === 'draft'), { type: 'api::article.article', locale: 'en', status: 'draft', found: 3, imported: 3 });
    assert.deepEqual(report.counts.find((r) => r.type === 'files'), { type: 'files', locale: null, status: null, found: 3, imported: 3 });
    assert.equal(report.relationLinks, 27);
    assert.deepEqual(report.skipped.map((s) => s.what), ['13 entries of plugin::users-permissions.permission']);
    assert.deepEqual(await tableCounts(slug), before);
    assert.equal(await projectCount(me), 1);
    await assertMatchesArchive(t, me, slug, fixture);
  });

  it('resumes an interrupted import where it stopped, into the same project, with the same result', async () => {
    const args = ['import', 'strapi', FIXTURE, '--data', ARCHIVE, '--batch-size', '1'];
    // Killed in the middle of the documents stage.
    const killed = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [join(ROOT, 'apps/cli/bin/cms.js'), ...args], {
        cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: cli.home, XDG_CONFIG_HOME: join(cli.home, '.config'), CMS_URL: cli.url, CMS_TOKEN: me.token, NO_COLOR: '1' },
      });
      let stderr = '';
      child.stderr.on('data', (d) => {
        stderr += d;
        if (/documents: 6\/20\n/.test(stderr)) child.kill('SIGKILL');
      });
      child.on('error', reject);
      child.on('close', (code, signal) => (signal === 'SIGKILL' ? resolve(stderr) : reject(new Error(`not interrupted (${code}): ${stderr}`))));
    });
    const created = /Created the project (\S+)/.exec(killed)![1]!;
    assert.notEqual(created, slug);
    const res = await cli.run(args, { env: { CMS_TOKEN: me.token } });
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stderr, new RegExp(`Resuming the import into ${created}`));
    // The batches done before the kill (6, or one more sent while the signal was on its way) are not sent again.
    const done = Number(/documents: 20 imported \((\d+) batches were done before\)/.exec(res.stderr)?.[1]);
    assert.ok(done >= 6 && done < 20, res.stderr);
    assert.doesNotMatch(res.stderr, /Created the project/);
    assert.equal(await projectCount(me), 2);
    await assertMatchesArchive(t, me, created, fixture);
    assert.deepEqual(await tableCounts(created), await tableCounts(slug));
  });

  it('another account cannot import into the project (404), a viewer is refused (403), another project sees none of its files', async () => {
    const res = await run([FIXTURE, '--data', ARCHIVE, '--project', slug], other);
    assert.equal(res.code, 1);
    assert.equal(res.stderr, 'Error: There is no project fixture-app that this account can import into.\n');
    const before = await tableCounts(slug);
    const fileDocumentId = fixture.entities.find((e) => e.type === 'plugin::upload.file')!.data.documentId as string;
    const batch = { documents: [{ uid: 'api::tag.tag', documentId: 'intruder0000000000000000', status: 'published', data: { name: 'intruder' } }] };
    const relations = { relations: [{ uid: 'api::article.article', documentId: fixture.entities.find((e) => e.type === 'api::article.article')!.data.documentId, locale: 'en', status: 'draft', relations: { tags: [] } }] };
    const users = { users: [{ username: 'intruder', email: 'intruder@example.com', password: null }] };
    const putFile = (session: Session, project: string, documentId: string) => t.inject({
      method: 'PUT', url: `/v1/projects/${project}/import/files/${documentId}?name=x.txt&mime=text/plain`,
      headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/octet-stream' }, payload: Buffer.from('intruder'),
    });
    const notFound = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };
    for (const attempt of [
      as(t, other).post(`/v1/projects/${slug}/import/documents`, batch),
      as(t, other).post(`/v1/projects/${slug}/import/relations`, relations),
      as(t, other).post(`/v1/projects/${slug}/import/users`, users),
      as(t, other).get(`/v1/projects/${slug}/import/files/${fileDocumentId}`),
      putFile(other, slug, 'intruderfile000000000000'),
    ]) {
      const answer = await attempt;
      assert.equal(answer.statusCode, 404, answer.body);
      assert.deepEqual(answer.json(), notFound);
    }
    const viewer = await signup(t, `import-viewer-${process.pid}@example.com`);
    const id = (await as(t, me).get(`/v1/projects/${slug}`)).json().project.id as number;
    await addMember(t, id, viewer, 'viewer');
    for (const attempt of [
      as(t, viewer).post(`/v1/projects/${slug}/import/documents`, batch),
      as(t, viewer).post(`/v1/projects/${slug}/import/relations`, relations),
      as(t, viewer).post(`/v1/projects/${slug}/import/users`, users),
      putFile(viewer, slug, 'intruderfile000000000000'),
    ]) {
      const answer = await attempt;
      assert.equal(answer.statusCode, 403, answer.body);
      assert.equal(answer.json().error.name, 'ForbiddenError');
    }
    assert.deepEqual(await tableCounts(slug), before);
    // Another project of the same account: the files imported into fixture-app are not there, and
    // their ids are no file of its own.
    const second = await createProject(t, me, { name: 'Import isolation' });
    assert.equal((await run([FIXTURE, '--project', second.slug])).code, 0);
    const lookup = await as(t, me).get(`/v1/projects/${second.slug}/import/files/${fileDocumentId}`);
    assert.equal(lookup.statusCode, 404, lookup.body);
    assert.equal(lookup.json().error.message, 'file.notFound');
    const fileId = (await as(t, me).get(`/v1/projects/${slug}/import/files/${fileDocumentId}`)).json().id as number;
    const borrowed = await as(t, me).post(`/v1/projects/${second.slug}/import/documents`, {
      documents: [{ uid: 'api::author.author', documentId: 'borrower0000000000000000', status: 'published', data: { name: 'Borrower', avatar: fileId } }],
    });
    assert.equal(borrowed.statusCode, 400, borrowed.body);
    assert.match(borrowed.json().error.message, /^Item 0 \(api::author\.author borrower0000000000000000 published\): /);
    assert.equal((await tableCounts(second.slug)).ct_author, 0);
  });

  it('a bad batch writes nothing and names the failing item (400)', async () => {
    const before = await tableCounts(slug);
    const res = await as(t, me).post(`/v1/projects/${slug}/import/documents`, {
      documents: [
        { uid: 'api::tag.tag', documentId: 'newtag000000000000000001', status: 'published', data: { name: 'fine' } },
        { uid: 'api::article.article', documentId: 'newart000000000000000001', locale: 'en', status: 'draft', data: { title: 'x', views: 'many' } },
      ],
    });
    assert.equal(res.statusCode, 400);
    const { error } = res.json();
    assert.equal(error.name, 'ValidationError');
    assert.match(error.message, /^Item 1 \(api::article\.article newart000000000000000001 en draft\): /);
    assert.deepEqual(error.details.item, { index: 1, uid: 'api::article.article', documentId: 'newart000000000000000001', locale: 'en', status: 'draft' });
    assert.deepEqual(await tableCounts(slug), before);
    const german = await as(t, me).post(`/v1/projects/${slug}/import/documents`, {
      documents: [{ uid: 'api::article.article', documentId: 'newart000000000000000002', locale: 'de', status: 'draft', data: { title: 'Hallo' } }],
    });
    assert.equal(german.statusCode, 400);
    assert.equal(german.json().error.message, 'Item 0 (api::article.article newart000000000000000002 de draft): locale de is not a locale of this project: add it first');
    assert.deepEqual(await tableCounts(slug), before);
    const users = await as(t, me).post(`/v1/projects/${slug}/import/users`, { users: [{ username: 'x', email: 'x@example.com', password: 'plain text', role: 'authenticated' }] });
    assert.equal(users.statusCode, 400);
    assert.match(users.json().error.message, /users\[0\]\.password must be a bcrypt or argon2 hash/);
  });

  it('without --data imports the model only; --from-url without a folder needs one when the model is not served', async () => {
    const res = await run([FIXTURE, '--json']);
    assert.equal(res.code, 0, res.stderr);
    const report = JSON.parse(res.stdout) as { project: string; counts: unknown[] };
    assert.deepEqual(report.counts, []);
    const schema = (await as(t, me).get(`/v1/projects/${report.project}/schema`)).json();
    assert.deepEqual(Object.keys(schema.contentTypes).sort(), Object.keys(FIXTURE_TYPES).sort());
    assert.deepEqual((await tableCounts(report.project)).ct_article, 0);
    const before = await projectCount(me);
    const token = await tokenOf(slug);
    const noFolder = await run(['--from-url', `${cli.url}/p/${slug}`, '--token', token]);
    assert.equal(noFolder.code, 1);
    assert.match(noFolder.stderr, /does not give its model to this token .*: pass the Strapi project folder too/);
    assert.equal(await projectCount(me), before);
    const usage = await run(['--from-url', `${cli.url}/p/${slug}`]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--from-url needs --token/);
  });

  it('--from-url reads a running Strapi-compatible API (this platform\'s) into a new project with the same content', async () => {
    const token = await tokenOf(slug);
    const res = await run([FIXTURE, '--from-url', `${cli.url}/p/${slug}`, '--token', token, '--json']);
    assert.equal(res.code, 0, res.stderr);
    const report = JSON.parse(res.stdout) as { project: string; counts: Array<{ type: string; found: number; imported: number }>; skipped: Array<{ what: string; reason: string }> };
    assert.notEqual(report.project, slug);
    for (const row of report.counts) assert.equal(row.imported, row.found, JSON.stringify(row));
    // Passwords never leave a Strapi's REST API: those users must reset theirs.
    assert.deepEqual(report.skipped.map((s) => s.what).sort(), ['password of user reader@example.com', 'password of user writer@example.com']);
    await assertMatchesArchive(t, me, report.project, fixture);
  });

  it('--data without the project folder takes the model from the archive\'s schemas: the same model and content', async () => {
    const res = await run(['--data', ARCHIVE]);
    assert.equal(res.code, 0, res.stderr);
    // Named after the archive's file.
    assert.equal(res.stdout, `${fixtureReport('export')}\n`);
    assert.match(res.stderr, /^Created the project export\nmodel: 4 content types, 3 components\n/);
    const model = async (project: string) => {
      const { contentTypes, components } = (await as(t, me).get(`/v1/projects/${project}/schema`)).json();
      return { contentTypes, components };
    };
    assert.deepEqual(await model('export'), await model(slug));
    await assertFixtureModel(t, me, 'export');
    await assertMatchesArchive(t, me, 'export', fixture);
    await assertFixtureUsers(t, me, 'export', fixture);
  });
});
