// The media library's management routes: folders (create, rename, move, delete), files listed by
// folder/search/type/sort, where a file is used, `fileInfo.folder` on the upload API, the upgrade
// of existing project schemas, and the dashboard's CSP with media on another origin. Exact
// statuses and bodies, database state, roles and tenant isolation.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { mediaOrigin } from '@cms/config';
import { compiledQuery } from '@cms/db';
import { baseMigrations } from '@cms/ddl';
import { upgradeProjectSchemas } from '@cms/tenancy';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { fieldError, forbidden, notFound } from '../helpers/envelope.ts';
import { addMember, as, signup, type Session } from '../helpers/management.ts';
import { multipart, type MultipartField } from '../helpers/multipart.ts';

type Json = Record<string, any>;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const STRAPI_FILE_KEYS = [
  'id', 'documentId', 'name', 'alternativeText', 'caption', 'focalPoint', 'width', 'height', 'formats', 'hash', 'ext', 'mime',
  'size', 'url', 'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt', 'publishedAt', 'isUrlSigned',
];
const LISTED_FILE_KEYS = [...STRAPI_FILE_KEYS.filter((k) => k !== 'isUrlSigned'), 'folder'];

const MODEL = {
  contentTypes: {
    'api::article.article': {
      kind: 'collectionType',
      info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
      options: { draftAndPublish: true },
      attributes: {
        title: { type: 'string' },
        cover: { type: 'media', multiple: false, allowedTypes: ['images'] },
        gallery: { type: 'media', multiple: true },
        seo: { type: 'component', component: 'shared.seo', repeatable: false },
        blocks: { type: 'dynamiczone', components: ['shared.figure'] },
      },
    },
    'api::note.note': {
      kind: 'collectionType',
      info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      options: { draftAndPublish: false },
      attributes: { count: { type: 'integer' }, file: { type: 'media', multiple: false } },
    },
  },
  components: {
    'shared.seo': { collectionName: 'components_shared_seos', info: { displayName: 'Seo' }, attributes: { metaTitle: { type: 'string' }, image: { type: 'media', multiple: false } } },
    'shared.figure': { collectionName: 'components_shared_figures', info: { displayName: 'Figure' }, attributes: { picture: { type: 'media', multiple: false }, credit: { type: 'component', component: 'shared.credit', repeatable: true } } },
    'shared.credit': { collectionName: 'components_shared_credits', info: { displayName: 'Credit' }, attributes: { logo: { type: 'media', multiple: false } } },
  },
};

const viewersOnlyRead = forbidden('Viewers of this project can only read it');

function assertAnswer(res: LightMyRequestResponse, status: number, body: unknown): void {
  assert.equal(res.statusCode, status, res.body);
  assert.deepEqual(res.json(), body);
}


/** The answer's order: type, label, documentId, locale, status, field, in byte order. */
function byUsageOrder(x: Record<string, unknown>, y: Record<string, unknown>): number {
  for (const key of ['uid', 'label', 'documentId', 'locale', 'status', 'field']) {
    const a = String(x[key] ?? ''), b = String(y[key] ?? '');
    if (a !== b) return a < b ? -1 : 1;
  }
  return 0;
}

