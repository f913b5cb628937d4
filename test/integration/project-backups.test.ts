// Backups, restores and deleted projects (management-api.md § Exports, backups and deleted
// projects; docs/export.md): the import fixture (a real Strapi 5 export) imported with the CLI,
// then backed up by hand and by the maintenance round (its clock injected, on two gateways),
// restored in place while readers run (no 5xx, no answer mixing the old and the new content),
// restored as a new project, expired by its plan's retention; a deleted project answering 404
// at once, listed, restored whole, then purged past its 7 days.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { isDeepStrictEqual as isDeep } from 'node:util';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { extract } from 'tar-stream';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { cliFor, ROOT, type Cli } from '../helpers/cli.ts';
import { assertSameAnswers, FIXTURE_READS, fixtureAnswers, fullAccessToken, normaliseAnswer } from '../helpers/fixture-answers.ts';
import { addMember, as, signup, type Session } from '../helpers/management.ts';

const FIXTURE = join(ROOT, 'test/fixtures/strapi-export');
/** The read the readers repeat through a restore: every article draft, everything populated. */
const FIXTURE_LIST = FIXTURE_READS[0]!;
const DAY = 86_400_000;

type Dict = Record<string, unknown>;

async function tarNames(body: Buffer): Promise<string[]> {
  const names: string[] = [];
  const tar = extract();
  Readable.from([body]).pipe(createGunzip()).pipe(tar);
  for await (const entry of tar) {
    names.push(entry.header.name);
    entry.resume();
  }
  return names;
}

/** The JSON lines of an archive's entries under `prefix`. */
async function jsonlOf(body: Buffer, prefix: string): Promise<Dict[]> {
  const lines: Dict[] = [];
  const tar = extract();
  Readable.from([body]).pipe(createGunzip()).pipe(tar);
  for await (const entry of tar) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    if (entry.header.name.startsWith(prefix)) lines.push(...Buffer.concat(chunks).toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Dict));
  }
  return lines;
}

