// Exports (management-api.md § Exports, backups and deleted projects; docs/export.md): the
// import fixture (a real Strapi 5 app's `strapi export`, test/fixtures/strapi-export) is imported
// with the real CLI, exported through /v1, and the archive is read on its own (tar-stream) and
// checked against the fixture: Strapi's layout, the same schemas as the Strapi app's, every
// entity, every link with its order, every asset. Then `cms export` downloads it and `cms import
// strapi --data` loads it into a new project whose answers are those of the source.
import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { extract } from 'tar-stream';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { cliFor, ROOT, type Cli } from '../helpers/cli.ts';
import { assertSameAnswers, fixtureAnswers, fullAccessToken } from '../helpers/fixture-answers.ts';
import { addMember, as, signup, type Session } from '../helpers/management.ts';
import { withoutIds } from '../helpers/strapi-archive.ts';

const FIXTURE = join(ROOT, 'test/fixtures/strapi-export');
const FIXTURE_ARCHIVE = join(FIXTURE, 'export.tar.gz');

type Dict = Record<string, unknown>;
interface Entity { type: string; id: number; data: Dict }
interface End { type: string; ref: number | string; field?: string; pos?: number }
interface Link { kind: string; relation: string; left: End; right: End }
interface Archive {
  names: string[];
  metadata: Dict;
  schemas: Dict[];
  entities: Entity[];
  links: Link[];
  configuration: Dict[];
  /** assets/uploads/<name> → bytes; assets/metadata/<name>.json → JSON */
  uploads: Map<string, Buffer>;
  assetMetadata: Map<string, Dict>;
}

async function readArchive(input: NodeJS.ReadableStream): Promise<Archive> {
  const archive: Archive = { names: [], metadata: {}, schemas: [], entities: [], links: [], configuration: [], uploads: new Map(), assetMetadata: new Map() };
  const tar = extract();
  input.pipe(createGunzip()).pipe(tar);
  for await (const entry of tar) {
    const name = entry.header.name;
    archive.names.push(name);
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const stage = /^(schemas|entities|links|configuration)\/\1_\d{5}\.jsonl$/.exec(name)?.[1];
    if (stage) {
      const lines = body.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as never);
      (archive[stage as 'schemas'] as unknown[]).push(...lines);
    } else if (name === 'metadata.json') archive.metadata = JSON.parse(body.toString('utf8'));
    else if (name.startsWith('assets/uploads/')) archive.uploads.set(name.slice('assets/uploads/'.length), body);
    else if (name.startsWith('assets/metadata/')) archive.assetMetadata.set(name.slice('assets/metadata/'.length, -'.json'.length), JSON.parse(body.toString('utf8')));
  }
  return archive;
}


const CONTENT = new Set(['api::article.article', 'api::author.author', 'api::tag.tag', 'api::homepage.homepage']);
const versionKey = (e: Entity) => `${e.type} ${String(e.data.documentId)} ${String(e.data.locale)} ${e.data.publishedAt ? 'published' : 'draft'}`;

/**
 * Every relation and media link of an archive in content terms: `owner version / field` → the
 * targets in order (documents by documentId, locale and status; files by documentId). A link
 * from a component row is named by the version and path that hold the component.
 */