describe('media library management (folders, listing, usages)', () => {
  let t: TestApp;
  let a: ContentProject;
  let b: ContentProject;
  let viewer: Session;
  let baseA: string;
  let baseB: string;
  let bigPng: Buffer;

  const query = async (text: string, values: unknown[] = []) =>
    (await t.platform.db.pool.any(compiledQuery({ text, values }))).map((r) => ({ ...r })) as Json[];
  const upload = async (p: ContentProject, fields: Record<string, MultipartField | MultipartField[]>, search = '') =>
    p.api.raw('POST', `/api/upload${search}`, await multipart(fields));
  const uploadOk = async (p: ContentProject, fields: Record<string, MultipartField | MultipartField[]>) => {
    const res = await upload(p, fields);
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as Json[];
  };
  const text = (name: string) => ({ name, content: `content of ${name}`, type: 'text/plain' });
  const image = (name: string) => ({ name, content: bigPng, type: 'image/png' });
  const newFolder = async (p: ContentProject, body: Json) => {
    const res = await p.admin.post(`/v1/projects/${p.slug}/media/folders`, body);
    assert.equal(res.statusCode, 201, res.body);
    return res.json().folder as Json;
  };
  const folderRows = (p: ContentProject) => query(`SELECT id::int AS id, name, parent_id::int AS parent, path FROM "${p.schema}".upload_folders ORDER BY id`);
  const fileFolders = (p: ContentProject) => query(`SELECT id::int AS id, folder_id::int AS folder, folder_path AS "folderPath" FROM "${p.schema}".files ORDER BY id`);
  const list = async (search: string, p = a) => {
    const res = await p.admin.get(`/v1/projects/${p.slug}/media/files${search}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { files: Json[]; pagination: Json };
  };

  before(async () => {
    t = await startTestApp();
    a = await setupContentProject(t, MODEL);
    b = await setupContentProject(t, MODEL);
    viewer = await signup(t);
    await addMember(t, a.id, viewer, 'viewer');
    baseA = `/v1/projects/${a.slug}/media`;
    baseB = `/v1/projects/${b.slug}/media`;
    bigPng = await sharp({ create: { width: 600, height: 400, channels: 3, background: 'teal' } }).png().toBuffer();
  });
  after(() => t?.close());

  describe('folders', () => {
    let photos: Json;
    let year: Json;

    it('creates folders at the root and inside another: 201 {folder} with its id path', async () => {
      const res = await a.admin.post(`${baseA}/folders`, { name: '  Photos ' });
      assert.equal(res.statusCode, 201, res.body);
      photos = res.json().folder;
      assert.deepEqual(Object.keys(photos), ['id', 'name', 'parent', 'path', 'createdAt', 'updatedAt', 'fileCount']);
      assert.match(photos.createdAt, ISO);
      assert.match(photos.updatedAt, ISO);
      assert.deepEqual({ ...photos, createdAt: 0, updatedAt: 0 }, { id: 1, name: 'Photos', parent: null, path: '/1', createdAt: 0, updatedAt: 0, fileCount: 0 });
      year = await newFolder(a, { name: '2024', parent: photos.id });
      assert.deepEqual([year.id, year.parent, year.path], [2, 1, '/1/2']);
      assert.deepEqual(await folderRows(a), [{ id: 1, name: 'Photos', parent: null, path: '/1' }, { id: 2, name: '2024', parent: 1, path: '/1/2' }]);
    });

    it('lists every folder, parents first, with their file counts', async () => {
      const res = await a.admin.get(`${baseA}/folders`);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { folders: [photos, year] });
    });

    it('refuses bad names, unknown keys and parents, twins and non-integer ids with a 400 naming the field', async () => {
      const before = await folderRows(a);
      const cases: Array<[Json | string | null, unknown]> = [
        [{ name: '' }, fieldError(['name'], 'name must not be empty')],
        [{ name: '   ' }, fieldError(['name'], 'name must not be empty')],
        [{ name: 'x'.repeat(101) }, fieldError(['name'], 'name must be at most 100 characters')],
        [{ name: 42 }, fieldError(['name'], 'name must be a string')],
        [{}, fieldError(['name'], 'name must be a string')],
        [{ name: 'a\u0000b' }, fieldError(['name'], 'name must not contain control characters')],
        [{ name: 'ok', color: 'red' }, fieldError(['color'], 'color is not a valid key')],
        [{ name: 'ok', parent: 'abc' }, fieldError(['parent'], 'parent must be a folder id or null')],
        [{ name: 'ok', parent: 1.5 }, fieldError(['parent'], 'parent must be a folder id or null')],
        [{ name: 'ok', parent: 999 }, fieldError(['parent'], 'Folder 999 does not exist')],
        [{ name: 'Photos' }, fieldError(['name'], 'A folder named "Photos" already exists here')],
        [{ name: '2024', parent: 1 }, fieldError(['name'], 'A folder named "2024" already exists here')],
        [[1, 2] as unknown as Json, fieldError([], 'The body must be a JSON object')],
      ];
      for (const [body, expected] of cases) assertAnswer(await a.admin.post(`${baseA}/folders`, body), 400, expected);
      for (const id of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
        assertAnswer(await a.admin.patch(`${baseA}/folders/${id}`, { name: 'x' }), 400, fieldError(['id'], 'id must be a positive integer'));
        assertAnswer(await a.admin.del(`${baseA}/folders/${id}`), 400, fieldError(['id'], 'id must be a positive integer'));
      }
      assertAnswer(await a.admin.patch(`${baseA}/folders/999`, { name: 'x' }), 404, notFound('folder.notFound'));
      assertAnswer(await a.admin.del(`${baseA}/folders/999`), 404, notFound('folder.notFound'));
      assertAnswer(await a.admin.patch(`${baseA}/folders/1`, {}), 400, fieldError([], 'Send name, parent or both'));
      assert.deepEqual(await folderRows(a), before);
    });

    it('renames and moves, refusing cycles; a move rewrites the paths of the subtree and its files', async () => {
      const [file] = await uploadOk(a, { files: text('deep.txt'), fileInfo: JSON.stringify({ folder: year.id }) });
      assert.deepEqual((await fileFolders(a)).find((f) => f.id === file!.id), { id: file!.id, folder: 2, folderPath: '/1/2' });

      const renamed = await a.admin.patch(`${baseA}/folders/${photos.id}`, { name: 'Pictures' });
      assert.equal(renamed.statusCode, 200, renamed.body);
      assert.deepEqual({ ...renamed.json().folder, updatedAt: 0 }, { ...photos, name: 'Pictures', updatedAt: 0 });

      assertAnswer(await a.admin.patch(`${baseA}/folders/${photos.id}`, { parent: year.id }), 400,
        fieldError(['parent'], 'A folder cannot be moved into itself or one of its sub-folders'));
      assertAnswer(await a.admin.patch(`${baseA}/folders/${photos.id}`, { parent: photos.id }), 400,
        fieldError(['parent'], 'A folder cannot be moved into itself or one of its sub-folders'));
      const other = await newFolder(a, { name: '2024' });
      assertAnswer(await a.admin.patch(`${baseA}/folders/${year.id}`, { parent: null }), 400, fieldError(['name'], 'A folder named "2024" already exists here'));
      assertAnswer(await a.admin.patch(`${baseA}/folders/${other.id}`, { name: 'Pictures' }), 400, fieldError(['name'], 'A folder named "Pictures" already exists here'));

      // Pictures (1) moves under "2024" (3): /3/1, and its child 2024 (2) to /3/1/2.
      const moved = await a.admin.patch(`${baseA}/folders/${photos.id}`, { parent: other.id });
      assert.equal(moved.statusCode, 200, moved.body);
      assert.deepEqual([moved.json().folder.parent, moved.json().folder.path], [3, '/3/1']);
      assert.deepEqual(await folderRows(a), [
        { id: 1, name: 'Pictures', parent: 3, path: '/3/1' }, { id: 2, name: '2024', parent: 1, path: '/3/1/2' }, { id: 3, name: '2024', parent: null, path: '/3' },
      ]);
      assert.deepEqual((await fileFolders(a)).find((f) => f.id === file!.id), { id: file!.id, folder: 2, folderPath: '/3/1/2' });
      // And back to the root, by name and parent at once.
      const back = await a.admin.patch(`${baseA}/folders/${photos.id}`, { name: 'Photos', parent: null });
      assert.deepEqual([back.json().folder.name, back.json().folder.parent, back.json().folder.path], ['Photos', null, '/1']);
      assert.deepEqual((await fileFolders(a)).find((f) => f.id === file!.id), { id: file!.id, folder: 2, folderPath: '/1/2' });
      const folders = (await a.admin.get(`${baseA}/folders`)).json().folders as Json[];
      assert.deepEqual(folders.map((f) => [f.id, f.path, f.fileCount]), [[1, '/1', 0], [2, '/1/2', 1], [3, '/3', 0]]);
    });
  });

  describe('fileInfo.folder on the upload API', () => {
    it('puts uploads in a folder, moves them by info update, to the root with null; Strapi answers unchanged', async () => {
      const folder = await newFolder(a, { name: 'Inbox' });
      const files = await uploadOk(a, { files: [text('one.txt'), text('two.txt')], fileInfo: JSON.stringify([{ folder: folder.id }, { folder: null }]) });
      for (const f of files) assert.deepEqual(Object.keys(f), STRAPI_FILE_KEYS);
      const rows = await fileFolders(a);
      assert.deepEqual(rows.filter((r) => files.some((f) => f.id === r.id)), [
        { id: files[0]!.id, folder: folder.id, folderPath: folder.path }, { id: files[1]!.id, folder: null, folderPath: '/' },
      ]);
      const moved = await a.api.post(`/api/upload?id=${files[1]!.id}`, { fileInfo: { folder: folder.id, caption: 'moved' } });
      assert.equal(moved.statusCode, 200, moved.body);
      assert.deepEqual(Object.keys(moved.json()), STRAPI_FILE_KEYS);
      assert.equal(moved.json().caption, 'moved');
      assert.deepEqual((await fileFolders(a)).find((r) => r.id === files[1]!.id), { id: files[1]!.id, folder: folder.id, folderPath: folder.path });
      const root = await a.api.post(`/api/upload?id=${files[1]!.id}`, { fileInfo: { folder: null } });
      assert.equal(root.statusCode, 200, root.body);
      assert.deepEqual((await fileFolders(a)).find((r) => r.id === files[1]!.id), { id: files[1]!.id, folder: null, folderPath: '/' });
      // A replace may move the file too.
      const replaced = await upload(a, { files: text('two-v2.txt'), fileInfo: JSON.stringify({ folder: folder.id }) }, `?id=${files[1]!.id}`);
      assert.equal(replaced.statusCode, 200, replaced.body);
      assert.deepEqual((await fileFolders(a)).find((r) => r.id === files[1]!.id), { id: files[1]!.id, folder: folder.id, folderPath: folder.path });
    });

    it('refuses an unknown or malformed folder with a 400 on fileInfo.folder, storing and changing nothing', async () => {
      const before = await fileFolders(a);
      const disk = async () => (await readdir(join(t.env.MEDIA_DIR!, String(a.id)))).sort();
      const onDisk = await disk();
      assertAnswer(await upload(a, { files: text('lost.txt'), fileInfo: JSON.stringify({ folder: 999 }) }), 400, fieldError(['fileInfo', 'folder'], 'Folder 999 does not exist'));
      assertAnswer(await upload(a, { files: [text('l1.txt'), text('l2.txt')], fileInfo: JSON.stringify([{}, { folder: 999 }]) }), 400,
        fieldError(['fileInfo', '1', 'folder'], 'Folder 999 does not exist'));
      assertAnswer(await upload(a, { files: text('lost.txt'), fileInfo: JSON.stringify({ folder: 'x' }) }), 400, fieldError(['fileInfo', 'folder'], 'folder must be a folder id or null'));
      const id = before[0]!.id;
      assertAnswer(await a.api.post(`/api/upload?id=${id}`, { fileInfo: { folder: 999 } }), 400, fieldError(['fileInfo', 'folder'], 'Folder 999 does not exist'));
      assertAnswer(await upload(a, { files: text('replacing.txt'), fileInfo: JSON.stringify({ folder: 999 }) }, `?id=${id}`), 400,
        fieldError(['fileInfo', 'folder'], 'Folder 999 does not exist'));
      assert.deepEqual(await fileFolders(a), before);
      for (let i = 0; i < 40 && (await disk()).some((n) => n.startsWith('.~')); i++) await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(await disk(), onDisk);
    });
  });

  describe('GET …/media/files', () => {
    let gallery: Json;
    let pics: Json[];

    before(async () => {
      gallery = await newFolder(a, { name: 'Gallery' });
      pics = await uploadOk(a, {
        files: [image('Beach 100%.png'), image('forest_1.png'), text('Beach notes.txt')],
        fileInfo: JSON.stringify([{ folder: gallery.id, alternativeText: 'sand' }, { folder: gallery.id }, { folder: gallery.id }]),
      });
      await uploadOk(a, { files: text('at the root.txt') });
    });

    it('lists one folder\'s files, newest first, shaped as the upload API does plus their folder', async () => {
      const page = await list(`?folder=${gallery.id}`);
      assert.deepEqual(page.files.map((f) => f.name), ['Beach notes.txt', 'forest_1.png', 'Beach 100%.png']);
      assert.deepEqual(page.pagination, { page: 1, pageSize: 50, pageCount: 1, total: 3 });
      for (const f of page.files) assert.deepEqual(Object.keys(f), LISTED_FILE_KEYS);
      const fromStrapi = (await a.api.get(`/api/upload/files/${pics[0]!.id}`)).json();
      const { isUrlSigned: _signed, ...strapiShape } = fromStrapi;
      assert.deepEqual(page.files[2], { ...strapiShape, folder: gallery.id });
      assert.equal(page.files[2]!.formats.thumbnail.width, 234);
    });

    it('searches names literally and case-insensitively, filters by type, sorts and pages', async () => {
      const names = async (search: string) => (await list(search)).files.map((f) => f.name);
      const g = `folder=${gallery.id}`;
      assert.deepEqual(await names(`?${g}&q=beach`), ['Beach notes.txt', 'Beach 100%.png']);
      assert.deepEqual(await names(`?${g}&q=100%25`), ['Beach 100%.png']);
      assert.deepEqual(await names(`?${g}&q=t_1`), ['forest_1.png']);
      assert.deepEqual(await names(`?${g}&q=%25`), ['Beach 100%.png']);
      assert.deepEqual(await names(`?${g}&type=image&sort=name:asc`), ['Beach 100%.png', 'forest_1.png']);
      assert.deepEqual(await names(`?${g}&type=file`), ['Beach notes.txt']);
      assert.deepEqual(await names(`?${g}&type=video,audio`), []);
      assert.deepEqual(await names(`?${g}&type=image,file&sort=name:desc`), ['forest_1.png', 'Beach notes.txt', 'Beach 100%.png']);
      assert.deepEqual(await names(`?${g}&sort=createdAt:asc`), ['Beach 100%.png', 'forest_1.png', 'Beach notes.txt']);
      const second = await list(`?${g}&sort=name:asc&page=2&pageSize=2`);
      assert.deepEqual([second.files.map((f) => f.name), second.pagination], [['forest_1.png'], { page: 2, pageSize: 2, pageCount: 2, total: 3 }]);
      const beyond = await list(`?${g}&page=5&pageSize=2`);
      assert.deepEqual(beyond, { files: [], pagination: { page: 5, pageSize: 2, pageCount: 2, total: 3 } });
      // The root holds the files of no folder; no folder key lists every file.
      const root = await list('?folder=root&pageSize=100');
      assert.deepEqual(root.files.map((f) => [f.name, f.folder]), [['at the root.txt', null]]);
      const all = await list('?pageSize=100');
      assert.equal(all.pagination.total, Number((await query(`SELECT count(*)::int AS n FROM "${a.schema}".files`))[0]!.n));
    });

    it('refuses unknown keys and malformed values (400), unknown folders (404)', async () => {
      const cases: Array<[string, unknown]> = [
        ['?foo=1', fieldError(['foo'], 'foo is not a valid key')],
        ['?folder=abc', fieldError(['folder'], 'folder must be a folder id or root')],
        ['?folder=1&folder=2', fieldError(['folder'], 'folder must be given once, as text')],
        ['?type=pdf', fieldError(['type'], 'type must be one or more of image, video, audio, file, separated by commas')],
        ['?sort=size:up', fieldError(['sort'], 'sort must be one of name, createdAt, updatedAt, size, with :asc or :desc')],
        ['?sort=hash', fieldError(['sort'], 'sort must be one of name, createdAt, updatedAt, size, with :asc or :desc')],
        ['?page=0', fieldError(['page'], 'page must be an integer from 1 to 1000000')],
        ['?pageSize=101', fieldError(['pageSize'], 'pageSize must be an integer from 1 to 100')],
        ['?pageSize=1e2', fieldError(['pageSize'], 'pageSize must be an integer from 1 to 100')],
        [`?q=${'x'.repeat(201)}`, fieldError(['q'], 'q must be at most 200 characters')],
      ];
      for (const [search, expected] of cases) assertAnswer(await a.admin.get(`${baseA}/files${search}`), 400, expected);
      assertAnswer(await a.admin.get(`${baseA}/files?folder=999`), 404, notFound('folder.notFound'));
    });
  });

  describe('GET …/media/files/{id}/usages', () => {
    it('lists every document version that links the file, through components and dynamic zones too', async () => {
      const [file] = await uploadOk(a, { files: image('used.png') });
      const [unused] = await uploadOk(a, { files: image('unused.png') });
      const id = file!.id;
      const created = await a.api.post('/api/articles', {
        data: {
          title: 'Hello', cover: id, gallery: [unused!.id, id], seo: { metaTitle: 'm', image: id },
          blocks: [{ __component: 'shared.figure', picture: id, credit: [{ logo: id }] }],
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      const documentId = created.json().data.documentId;
      const draft = await a.api.post('/api/articles?status=draft', { data: { title: '', cover: id } });
      assert.equal(draft.statusCode, 201, draft.body);
      const note = await a.api.post('/api/notes', { data: { count: 1, file: id } });
      assert.equal(note.statusCode, 201, note.body);

      const res = await a.admin.get(`${baseA}/files/${id}/usages`);
      assert.equal(res.statusCode, 200, res.body);
      const use = (field: string, status: string, over: Json = {}) =>
        ({ uid: 'api::article.article', documentId, locale: null, status, field, label: 'Hello', ...over });
      const draftId = draft.json().data.documentId;
      const noteId = note.json().data.documentId;
      const expected = [
        ...['blocks.credit.logo', 'blocks.picture', 'cover', 'gallery', 'seo.image'].flatMap((f) => [use(f, 'draft'), use(f, 'published')]),
        // No title: named by its documentId.
        use('cover', 'draft', { documentId: draftId, label: draftId }),
        { uid: 'api::note.note', documentId: noteId, locale: null, status: 'published', field: 'file', label: noteId },
      ].sort(byUsageOrder);
      assert.deepEqual(res.json().usages, expected);
      assert.deepEqual((await a.admin.get(`${baseA}/files/${unused!.id}/usages`)).json().usages,
        [use('gallery', 'draft'), use('gallery', 'published')]);
      const [lonely] = await uploadOk(a, { files: text('lonely.txt') });
      assertAnswer(await a.admin.get(`${baseA}/files/${lonely!.id}/usages`), 200, { usages: [] });
      assertAnswer(await a.admin.get(`${baseA}/files/99999/usages`), 404, notFound('file.notFound'));
      assertAnswer(await a.admin.get(`${baseA}/files/abc/usages`), 400, fieldError(['id'], 'id must be a positive integer'));
    });
  });

  describe('DELETE …/media/folders/{id}', () => {
    it('deletes the folder, its sub-folders and every file in them (rows, links and stored objects), as Strapi does', async () => {
      const top = await newFolder(a, { name: 'Old' });
      const sub = await newFolder(a, { name: 'Older', parent: top.id });
      const keep = await newFolder(a, { name: 'Keep' });
      const [inTop] = await uploadOk(a, { files: image('in-top.png'), fileInfo: JSON.stringify({ folder: top.id }) });
      const [inSub] = await uploadOk(a, { files: text('in-sub.txt'), fileInfo: JSON.stringify({ folder: sub.id }) });
      const [kept] = await uploadOk(a, { files: text('kept.txt'), fileInfo: JSON.stringify({ folder: keep.id }) });
      const linked = await a.api.post('/api/articles', { data: { title: 'Uses old', cover: inTop!.id } });
      assert.equal(linked.statusCode, 201, linked.body);
      const objectsOf = async (hash: string) => (await readdir(join(t.env.MEDIA_DIR!, String(a.id)))).filter((n) => n.includes(hash));
      // The original, its thumbnail and its small format (600×400 is below medium and large).
      assert.equal((await objectsOf(inTop!.hash)).length, 3);

      const res = await a.admin.del(`${baseA}/folders/${top.id}`);
      assert.equal(res.statusCode, 204, res.body);
      assert.equal(res.body, '');
      const folderIds = (await folderRows(a)).map((f) => f.id);
      assert.ok(!folderIds.includes(top.id) && !folderIds.includes(sub.id) && folderIds.includes(keep.id));
      const fileIds = (await fileFolders(a)).map((f) => f.id);
      assert.ok(!fileIds.includes(inTop!.id) && !fileIds.includes(inSub!.id) && fileIds.includes(kept!.id));
      assert.deepEqual(await objectsOf(inTop!.hash), []);
      assert.deepEqual(await objectsOf(inSub!.hash), []);
      assert.deepEqual(await query(`SELECT * FROM "${a.schema}".lnk_ct_article__cover WHERE file_id = $1`, [inTop!.id]), []);
      const article = await a.api.get(`/api/articles/${linked.json().data.documentId}?populate=cover`);
      assert.equal(article.json().data.cover, null);
      assertAnswer(await a.admin.del(`${baseA}/folders/${top.id}`), 404, notFound('folder.notFound'));
    });
  });

  describe('roles and tenant isolation', () => {
    it('lets viewers read and refuses every change (403), changing nothing', async () => {
      const v = as(t, viewer);
      assert.equal((await v.get(`${baseA}/folders`)).statusCode, 200);
      assert.equal((await v.get(`${baseA}/files?folder=root`)).statusCode, 200);
      const [file] = await uploadOk(a, { files: text('viewer.txt') });
      assert.equal((await v.get(`${baseA}/files/${file!.id}/usages`)).statusCode, 200);
      const before = await folderRows(a);
      assertAnswer(await v.post(`${baseA}/folders`, { name: 'Nope' }), 403, viewersOnlyRead);
      assertAnswer(await v.patch(`${baseA}/folders/${before[0]!.id}`, { name: 'Nope' }), 403, viewersOnlyRead);
      assertAnswer(await v.del(`${baseA}/folders/${before[0]!.id}`), 403, viewersOnlyRead);
      // Refused before the body is read: a bad body still gets the 403.
      assertAnswer(await v.post(`${baseA}/folders`, { bad: true }), 403, viewersOnlyRead);
      assert.deepEqual(await folderRows(a), before);
    });

    it('answers 404 to a member of project A for project B\'s folders, files and usages', async () => {
      const bFolder = await newFolder(b, { name: 'B only' });
      const [bFile] = await uploadOk(b, { files: text('b.txt') });
      const bBefore = await folderRows(b);
      const project404 = notFound();
      assertAnswer(await a.admin.get(`${baseB}/folders`), 404, project404);
      assertAnswer(await a.admin.post(`${baseB}/folders`, { name: 'Intruder' }), 404, project404);
      assertAnswer(await a.admin.patch(`${baseB}/folders/${bFolder.id}`, { name: 'Hijacked' }), 404, project404);
      assertAnswer(await a.admin.del(`${baseB}/folders/${bFolder.id}`), 404, project404);
      assertAnswer(await a.admin.get(`${baseB}/files`), 404, project404);
      assertAnswer(await a.admin.get(`${baseB}/files/${bFile!.id}/usages`), 404, project404);
      assertAnswer(await as(t, viewer).get(`${baseB}/folders`), 404, project404);
      assert.deepEqual(await folderRows(b), bBefore);
    });

    it('refuses, in project A, a folder id that only project B has', async () => {
      // B's newest folder id is beyond A's: make sure, then use it in A.
      const aMax = Math.max(...(await folderRows(a)).map((f) => f.id));
      let bFolder = await newFolder(b, { name: 'B deep' });
      while (bFolder.id <= aMax) bFolder = await newFolder(b, { name: `B ${bFolder.id + 1}` });
      assertAnswer(await upload(a, { files: text('cross.txt'), fileInfo: JSON.stringify({ folder: bFolder.id }) }), 400,
        fieldError(['fileInfo', 'folder'], `Folder ${bFolder.id} does not exist`));
      assertAnswer(await a.admin.post(`${baseA}/folders`, { name: 'x', parent: bFolder.id }), 400, fieldError(['parent'], `Folder ${bFolder.id} does not exist`));
      assertAnswer(await a.admin.get(`${baseA}/files?folder=${bFolder.id}`), 404, notFound('folder.notFound'));
      assertAnswer(await a.admin.patch(`${baseA}/folders/${bFolder.id}`, { name: 'x' }), 404, notFound('folder.notFound'));
      assertAnswer(await a.admin.del(`${baseA}/folders/${bFolder.id}`), 404, notFound('folder.notFound'));
      assert.equal((await folderRows(b)).some((f) => f.id === bFolder.id), true);
    });
  });

  describe('upgrade of existing projects', () => {
    it('adds the folders table and files.folder_id to a project from before them, keeping its files at the root', async () => {
      const p = await setupContentProject(t, MODEL);
      const [file] = await uploadOk(p, { files: text('old.txt') });
      const run = (sql: string, values: unknown[] = []) => t.platform.db.pool.query(compiledQuery({ text: sql, values }));
      await run(`ALTER TABLE "${p.schema}".files DROP COLUMN folder_id`);
      await run(`DROP TABLE "${p.schema}".upload_folders`);
      await run(`DELETE FROM "${p.schema}".schema_migrations WHERE id = 'base_0003_upload_folders'`);
      await run('UPDATE platform.projects SET base_version = 2 WHERE id = $1', [p.id]);

      assert.equal(await upgradeProjectSchemas(t.platform.db.pool), 1);
      assert.ok(baseMigrations.some((m) => m.id === 'base_0003_upload_folders'));
      assert.deepEqual(await query('SELECT base_version FROM platform.projects WHERE id = $1', [p.id]), [{ base_version: baseMigrations.length }]);
      assert.deepEqual(await fileFolders(p), [{ id: file!.id, folder: null, folderPath: '/' }]);
      const folder = await newFolder(p, { name: 'After upgrade' });
      const moved = await p.api.post(`/api/upload?id=${file!.id}`, { fileInfo: { folder: folder.id } });
      assert.equal(moved.statusCode, 200, moved.body);
      assert.deepEqual((await list(`?folder=${folder.id}`, p)).files.map((f) => f.id), [file!.id]);
      assert.equal(await upgradeProjectSchemas(t.platform.db.pool), 0);
    });
  });
});

describe('dashboard CSP with media on another origin', () => {
  it('derives the media origin from MEDIA_PUBLIC_URL or the S3 bucket, none for local files', () => {
    assert.equal(mediaOrigin({ media: {} }), null);
    assert.equal(mediaOrigin({ media: { publicUrl: 'https://cdn.example.net/media/' } }), 'https://cdn.example.net');
    assert.equal(mediaOrigin({ media: { publicUrl: 'http://127.0.0.1:9000/bucket' }, s3: { bucket: 'b', region: 'eu-west-1' } }), 'http://127.0.0.1:9000');
    assert.equal(mediaOrigin({ media: {}, s3: { bucket: 'b', endpoint: 'http://minio.local:9000', region: 'us-east-1' } }), 'http://minio.local:9000');
    assert.equal(mediaOrigin({ media: {}, s3: { bucket: 'files', region: 'eu-west-1' } }), 'https://files.s3.eu-west-1.amazonaws.com');
  });

  for (const [label, env, origin] of [
    ['local files', {}, null],
    ['MEDIA_PUBLIC_URL', { MEDIA_PUBLIC_URL: 'https://cdn.example.net/media' }, 'https://cdn.example.net'],
  ] as Array<[string, Record<string, string>, string | null]>) {
    it(`allows images and media from the files' origin on the dashboard page (${label})`, async () => {
      const app = await startTestApp({ env });
      try {
        const res = await app.inject({ method: 'GET', url: '/projects/x/media' });
        const csp = String(res.headers['content-security-policy']);
        const directive = (name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `));
        assert.equal(directive('img-src'), `img-src 'self' data: blob:${origin ? ` ${origin}` : ''}`);
        assert.equal(directive('media-src'), `media-src 'self' blob:${origin ? ` ${origin}` : ''}`);
        assert.equal(directive('script-src'), "script-src 'self'");
        assert.equal(directive('connect-src'), "connect-src 'self'");
      } finally {
        await app.close();
      }
    });
  }
});