describe('backups, restores and deleted projects', () => {
  let t: TestApp;
  let t2: TestApp;
  let cli: Cli;
  let me: Session;
  let editor: Session;
  let other: Session;
  let slug = '';
  let projectId = 0;
  let token = '';
  let atBackup: Map<string, unknown>;
  let backupId = '';

  before(async () => {
    t = await startTestApp();
    t2 = await startTestApp({ share: t });
    cli = await cliFor(t);
    me = await signup(t, `backup-${process.pid}@example.com`);
    editor = await signup(t, `backup-editor-${process.pid}@example.com`);
    other = await signup(t, `backup-other-${process.pid}@example.com`);
    const res = await cli.run(['import', 'strapi', FIXTURE, '--data', join(FIXTURE, 'export.tar.gz')], { env: { CMS_TOKEN: me.token } });
    assert.equal(res.code, 0, res.stderr);
    slug = /^Imported into (\S+):/.exec(res.stdout)![1]!;
    projectId = (await as(t, me).get(`/v1/projects/${slug}`)).json().project.id;
    await addMember(t, projectId, editor, 'editor');
    token = await fullAccessToken(t, me, slug);
  });
  after(async () => {
    await cli?.close();
    await t2?.close();
    await t?.close();
  });

  async function backups(): Promise<Dict[]> {
    const res = await as(t, me).get(`/v1/projects/${slug}/backups`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().backups;
  }

  async function until<T>(what: string, read: () => Promise<T | null>): Promise<T> {
    for (let i = 0; i < 1200; i++) {
      const value = await read();
      if (value !== null) return value;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`waited too long for ${what}`);
  }

  const settled = (id: string) => until(`backup ${id}`, async () => (await backups()).find((b) => b.id === id && b.status !== 'running') ?? null);

  it('POST /backups → 202 running manual backup; it ends done, listed with its expiry, downloadable', async () => {
    const started = await as(t, me).post(`/v1/projects/${slug}/backups`, {});
    assert.equal(started.statusCode, 202, started.body);
    const backup = started.json().backup;
    assert.equal(backup.kind, 'manual');
    assert.equal(backup.status, 'running');
    assert.equal(backup.size, null);
    // Free plan: kept 7 days.
    assert.equal(Date.parse(backup.expiresAt) - Date.parse(backup.createdAt), 7 * DAY);
    const done = await settled(backup.id);
    assert.equal(done.status, 'done', JSON.stringify(done));
    assert.deepEqual(Object.keys(done).sort(), ['createdAt', 'error', 'expiresAt', 'id', 'kind', 'size', 'status', 'url']);
    const download = await t.inject({ method: 'GET', url: new URL(done.url as string).pathname, headers: { authorization: `Bearer ${me.token}` } });
    assert.equal(download.statusCode, 200);
    assert.equal(download.rawPayload.length, done.size);
    const names = await tarNames(download.rawPayload);
    for (const name of ['metadata.json', 'schemas/schemas_00001.jsonl', 'entities/entities_00001.jsonl', 'links/links_00001.jsonl']) assert.ok(names.includes(name), name);
    backupId = backup.id as string;
    atBackup = await fixtureAnswers(t, slug, token);
  });

  it('the daily backup: started once per day by whichever gateway runs the round, at the project\'s own minute', async () => {
    const later = new Date(Date.now() + 2 * DAY);
    // Both gateways run a round at once: one takes the lock, the other does nothing.
    const [a, b] = await Promise.all([t.platform.maintenance.round(later, ['backup']), t2.platform.maintenance.round(later, ['backup'])]);
    const started = [...a.backupsStarted, ...b.backupsStarted].filter((s) => s === slug);
    assert.equal(started.length, 1);
    // Again at the same time, and a minute later: not due any more.
    assert.deepEqual((await t.platform.maintenance.round(later, ['backup'])).backupsStarted, []);
    assert.deepEqual((await t2.platform.maintenance.round(new Date(later.getTime() + 60_000), ['backup'])).backupsStarted, []);
    await t.platform.archives.settled();
    await t2.platform.archives.settled();
    const scheduled = (await backups()).filter((x) => x.kind === 'scheduled');
    assert.equal(scheduled.length, 1);
    assert.equal(scheduled[0]!.status, 'done');
    assert.equal(scheduled[0]!.createdAt, later.toISOString());
    assert.equal(Date.parse(scheduled[0]!.expiresAt as string), later.getTime() + 7 * DAY);
    // A day later it is due again.
    const next = new Date(later.getTime() + DAY);
    const round = await t.platform.maintenance.round(next, ['backup']);
    assert.ok(round.backupsStarted.includes(slug));
    await t.platform.archives.settled();
    assert.equal((await backups()).filter((x) => x.kind === 'scheduled').length, 2);
  });

  it('restores in place while readers run: no error, no answer mixing old and new, then the backup\'s content; tokens and members stay', async () => {
    // Changes after the backup: a title, a deleted tag, a new author.
    const api = (method: string, url: string, payload?: unknown) => t.inject({ method: method as 'GET', url: `/p/${slug}/api/${url}`, payload: payload as object, headers: { authorization: `Bearer ${token}` } });
    const articles = (await api('GET', 'articles?status=draft&locale=en&sort=documentId')).json().data as Dict[];
    assert.equal((await api('PUT', `articles/${articles[0]!.documentId}?locale=en&status=draft`, { data: { title: 'Changed after the backup' } })).statusCode, 200);
    const tags = (await api('GET', 'tags?status=published')).json().data as Dict[];
    assert.equal((await api('DELETE', `tags/${tags[0]!.documentId}`)).statusCode, 204);
    assert.equal((await api('POST', 'authors', { data: { name: 'After the backup' } })).statusCode, 201);
    const changed = await fixtureAnswers(t, slug, token);
    assert.notDeepEqual(changed.get(FIXTURE_LIST), atBackup.get(FIXTURE_LIST));

    // Readers on both gateways, through the restore.
    let reading = true;
    const seen: Array<{ status: number; body: unknown }> = [];
    const reader = async (app: TestApp) => {
      while (reading) {
        const res = await app.inject({ method: 'GET', url: `/p/${slug}/api/${FIXTURE_LIST}&pagination[pageSize]=100`, headers: { authorization: `Bearer ${token}` } });
        seen.push({ status: res.statusCode, body: res.statusCode === 200 ? normaliseAnswer(res.json()) : res.body });
      }
    };
    const readers = [reader(t), reader(t2), reader(t)];
    const res = await as(t, me).post(`/v1/projects/${slug}/backups/${backupId}/restore`, { target: 'in-place' });
    assert.equal(res.statusCode, 202, res.body);
    const restore = res.json().restore;
    assert.equal(restore.status, 'running');
    assert.equal(restore.target, 'in-place');
    assert.equal(restore.backupId, backupId);
    assert.equal(restore.project.slug, slug);
    const done = await until('the restore', async () => {
      const r = (await as(t, me).get(`/v1/projects/${slug}/restores/${restore.id}`)).json().restore;
      return r.status === 'running' ? null : r;
    });
    // A few more reads after the switch, then stop.
    await new Promise((r) => setTimeout(r, 300));
    reading = false;
    await Promise.all(readers);
    assert.equal(done.status, 'done', JSON.stringify(done));
    assert.equal(done.error, null);
    assert.ok(seen.length > 10);
    const before = changed.get(FIXTURE_LIST);
    const afterRestore = atBackup.get(FIXTURE_LIST);
    for (const answer of seen) {
      assert.equal(answer.status, 200, String(answer.body));
      assert.ok(isDeep(answer.body, before) || isDeep(answer.body, afterRestore), 'an answer is either the old or the restored content');
    }
    assert.ok(isDeep(seen[seen.length - 1]!.body, afterRestore));
    // Everything the backup held, through the same API token; the editor is still a member.
    assertSameAnswers(await fixtureAnswers(t, slug, token), atBackup);
    assertSameAnswers(await fixtureAnswers(t2, slug, token), atBackup);
    assert.equal((await as(t, editor).get(`/v1/projects/${slug}`)).statusCode, 200);
    // Users log in with their password again.
    const login = await t.inject({ method: 'POST', url: `/p/${slug}/api/auth/local`, payload: { identifier: 'reader@example.com', password: 'Reader-pass-1' } });
    assert.equal(login.statusCode, 200, login.body);
    // The staged project and the previous schema are gone; nobody sees a project of the restore.
    const staged = await t.platform.db.pool.any(compiledQuery({ text: `SELECT slug FROM platform.projects WHERE slug LIKE 'restore-%'`, values: [] }));
    assert.deepEqual(staged, []);
    const schemas = await t.platform.db.pool.anyFirst(compiledQuery({ text: `SELECT nspname FROM pg_namespace WHERE nspname LIKE 't\\_%' AND nspname NOT IN (SELECT schema_name FROM platform.projects)`, values: [] }));
    assert.deepEqual(schemas.filter((s) => !String(s).startsWith('t_spare')), []);
  });

  it('restores as a new project of the caller: the backup\'s content under a new slug', async () => {
    const res = await as(t, me).post(`/v1/projects/${slug}/backups/${backupId}/restore`, { target: 'new-project', name: 'Restored copy' });
    assert.equal(res.statusCode, 202, res.body);
    const restore = res.json().restore;
    assert.equal(restore.project, null);
    const done = await until('the restore', async () => {
      const r = (await as(t, me).get(`/v1/projects/${slug}/restores/${restore.id}`)).json().restore;
      return r.status === 'running' ? null : r;
    });
    assert.equal(done.status, 'done', JSON.stringify(done));
    assert.equal(done.project.slug, 'restored-copy');
    assert.equal(done.project.name, 'Restored copy');
    assert.ok((await as(t, me).get('/v1/projects')).json().projects.some((p: Dict) => p.slug === 'restored-copy'));
    assertSameAnswers(await fixtureAnswers(t, 'restored-copy', await fullAccessToken(t, me, 'restored-copy')), atBackup);
  });

  it('backups and restores are the owners\': editors 403, other accounts 404, bad bodies 400, unknown ids 404', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['GET', `/v1/projects/${slug}/backups`],
      ['POST', `/v1/projects/${slug}/backups`, {}],
      ['POST', `/v1/projects/${slug}/backups/${backupId}/restore`, { target: 'in-place' }],
      ['GET', `/v1/projects/${slug}/restores/nope`],
    ];
    for (const [method, url, body] of routes) {
      const as403 = await t.inject({ method: method as 'GET', url, payload: body as object, headers: { authorization: `Bearer ${editor.token}` } });
      assert.equal(as403.statusCode, 403, `${method} ${url}`);
      const as404 = await t.inject({ method: method as 'GET', url, payload: body as object, headers: { authorization: `Bearer ${other.token}` } });
      assert.equal(as404.statusCode, 404, `${method} ${url}`);
    }
    const bad = async (body: unknown, message: string) => {
      const res = await as(t, me).post(`/v1/projects/${slug}/backups/${backupId}/restore`, body);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().error.message, message);
    };
    await bad({}, 'target must be "in-place" or "new-project"');
    await bad({ target: 'elsewhere' }, 'target must be "in-place" or "new-project"');
    await bad({ target: 'new-project', name: '' }, 'name must be a text of 1 to 100 characters');
    await bad({ target: 'in-place', name: 'x' }, 'name is only for a restore as a new project');
    await bad({ target: 'in-place', extra: 1 }, 'Unknown key extra');
    assert.equal((await as(t, me).post(`/v1/projects/${slug}/backups/nope/restore`, { target: 'in-place' })).statusCode, 404);
    // An export is no backup.
    const exp = (await as(t, me).post(`/v1/projects/${slug}/exports`, {})).json().export;
    assert.equal((await as(t, me).post(`/v1/projects/${slug}/backups/${exp.id}/restore`, { target: 'in-place' })).statusCode, 404);
    assert.equal((await as(t, me).get(`/v1/projects/${slug}/restores/nope`)).statusCode, 404);
    // Another project of the same owner cannot restore this one's backup.
    const elsewhere = (await as(t, me).post('/v1/projects', { name: 'Elsewhere' })).json().project.slug;
    assert.equal((await as(t, me).post(`/v1/projects/${elsewhere}/backups/${backupId}/restore`, { target: 'in-place' })).statusCode, 404);
  });

  it('a backup past its plan\'s retention is dropped with its archive', async () => {
    const list = await backups();
    const keys = await t.platform.db.pool.anyFirst(compiledQuery({ text: `SELECT storage_key FROM platform.project_archives WHERE project_id = $1 AND kind <> 'export'`, values: [projectId] }));
    const round = await t.platform.maintenance.round(new Date(Date.now() + 12 * DAY), ['expire']);
    assert.ok(round.expiredBackups >= list.length);
    assert.deepEqual(await backups(), []);
    for (const key of keys) assert.equal(await t.platform.media.readArchive(String(key)), null, String(key));
  });

  it('a model change that deletes data is preceded by a manual backup holding that data; others are not', async () => {
    const p = (await as(t, me).post('/v1/projects', { name: 'Model changes' })).json().project.slug as string;
    const note = (attributes: Dict) => ({ contentTypes: { 'api::note.note': { kind: 'collectionType', info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' }, options: { draftAndPublish: false }, attributes } }, components: {} });
    assert.equal((await as(t, me).put(`/v1/projects/${p}/schema`, note({ title: { type: 'string' }, body: { type: 'text' } }))).statusCode, 200);
    const key = await fullAccessToken(t, me, p);
    assert.equal((await t.inject({ method: 'POST', url: `/p/${p}/api/notes`, payload: { data: { title: 'kept', body: 'dropped by the change' } }, headers: { authorization: `Bearer ${key}` } })).statusCode, 201);
    const list = async () => (await as(t, me).get(`/v1/projects/${p}/backups`)).json().backups as Dict[];
    // Adding an attribute deletes nothing: no backup.
    assert.equal((await as(t, me).put(`/v1/projects/${p}/schema`, note({ title: { type: 'string' }, body: { type: 'text' }, views: { type: 'integer' } }))).statusCode, 200);
    assert.deepEqual(await list(), []);
    // Removing one does: the answer comes once a backup holding it is done.
    const res = await as(t, me).put(`/v1/projects/${p}/schema`, note({ title: { type: 'string' } }));
    assert.equal(res.statusCode, 200, res.body);
    const [backup, ...more] = await list();
    assert.deepEqual(more, []);
    assert.equal(backup!.kind, 'manual');
    assert.equal(backup!.status, 'done');
    const archive = await t.inject({ method: 'GET', url: new URL(backup!.url as string).pathname, headers: { authorization: `Bearer ${me.token}` } });
    const lines = await jsonlOf(archive.rawPayload, 'entities/');
    assert.ok(lines.some((e) => e.type === 'api::note.note' && (e.data as Dict).body === 'dropped by the change'));
    // Deleting the type does too.
    assert.equal((await as(t, me).del(`/v1/projects/${p}/content-types/api::note.note`)).statusCode, 204);
    assert.equal((await list()).length, 2);
  });

  it('a deleted project answers 404 at once, is listed as recently deleted, comes back whole; past 7 days it is purged', async () => {
    assert.equal((await as(t, editor).del(`/v1/projects/${slug}`)).statusCode, 403);
    assert.equal((await as(t, me).del(`/v1/projects/${slug}`)).statusCode, 204);
    // At once, on both gateways.
    for (const app of [t, t2]) {
      assert.equal((await app.inject({ method: 'GET', url: `/p/${slug}/api/authors`, headers: { authorization: `Bearer ${token}` } })).statusCode, 404);
    }
    assert.equal((await as(t, me).get(`/v1/projects/${slug}`)).statusCode, 404);
    assert.ok(!(await as(t, me).get('/v1/projects')).json().projects.some((p: Dict) => p.slug === slug));
    const deleted = (await as(t, me).get('/v1/projects?status=deleted')).json().projects as Dict[];
    const mine = deleted.find((p) => p.slug === slug)!;
    assert.ok(mine);
    assert.equal(Date.parse(mine.purgeAt as string) - Date.parse(mine.deletedAt as string), 7 * DAY);
    // Only owners see and restore it.
    assert.deepEqual((await as(t, editor).get('/v1/projects?status=deleted')).json().projects, []);
    assert.equal((await as(t, editor).post(`/v1/projects/${slug}/restore`, {})).statusCode, 404);
    assert.equal((await as(t, other).post(`/v1/projects/${slug}/restore`, {})).statusCode, 404);
    assert.equal((await as(t, me).get('/v1/projects?status=gone')).statusCode, 400);
    // Six days on, the round leaves it.
    assert.ok(!(await t.platform.maintenance.round(new Date(Date.now() + 6 * DAY), ['purge'])).purged.includes(slug));
    const restored = await as(t, me).post(`/v1/projects/${slug}/restore`, {});
    assert.equal(restored.statusCode, 200, restored.body);
    assert.equal(restored.json().project.slug, slug);
    assertSameAnswers(await fixtureAnswers(t, slug, token), atBackup);
    assertSameAnswers(await fixtureAnswers(t2, slug, token), atBackup);
    assert.equal((await as(t, me).post(`/v1/projects/${slug}/restore`, {})).statusCode, 404);

    // Deleted again, and past 7 days: purged (schema, rows), no longer restorable.
    assert.equal((await as(t, me).del(`/v1/projects/${slug}`)).statusCode, 204);
    const round = await t.platform.maintenance.round(new Date(Date.now() + 7 * DAY + 60_000), ['purge']);
    assert.ok(round.purged.includes(slug));
    assert.equal((await as(t, me).post(`/v1/projects/${slug}/restore`, {})).statusCode, 404);
    assert.equal(Number(await t.platform.db.pool.oneFirst(compiledQuery({ text: 'SELECT count(*) FROM platform.projects WHERE id = $1', values: [projectId] }))), 0);
    assert.equal(Number(await t.platform.db.pool.oneFirst(compiledQuery({ text: 'SELECT count(*) FROM pg_namespace WHERE nspname = $1', values: [`t_${projectId}`] }))), 0);
  });
});

