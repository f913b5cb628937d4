// `cms import strapi` end to end: the real CLI (a child process) imports a real Strapi 5 project
// folder and its `strapi export` archive (test/fixtures/strapi-export, README there) into a new
// project of a listening gateway. Every document version is then read back through the project's
// REST API and compared field by field with what the archive holds (read here on its own, with
// tar-stream); imported users log in with their original passwords; a second run and an
// interrupted-then-resumed run add nothing; encrypted archives, other accounts, viewers and bad
// batches are refused. `--from-url` is tested against the platform's own (Strapi-compatible) API.
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
import { readStrapiArchive, withoutIds, type ArchiveEntity as Entity, type ArchiveLink as Link, type Dict } from '../helpers/strapi-archive.ts';

const FIXTURE = join(ROOT, 'test/fixtures/strapi-export');
const ARCHIVE = join(FIXTURE, 'export.tar.gz');

const TYPES: Record<string, { plural: string; single: boolean; localized: boolean; draftAndPublish: boolean; populate: string }> = {
  'api::article.article': {
    plural: 'articles', single: false, localized: true, draftAndPublish: true,
    populate: 'populate[cover]=true&populate[gallery]=true&populate[seo]=true&populate[quotes]=true&populate[author]=true&populate[tags]=true' +
      '&populate[sections][on][shared.quote]=true&populate[sections][on][shared.media-block][populate][file]=true',
  },
  'api::author.author': { plural: 'authors', single: false, localized: false, draftAndPublish: false, populate: 'populate[avatar]=true' },
  'api::tag.tag': { plural: 'tags', single: false, localized: false, draftAndPublish: true, populate: '' },
  'api::homepage.homepage': { plural: 'homepage', single: true, localized: true, draftAndPublish: true, populate: 'populate[featuredArticles]=true&populate[seo]=true' },
};
const SCALARS: Record<string, string[]> = {
  'api::article.article': ['title', 'slug', 'summary', 'body', 'content', 'views', 'bigCount', 'rating', 'score', 'featured', 'publishDate', 'publishTime', 'eventAt', 'contactEmail', 'kind', 'meta'],
  'api::author.author': ['name', 'email'],
  'api::tag.tag': ['name'],
  'api::homepage.homepage': ['heading'],
};
const MEDIA: Record<string, string[]> = { 'api::article.article': ['cover', 'gallery'], 'api::author.author': ['avatar'] };
const RELATIONS: Record<string, string[]> = { 'api::article.article': ['author', 'tags'], 'api::homepage.homepage': ['featuredArticles'] };
const COMPONENTS: Record<string, string[]> = { 'api::article.article': ['seo', 'quotes'], 'api::homepage.homepage': ['seo'] };