function linkTable(archive: Archive): Map<string, string[]> {
  const rows = new Map(archive.entities.map((e) => [`${e.type}:${e.id}`, e]));
  const componentPaths = new Map<string, string>();
  const walk = (value: unknown, path: string, uidOf: (v: Dict) => string | undefined) => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`, uidOf));
    else if (value && typeof value === 'object') {
      const v = value as Dict;
      const uid = uidOf(v);
      if (uid && v.id !== undefined) componentPaths.set(`${uid}:${String(v.id)}`, path);
      for (const [k, child] of Object.entries(v)) if (child && typeof child === 'object') walk(child, `${path}.${k}`, uidOf);
    }
  };
  const schemas = new Map(archive.schemas.map((s) => [String(s.uid), s]));
  for (const e of archive.entities.filter((x) => CONTENT.has(x.type))) {
    const attributes = schemas.get(e.type)!.attributes as Record<string, Dict>;
    for (const [name, attr] of Object.entries(attributes)) {
      if (attr.type === 'component') walk(e.data[name], `${versionKey(e)}.${name}`, () => String(attr.component));
      if (attr.type === 'dynamiczone') walk(e.data[name], `${versionKey(e)}.${name}`, (v) => v.__component as string | undefined);
    }
  }
  const owner = (end: End) => (CONTENT.has(end.type) ? versionKey(rows.get(`${end.type}:${end.ref}`)!) : componentPaths.get(`${end.type}:${end.ref}`) ?? `? ${end.type}:${end.ref}`);
  const table = new Map<string, Array<[number, string]>>();
  const add = (key: string, pos: number, target: string) => table.set(key, [...(table.get(key) ?? []), [pos, target]]);
  for (const link of archive.links) {
    if (link.kind === 'relation.morph') {
      add(`${owner(link.right)} / ${link.right.field}`, link.right.pos ?? 0, String(rows.get(`${link.left.type}:${link.left.ref}`)!.data.documentId));
    } else if (CONTENT.has(link.left.type) || !link.left.type.includes('::')) {
      if (link.left.field === 'localizations') continue;
      add(`${owner(link.left)} / ${link.left.field}`, link.left.pos ?? 0, versionKey(rows.get(`${link.right.type}:${link.right.ref}`)!));
    }
  }
  return new Map([...table].map(([k, v]) => [k, v.sort((a, b) => a[0] - b[0]).map((x) => x[1])]));
}

describe('project exports', () => {
  let t: TestApp;
  let cli: Cli;
  let me: Session;
  let other: Session;
  let editor: Session;
  let fixture: Archive;
  let exported: Archive;
  let slug = '';
  let work = '';

  before(async () => {
    t = await startTestApp();
    cli = await cliFor(t);
    me = await signup(t, `export-${process.pid}@example.com`);
    other = await signup(t, `export-other-${process.pid}@example.com`);
    editor = await signup(t, `export-editor-${process.pid}@example.com`);
    fixture = await readArchive(createReadStream(FIXTURE_ARCHIVE));
    work = await mkdtemp(join(tmpdir(), 'cms-export-'));
    const res = await cli.run(['import', 'strapi', FIXTURE, '--data', FIXTURE_ARCHIVE], { env: { CMS_TOKEN: me.token } });
    assert.equal(res.code, 0, res.stderr);
    slug = /^Imported into (\S+):/.exec(res.stdout)![1]!;
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
    await cli?.close();
    await t?.close();
  });

  /** Starts an export and waits for its end; resolves with its record. */
  async function exportOf(project: string, session: Session = me): Promise<Dict> {
    const started = await as(t, session).post(`/v1/projects/${project}/exports`, {});
    assert.equal(started.statusCode, 202, started.body);
    const { export: record } = started.json();
    assert.deepEqual(Object.keys(record), ['id', 'status']);
    assert.equal(record.status, 'running');
    for (let i = 0; i < 600; i++) {
      const res = await as(t, session).get(`/v1/projects/${project}/exports/${record.id}`);
      assert.equal(res.statusCode, 200, res.body);
      if (res.json().export.status !== 'running') return res.json().export;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the export did not end');
  }

  it('POST /exports → 202 running; GET → done with its size and download URL; the download is the archive', async () => {
    const record = await exportOf(slug);
    assert.equal(record.status, 'done', JSON.stringify(record));
    assert.equal(typeof record.size, 'number');
    assert.ok((record.size as number) > 1000);
    assert.match(record.createdAt as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(record.url, `http://localhost:80/v1/projects/${slug}/exports/${record.id}/download`);
    assert.equal(record.error, null);
    const download = await t.inject({ method: 'GET', url: new URL(record.url as string).pathname, headers: { authorization: `Bearer ${me.token}` } });
    assert.equal(download.statusCode, 200);
    assert.equal(download.headers['content-type'], 'application/gzip');
    assert.equal(download.headers['content-disposition'], `attachment; filename="${slug}-export-${(record.createdAt as string).slice(0, 10)}.tar.gz"`);
    assert.equal(download.rawPayload.length, record.size);
    exported = await readArchive(Readable.from([download.rawPayload]));
    assert.deepEqual(record.counts, {
      entities: Object.fromEntries([...new Set(exported.entities.map((e) => e.type))].map((type) => [type, exported.entities.filter((e) => e.type === type).length])),
      links: exported.links.length, assets: exported.uploads.size, missingAssets: 0,
    });
  });

  it('has the layout of `strapi export --no-encrypt` and the schemas of the Strapi app the content came from', () => {
    assert.equal(exported.names[0], 'metadata.json');
    for (const stage of ['schemas', 'entities', 'links', 'configuration']) assert.ok(exported.names.includes(`${stage}/${stage}_00001.jsonl`), stage);
    assert.deepEqual(Object.keys(exported.metadata), ['createdAt', 'strapi']);
    assert.deepEqual(exported.metadata.strapi, { version: '5.54.0' });
    // `strapi import` stops on any schema difference: every schema is the Strapi app's own.
    const bySchema = (a: Archive) => new Map(a.schemas.map((s) => [String(s.uid), s]));
    assert.deepEqual(bySchema(exported), bySchema(fixture));
    const config = new Map(exported.configuration.map((c) => [(c.value as Dict).key, (c.value as Dict).value]));
    assert.equal(config.get('plugin_i18n_default_locale'), 'en');
    assert.deepEqual(config.get('plugin_users-permissions_advanced'), {
      unique_email: true, allow_register: true, email_confirmation: false, email_reset_password: null, email_confirmation_redirection: '/', default_role: 'authenticated',
    });
  });

  it('holds every document version field by field, with its components, as the Strapi export did', () => {
    const ours = new Map(exported.entities.filter((e) => CONTENT.has(e.type)).map((e) => [versionKey(e), e]));
    const theirs = fixture.entities.filter((e) => CONTENT.has(e.type));
    assert.equal(ours.size, theirs.length);
    for (const entity of theirs) {
      const mine = ours.get(versionKey(entity));
      assert.ok(mine, versionKey(entity));
      assert.deepEqual(withoutIds(mine.data), withoutIds(entity.data), versionKey(entity));
    }
    // Component rows carry their ids (links from components name them).
    const article = [...ours.values()].find((e) => e.type === 'api::article.article')!;
    assert.equal(typeof (article.data.seo as Dict).id, 'number');
  });

  it('holds the files with their assets, the locales, the roles with their permissions and the users with their password hashes', () => {
    const files = (a: Archive) => a.entities.filter((e) => e.type === 'plugin::upload.file');
    const pick = (d: Dict) => ({ documentId: d.documentId, name: d.name, alternativeText: d.alternativeText, caption: d.caption, mime: d.mime, ext: d.ext, width: d.width, height: d.height, locale: d.locale });
    assert.deepEqual(files(exported).map((f) => pick(f.data)).sort((a, b) => String(a.documentId).localeCompare(String(b.documentId))),
      files(fixture).map((f) => pick(f.data)).sort((a, b) => String(a.documentId).localeCompare(String(b.documentId))));
    const fixtureBytes = new Map(files(fixture).map((f) => [f.data.documentId, fixture.uploads.get(`${f.data.hash}${f.data.ext}`)!]));
    for (const file of files(exported)) {
      const name = `${file.data.hash}${file.data.ext}`;
      // The original, byte for byte, and every format with the metadata Strapi's import reads.
      assert.deepEqual(exported.uploads.get(name), fixtureBytes.get(file.data.documentId), name);
      assert.deepEqual(exported.assetMetadata.get(name), { id: file.id, ...file.data });
      assert.equal(file.data.url, `/uploads/${name}`);
      for (const [type, format] of Object.entries((file.data.formats ?? {}) as Record<string, Dict>)) {
        const formatName = `${format.hash}${format.ext}`;
        assert.ok(exported.uploads.get(formatName)?.length, formatName);
        assert.equal(exported.uploads.get(formatName)!.length, format.sizeInBytes);
        assert.deepEqual(exported.assetMetadata.get(formatName), { ...format, type, id: file.id, mainHash: file.data.hash });
      }
    }
    const data = (a: Archive, type: string, keys: string[]) => a.entities.filter((e) => e.type === type)
      .map((e) => Object.fromEntries(keys.map((k) => [k, e.data[k]]))).sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
    assert.deepEqual(data(exported, 'plugin::i18n.locale', ['code', 'name']), data(fixture, 'plugin::i18n.locale', ['code', 'name']));
    assert.deepEqual(data(exported, 'plugin::users-permissions.role', ['type', 'name', 'description']),
      data(fixture, 'plugin::users-permissions.role', ['type', 'name', 'description']));
    // E-mail addresses are kept in lower case here (they are unique whatever their case).
    const userKeys = ['documentId', 'username', 'email', 'provider', 'password', 'confirmed', 'blocked'];
    const lowerEmail = (rows: Dict[]) => rows.map((u) => ({ ...u, email: String(u.email).toLowerCase() }));
    assert.deepEqual(data(exported, 'plugin::users-permissions.user', userKeys), lowerEmail(data(fixture, 'plugin::users-permissions.user', userKeys)));
    // Users keep their role; each role its permissions (a new Strapi app's, nothing granted since).
    const roleOf = (a: Archive, kind: 'user' | 'permission') => {
      const roles = new Map(a.entities.filter((e) => e.type === 'plugin::users-permissions.role').map((e) => [e.id, e.data.type]));
      const left = new Map(a.entities.filter((e) => e.type === `plugin::users-permissions.${kind}`).map((e) => [e.id, e.data]));
      return a.links.filter((l) => l.left.type === `plugin::users-permissions.${kind}` && l.left.field === 'role')
        .map((l) => `${String(kind === 'user' ? left.get(l.left.ref as number)!.email : left.get(l.left.ref as number)!.action).toLowerCase()} → ${String(roles.get(l.right.ref as number))}`).sort();
    };
    assert.deepEqual(roleOf(exported, 'user'), roleOf(fixture, 'user'));
    assert.deepEqual(roleOf(exported, 'permission'), roleOf(fixture, 'permission'));
  });

  it('holds every relation and media link, in order, from documents and from components', () => {
    const ours = linkTable(exported);
    const theirs = linkTable(fixture);
    assert.deepEqual([...ours.keys()].sort(), [...theirs.keys()].sort());
    for (const [key, targets] of theirs) assert.deepEqual(ours.get(key), targets, key);
    assert.ok([...ours.keys()].some((k) => k.includes('.sections[')), 'links from components');
  });

  it('`cms export` downloads it with a progress line; `cms import strapi --data` makes a new project that answers the same', async () => {
    const file = join(work, 'round-trip.tar.gz');
    const res = await cli.run(['export', '--project', slug, file], { env: { CMS_TOKEN: me.token } });
    assert.equal(res.code, 0, res.stderr);
    const size = (await readFile(file)).length;
    assert.match(res.stderr, new RegExp(`download: ${size} bytes\\n$`));
    assert.match(res.stdout, new RegExp(`^Exported ${slug} to ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(${size} bytes\\): 43 entities, 65 links, 9 files\\.\\n$`));
    // The model comes from the project (schema pull), the content from the archive.
    const folder = join(work, 'round-trip');
    await mkdir(folder);
    await writeFile(join(folder, 'package.json'), JSON.stringify({ name: 'round-trip' }));
    assert.equal((await cli.run(['schema', 'pull', '--project', slug, folder], { env: { CMS_TOKEN: me.token } })).code, 0);
    const imported = await cli.run(['import', 'strapi', folder, '--data', file], { env: { CMS_TOKEN: me.token } });
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /^Imported into round-trip:/);
    assert.match(imported.stdout, /files {19}- {7}- {10}3 {6}3\n/);
    assert.match(imported.stdout, /users {19}- {7}- {10}2 {6}2\n/);
    assertSameAnswers(await fixtureAnswers(t, 'round-trip', await fullAccessToken(t, me, 'round-trip')),
      await fixtureAnswers(t, slug, await fullAccessToken(t, me, slug)));
    // The end users came through with their password hashes: they log in with their passwords.
    for (const [identifier, password] of [['reader@example.com', 'Reader-pass-1'], ['writer', 'Writer-pass-2']]) {
      const login = await t.inject({ method: 'POST', url: '/p/round-trip/api/auth/local', payload: { identifier, password } });
      assert.equal(login.statusCode, 200, `${identifier}: ${login.body}`);
    }
  });

  it('is for the project\'s owners only: editors get 403, other accounts 404; unknown ids 404; options 400', async () => {
    const project = (await as(t, me).get(`/v1/projects/${slug}`)).json().project;
    await addMember(t, project.id, editor, 'editor');
    const record = await exportOf(slug);
    for (const [method, url] of [['post', `/v1/projects/${slug}/exports`], ['get', `/v1/projects/${slug}/exports/${record.id}`], ['get', `/v1/projects/${slug}/exports/${record.id}/download`]] as const) {
      const res = method === 'post' ? await as(t, editor).post(url, {}) : await as(t, editor).get(url);
      assert.equal(res.statusCode, 403, url);
      assert.equal(res.json().error.name, 'ForbiddenError');
      const stranger = method === 'post' ? await as(t, other).post(url, {}) : await as(t, other).get(url);
      assert.equal(stranger.statusCode, 404, url);
    }
    // Another project of the same owner cannot reach this one's export by id.
    const mine = await as(t, me).post('/v1/projects', { name: 'Elsewhere' });
    const elsewhere = mine.json().project.slug;
    assert.equal((await as(t, me).get(`/v1/projects/${elsewhere}/exports/${record.id}`)).statusCode, 404);
    assert.equal((await as(t, me).get(`/v1/projects/${elsewhere}/exports/${record.id}/download`)).statusCode, 404);
    assert.equal((await as(t, me).get(`/v1/projects/${slug}/exports/nope`)).statusCode, 404);
    const bad = await as(t, me).post(`/v1/projects/${slug}/exports`, { format: 'zip' });
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(bad.json().error, { status: 400, name: 'ValidationError', message: 'Unknown key format', details: { key: 'format' } });
  });

  it('an export whose process stopped is reported failed, not running forever', async () => {
    const project = (await as(t, me).get(`/v1/projects/${slug}`)).json().project;
    await t.platform.db.pool.query(compiledQuery({
      text: `INSERT INTO platform.project_archives (id, project_id, kind, storage_key, heartbeat_at) VALUES ('stale1', $1, 'export', 'archives/x/y.tar.gz', now() - interval '2 minutes')`,
      values: [project.id],
    }));
    const res = await as(t, me).get(`/v1/projects/${slug}/exports/stale1`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().export.status, 'failed');
    assert.equal(res.json().export.error, 'interrupted: the process writing it stopped; start it again');
    assert.equal(res.json().export.url, null);
  });
});