describe('cms import strapi', () => {
  let t: TestApp;
  let cli: Cli;
  let me: Session;
  let other: Session;
  let fixture: { entities: Entity[]; links: Link[] };
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

  /** A full-access API token of a project. */
  async function tokenOf(project: string): Promise<string> {
    const res = await as(t, me).post(`/v1/projects/${project}/api-tokens`, { name: `read ${Math.random()}`, type: 'full-access' });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().accessKey;
  }

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

  /** Compare every content version of the archive with what the project's REST API answers. */
  async function assertMatchesArchive(project: string): Promise<void> {
    const token = await tokenOf(project);
    const get = async (url: string) => {
      const res = await t.inject({ method: 'GET', url: `/p/${project}/api/${url}`, headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      return res.json().data as Dict;
    };
    const rows = new Map(fixture.entities.map((e) => [`${e.type}:${e.id}`, e]));
    const files = new Map(fixture.entities.filter((e) => e.type === 'plugin::upload.file').map((e) => [String(e.id), e.data]));
    const mediaOf = (type: string, ref: number, field: string) => fixture.links
      .filter((l) => l.kind === 'relation.morph' && l.right.type === type && l.right.ref === ref && l.right.field === field)
      .sort((a, b) => a.right.pos! - b.right.pos!).map((l) => files.get(String(l.left.ref))!.name);
    let compared = 0;
    for (const entity of fixture.entities.filter((e) => TYPES[e.type])) {
      const type = TYPES[entity.type]!;
      const status = type.draftAndPublish && !entity.data.publishedAt ? 'draft' : 'published';
      const query = [`status=${status}`, type.localized ? `locale=${entity.data.locale}` : '', type.populate].filter(Boolean).join('&');
      const doc = await get(`${type.single ? type.plural : `${type.plural}/${entity.data.documentId}`}?${query}`);
      const where = `${entity.type} ${entity.data.documentId} ${entity.data.locale} ${status}`;
      assert.equal(doc.documentId, entity.data.documentId, where);
      if (type.localized) assert.equal(doc.locale, entity.data.locale, where);
      assert.equal(doc.createdAt, entity.data.createdAt, `${where} createdAt`);
      if (status === 'published') assert.equal(doc.publishedAt, entity.data.publishedAt, `${where} publishedAt`);
      else assert.equal(doc.publishedAt, null, where);
      for (const name of SCALARS[entity.type]!) assert.deepEqual(doc[name], entity.data[name], `${where} ${name}`);
      for (const name of COMPONENTS[entity.type] ?? []) assert.deepEqual(withoutIds(doc[name]), withoutIds(entity.data[name]), `${where} ${name}`);
      for (const name of MEDIA[entity.type] ?? []) {
        const got = doc[name] === null ? [] : ([] as Dict[]).concat(doc[name] as Dict);
        assert.deepEqual(got.map((f) => f.name), mediaOf(entity.type, entity.id, name), `${where} ${name}`);
        // The media pipeline made the images' formats again.
        for (const f of got) if (String(f.mime).startsWith('image/')) assert.ok((f.formats as Dict | null)?.thumbnail, `${where} ${name} ${String(f.name)} formats`);
      }
      for (const name of RELATIONS[entity.type] ?? []) {
        const expected = fixture.links
          .filter((l) => l.kind !== 'relation.morph' && l.left.type === entity.type && l.left.ref === entity.id && l.left.field === name)
          .sort((a, b) => (a.left.pos ?? 0) - (b.left.pos ?? 0))
          .map((l) => rows.get(`${l.right.type}:${l.right.ref}`)!.data.documentId);
        const got = doc[name] === null ? [] : ([] as Dict[]).concat(doc[name] as Dict).map((d) => d.documentId);
        assert.deepEqual(got, expected, `${where} ${name}`);
      }
      if (entity.type === 'api::article.article') {
        const sections = entity.data.sections as Dict[];
        const gotSections = doc.sections as Dict[];
        assert.deepEqual(gotSections.map((s) => s.__component), sections.map((s) => s.__component), `${where} sections`);
        for (const [i, s] of sections.entries()) {
          const got = gotSections[i]!;
          if (s.__component === 'shared.quote') assert.deepEqual(withoutIds(got), withoutIds(s), `${where} sections[${i}]`);
          else {
            assert.equal(got.caption, s.caption);
            assert.deepEqual(got.file ? [(got.file as Dict).name] : [], mediaOf('shared.media-block', s.id as number, 'file'), `${where} sections[${i}].file`);
          }
        }
      }
      compared++;
    }
    assert.equal(compared, 20);
    // Nothing more than the archive holds: per type and status, the same number of versions.
    for (const [uid, type] of Object.entries(TYPES)) {
      if (type.single) continue;
      for (const status of type.draftAndPublish ? ['draft', 'published'] : ['published']) {
        const res = await t.inject({ method: 'GET', url: `/p/${project}/api/${type.plural}?status=${status}${type.localized ? '&locale=*' : ''}&pagination[pageSize]=100`, headers: { authorization: `Bearer ${token}` } });
        const expected = fixture.entities.filter((e) => e.type === uid && (!type.draftAndPublish || (status === 'draft') === !e.data.publishedAt)).length;
        assert.equal(res.json().meta.pagination.total, expected, `${uid} ${status}`);
      }
    }
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
    assert.equal(res.stdout, [
      'Imported into fixture-app:',
      'TYPE                    LOCALE  STATUS     FOUND  IMPORTED',
      'api::article.article    en      draft      3      3',
      'api::article.article    en      published  2      2',
      'api::article.article    fr      draft      1      1',
      'api::article.article    fr      published  1      1',
      'api::author.author      -       published  2      2',
      'api::homepage.homepage  en      draft      1      1',
      'api::homepage.homepage  en      published  1      1',
      'api::homepage.homepage  fr      draft      1      1',
      'api::homepage.homepage  fr      published  1      1',
      'api::tag.tag            -       draft      4      4',
      'api::tag.tag            -       published  3      3',
      'files                   -       -          3      3',
      'users                   -       -          2      2',
      'Relation links: 27',
      'Skipped (1):',
      '  13 entries of plugin::users-permissions.permission: users-permissions permissions are not imported: set each role\'s permissions in the dashboard (or PUT /v1/projects/{slug}/roles/{type}/permissions)',
      '',
    ].join('\n'));
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
    // The model and the locales.
    const schema = (await as(t, me).get(`/v1/projects/${slug}/schema`)).json();
    assert.deepEqual(Object.keys(schema.contentTypes).sort(), Object.keys(TYPES).sort());
    assert.deepEqual(Object.keys(schema.components).sort(), ['shared.media-block', 'shared.quote', 'shared.seo']);
    const locales = (await as(t, me).get(`/v1/projects/${slug}/locales`)).json().locales as Array<{ code: string; isDefault: boolean }>;
    assert.deepEqual(locales.map((l) => [l.code, l.isDefault]).sort(), [['en', true], ['fr', false]]);
    await assertMatchesArchive(slug);
  });

  it('keeps the users, their roles and passwords: they log in with the original password (then argon2id)', async () => {
    const id = (await as(t, me).get(`/v1/projects/${slug}`)).json().project.id as number;
    const users = (await t.platform.db.pool.any(compiledQuery({ text: `SELECT document_id, email, username, role, password FROM "t_${id}".up_users ORDER BY id`, values: [] }))) as unknown as Array<Dict>;
    const archived = fixture.entities.filter((e) => e.type === 'plugin::users-permissions.user');
    assert.deepEqual(users.map((u) => [u.document_id, u.email, u.username, u.role]), [
      [archived[0]!.data.documentId, 'reader@example.com', 'reader', 'authenticated'],
      [archived[1]!.data.documentId, 'writer@example.com', 'writer', 'editor'],
    ]);
    assert.equal(users[0]!.password, archived[0]!.data.password);
    const roles = (await as(t, me).get(`/v1/projects/${slug}/roles`)).json().roles as Array<{ type: string; name: string }>;
    assert.ok(roles.some((r) => r.type === 'editor' && r.name === 'Editor'));
    const login = (identifier: string, password: string) => t.inject({ method: 'POST', url: `/p/${slug}/api/auth/local`, payload: { identifier, password } });
    assert.equal((await login('reader@example.com', 'wrong password')).statusCode, 400);
    const ok = await login('reader@example.com', 'Reader-pass-1');
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json().user.email, 'reader@example.com');
    assert.equal((await login('writer', 'Writer-pass-2')).statusCode, 200);
    const [rehashed] = (await t.platform.db.pool.any(compiledQuery({ text: `SELECT password FROM "t_${id}".up_users WHERE email = 'reader@example.com'`, values: [] }))) as unknown as Array<{ password: string }>;
    assert.match(rehashed!.password, /^\$argon2id\$/);
    assert.equal((await login('reader@example.com', 'Reader-pass-1')).statusCode, 200);
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
    await assertMatchesArchive(slug);
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
    await assertMatchesArchive(created);
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
    assert.deepEqual(Object.keys(schema.contentTypes).sort(), Object.keys(TYPES).sort());
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
    await assertMatchesArchive(report.project);
  });
});
