// The upload plugin's REST API end to end (reference §8, permissions §7): uploads with formats,
// fileInfo, reads, deletes, replacement, linking to entries, permissions, tenant isolation,
// limits and hostile input — asserting bodies, the files table, link tables and the media
// directory on disk.
import assert from 'node:assert/strict';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { compiledQuery } from '@cms/db';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentClient, type ContentProject } from '../helpers/content.ts';
import { multipart, type MultipartField } from '../helpers/multipart.ts';
import { blogRawModel } from '../fixtures/index.ts';

type Json = Record<string, any>;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DOCUMENT_ID = /^[a-z][a-z0-9]{23}$/;
const FILE_KEYS = [
  'id', 'documentId', 'name', 'alternativeText', 'caption', 'focalPoint', 'width', 'height', 'formats', 'hash', 'ext', 'mime',
  'size', 'url', 'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt', 'publishedAt', 'isUrlSigned',
];
const FORMAT_NAMES = ['thumbnail', 'large', 'medium', 'small'];
const SAFE = /^[A-Za-z0-9_.-]+$/;

const png = (width: number, height: number, background = 'red') =>
  sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();
const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: 'blue' } }).jpeg().toBuffer();
/** Strapi's kB: bytes / 1000 with two decimals. */
const kb = (bytes: number) => Math.round((bytes / 1000) * 100) / 100;

/** The response, or a failure when the server has not answered within `ms` (a hung request). */
async function answered(request: Promise<LightMyRequestResponse>, label: string, ms = 2000): Promise<LightMyRequestResponse> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([request, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function envelope(status: number, name: string, message: string, details: Json = {}) {
  return { data: null, error: { status, name, message, details } };
}

/** A response that is an error envelope with this status and name (and message when given). */
function assertError(res: LightMyRequestResponse, status: number, name: string, message?: string): Json {
  assert.equal(res.statusCode, status, res.body);
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  const body = res.json();
  assert.deepEqual(Object.keys(body), ['data', 'error']);
  assert.equal(body.data, null);
  assert.deepEqual(Object.keys(body.error), ['status', 'name', 'message', 'details']);
  assert.equal(body.error.status, status);
  assert.equal(body.error.name, name);
  if (message !== undefined) assert.equal(body.error.message, message);
  return body.error;
}

/** A multipart body built by hand, for what FormData cannot send (raw file names, bad bodies). */
function rawMultipart(parts: Array<{ name: string; filename?: string; disposition?: string; type?: string; content: string | Buffer }>, boundary = 'TestBoundary7MA4YWxkTrZu0gW') {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.disposition ?? `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`, 'latin1'));
    chunks.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** One project's view of the database and media directory. */
function projectState(t: TestApp, p: ContentProject) {
  const query = async (text: string, values: unknown[] = []) =>
    (await t.platform.db.pool.any(compiledQuery({ text, values }))) as Array<Record<string, any>>;
  const dir = () => join(t.env.MEDIA_DIR!, String(p.id));
  /** Every entry of the project's media directory, temp files included. */
  const disk = async () => (await readdir(dir()).catch(() => [] as string[])).sort();
  const fileRows = async () => query(`SELECT id::int AS id, name, hash, ext, mime, size::float8 AS size, url, width, height, formats FROM "${p.schema}".files ORDER BY id`);
  // A refused upload is answered after the storage write it had started removed its temp file.
  const snapshot = async () => ({ rows: await fileRows(), disk: await disk() });
  const upload = async (fields: Record<string, MultipartField | MultipartField[]>, client: ContentClient = p.api, search = '') =>
    client.raw('POST', `/api/upload${search}`, await multipart(fields));
  const uploadOk = async (fields: Record<string, MultipartField | MultipartField[]>, client: ContentClient = p.api) => {
    const res = await upload(fields, client);
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as Json[];
  };
  const text = (name: string, content = `content of ${name}`) => ({ name, content, type: 'text/plain' });
  return { query, dir, disk, fileRows, snapshot, upload, uploadOk, text };
}

describe('upload REST API', () => {
  let t: TestApp;
  let p: ContentProject;
  let s: ReturnType<typeof projectState>;
  let bigPng: Buffer;

  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, blogRawModel());
    s = projectState(t, p);
    bigPng = await png(1200, 800);
  });
  // An upload a todo test stopped waiting for: let it end before the gateway closes.
  let straggler: Promise<unknown> | undefined;
  after(async () => {
    await straggler?.catch(() => {});
    await t?.close();
  });

  describe('POST /api/upload', () => {
    it('stores a 1200×800 PNG: 201 bare array, Strapi file object, four formats, row and objects on disk', async () => {
      const res = await s.upload({
        files: { name: 'big photo.png', content: bigPng, type: 'image/png' },
        fileInfo: JSON.stringify({ alternativeText: 'alt text', caption: 'cap' }),
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      const body = res.json();
      assert.ok(Array.isArray(body));
      assert.equal(body.length, 1);
      const f = body[0];
      assert.deepEqual(Object.keys(f), FILE_KEYS);
      assert.equal(typeof f.id, 'number');
      assert.match(f.documentId, DOCUMENT_ID);
      assert.match(f.hash, /^big_photo_[0-9a-f]{10}$/);
      for (const key of ['createdAt', 'updatedAt', 'publishedAt']) assert.match(f[key], ISO, key);
      const { hash } = f;
      assert.deepEqual({ ...f, id: 0, documentId: '', createdAt: '', updatedAt: '', publishedAt: '', formats: null }, {
        id: 0, documentId: '', name: 'big photo.png', alternativeText: 'alt text', caption: 'cap', focalPoint: null,
        width: 1200, height: 800, formats: null, hash, ext: '.png', mime: 'image/png', size: kb(bigPng.length),
        url: `/uploads/${hash}.png`, previewUrl: null, provider: 'local', provider_metadata: null,
        createdAt: '', updatedAt: '', publishedAt: '', isUrlSigned: false,
      });

      const dims: Record<string, [number, number]> = { thumbnail: [234, 156], large: [1000, 667], medium: [750, 500], small: [500, 333] };
      assert.deepEqual(Object.keys(f.formats).sort(), [...FORMAT_NAMES].sort());
      for (const [format, [width, height]] of Object.entries(dims)) {
        const fmt = f.formats[format];
        const onDisk = await readFile(join(s.dir(), `${format}_${hash}.png`));
        assert.deepEqual(fmt, {
          name: `${format}_big photo.png`, hash: `${format}_${hash}`, ext: '.png', mime: 'image/png', path: null,
          width, height, size: kb(onDisk.length), sizeInBytes: onDisk.length, url: `/uploads/${format}_${hash}.png`,
        }, format);
        const meta = await sharp(onDisk).metadata();
        assert.deepEqual([meta.format, meta.width, meta.height], ['png', width, height], format);
      }

      // The original is stored byte for byte, next to its formats and nothing else.
      assert.deepEqual(await readFile(join(s.dir(), `${hash}.png`)), bigPng);
      assert.deepEqual(await s.disk(), [`${hash}.png`, ...FORMAT_NAMES.map((n) => `${n}_${hash}.png`)].sort());
      const [row] = await s.query(`SELECT name, alternative_text, caption, hash, ext, mime, size::float8 AS size, url, provider, width, height, formats
        FROM "${p.schema}".files WHERE id = $1`, [f.id]);
      assert.deepEqual(row, {
        name: 'big photo.png', alternative_text: 'alt text', caption: 'cap', hash, ext: '.png', mime: 'image/png',
        size: kb(bigPng.length), url: `/uploads/${hash}.png`, provider: 'local', width: 1200, height: 800, formats: f.formats,
      });
    });

    it('serves the original and its formats under the project with type, nosniff and a sandboxing CSP', async () => {
      const [f] = await s.uploadOk({ files: { name: 'served.png', content: bigPng, type: 'image/png' } });
      const urls = [f!.url, ...Object.values(f!.formats as Record<string, Json>).map((x) => x.url as string)];
      assert.equal(urls.length, 5);
      for (const url of urls) {
        assert.match(url, /^\/uploads\/[A-Za-z0-9_]+\.png$/);
        const res = await p.api.get(url);
        assert.equal(res.statusCode, 200, url);
        assert.equal(res.headers['content-type'], 'image/png');
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.match(String(res.headers['content-security-policy']), /(^|;\s*)sandbox(;|$)/);
        assert.deepEqual(res.rawPayload, await readFile(join(s.dir(), url.slice('/uploads/'.length))));
      }
      assert.deepEqual((await p.api.get(f!.url)).rawPayload, bigPng);
      // Public, like Strapi's public folder: no credentials needed.
      assert.equal((await p.client(null).get(f!.url)).statusCode, 200);
    });

    it('stores several files in order: a small image (no formats) and a text file (no dimensions)', async () => {
      const small = await png(100, 80, 'green');
      const notes = 'plain text notes\n';
      const files = await s.uploadOk({ files: [{ name: 'small.png', content: small, type: 'image/png' }, { name: 'notes.txt', content: notes, type: 'text/plain' }] });
      assert.equal(files.length, 2);
      const [img, txt] = files as [Json, Json];
      assert.ok(img.id < txt.id);
      for (const f of files) assert.deepEqual(Object.keys(f), FILE_KEYS);
      assert.match(img.hash, /^small_[0-9a-f]{10}$/);
      assert.deepEqual([img.name, img.width, img.height, img.formats, img.ext, img.mime, img.size, img.url],
        ['small.png', 100, 80, null, '.png', 'image/png', kb(small.length), `/uploads/${img.hash}.png`]);
      assert.match(txt.hash, /^notes_[0-9a-f]{10}$/);
      assert.deepEqual([txt.name, txt.width, txt.height, txt.formats, txt.ext, txt.mime, txt.size, txt.url, txt.alternativeText, txt.caption],
        ['notes.txt', null, null, null, '.txt', 'text/plain', kb(Buffer.byteLength(notes)), `/uploads/${txt.hash}.txt`, null, null]);
      const disk = await s.disk();
      assert.ok(disk.includes(`${img.hash}.png`) && disk.includes(`${txt.hash}.txt`));
      assert.equal(disk.filter((n) => n.includes(img.hash) || n.includes(txt.hash)).length, 2, 'no formats made');
      const served = await p.api.get(txt.url);
      assert.equal(served.statusCode, 200);
      assert.equal(served.headers['content-type'], 'text/plain; charset=utf-8');
      assert.equal(served.body, notes);
    });
    it('an undecodable image (PNG signature, corrupt body) is answered promptly, without dimensions', async () => {
      const corrupt = Buffer.concat([bigPng.subarray(0, 40), Buffer.alloc(2000, 0x41)]);
      straggler = s.upload({ files: { name: 'corrupt.png', content: corrupt, type: 'image/png' } });
      const res = await answered(straggler as Promise<LightMyRequestResponse>, 'corrupt image', 3000);
      assert.equal(res.statusCode, 201, res.body);
      const [f] = res.json() as Json[];
      assert.deepEqual([f!.mime, f!.width, f!.height, f!.formats], ['image/png', null, null, null]);
    });
  });

  describe('fileInfo', () => {
    it('one JSON object for one file sets name, alternativeText, caption and focalPoint', async () => {
      const [f] = await s.uploadOk({
        files: s.text('orig.txt'),
        fileInfo: JSON.stringify({ name: 'Renamed file.txt', alternativeText: 'alt', caption: 'cap', focalPoint: { x: 10, y: 20.5 } }),
      });
      assert.deepEqual([f!.name, f!.alternativeText, f!.caption, f!.focalPoint], ['Renamed file.txt', 'alt', 'cap', { x: 10, y: 20.5 }]);
      const [row] = await s.query(`SELECT name, alternative_text, caption, focal_point FROM "${p.schema}".files WHERE id = $1`, [f!.id]);
      assert.deepEqual(row, { name: 'Renamed file.txt', alternative_text: 'alt', caption: 'cap', focal_point: { x: 10, y: 20.5 } });
    });

    it('a JSON array gives each of several files its own info, in order', async () => {
      const files = await s.uploadOk({
        files: [s.text('a1.txt'), s.text('a2.txt'), s.text('a3.txt')],
        fileInfo: JSON.stringify([{ name: 'first.txt', alternativeText: 'one' }, { caption: 'two', focalPoint: null }, {}]),
      });
      assert.deepEqual(files.map((f) => [f.name, f.alternativeText, f.caption]), [['first.txt', 'one', null], ['a2.txt', null, 'two'], ['a3.txt', null, null]]);
    });

    it('several fileInfo fields apply one per file, in order', async () => {
      const files = await s.uploadOk({
        files: [s.text('b1.txt'), s.text('b2.txt')],
        fileInfo: [JSON.stringify({ caption: 'for b1' }), JSON.stringify({ caption: 'for b2', name: 'B two.txt' })],
      });
      assert.deepEqual(files.map((f) => [f.name, f.caption]), [['b1.txt', 'for b1'], ['B two.txt', 'for b2']]);
    });

    it('takes a folder key (null: the root; folders are tested in media-folders.test.ts) without adding it to the answer', async () => {
      const [f] = await s.uploadOk({ files: s.text('foldered.txt'), fileInfo: JSON.stringify({ folder: null, caption: 'in no folder' }) });
      assert.equal(f!.caption, 'in no folder');
      assert.equal('folder' in f!, false);
    });

    it('refuses bad fileInfo with 400 and stores nothing', async () => {
      const cases: Array<[MultipartField | MultipartField[], Json]> = [
        [JSON.stringify({ nope: 1 }), envelope(400, 'ValidationError', 'Invalid parameter: nope', { errors: [{ path: ['fileInfo', 'nope'], message: 'Invalid parameter: nope', name: 'ValidationError' }] })],
        ['{"name": ', envelope(400, 'ValidationError', 'fileInfo must be valid JSON', { errors: [{ path: ['fileInfo'], message: 'fileInfo must be valid JSON', name: 'ValidationError' }] })],
        [JSON.stringify([{}, {}]), envelope(400, 'ValidationError', 'fileInfo has 2 entries for 1 file(s)', { errors: [{ path: ['fileInfo'], message: 'fileInfo has 2 entries for 1 file(s)', name: 'ValidationError' }] })],
        [[JSON.stringify({}), JSON.stringify({})], envelope(400, 'ValidationError', 'fileInfo has 2 entries for 1 file(s)', { errors: [{ path: ['fileInfo'], message: 'fileInfo has 2 entries for 1 file(s)', name: 'ValidationError' }] })],
        [JSON.stringify('a string'), envelope(400, 'ValidationError', 'fileInfo must be an object', { errors: [{ path: ['fileInfo'], message: 'fileInfo must be an object', name: 'ValidationError' }] })],
        [JSON.stringify({ name: '' }), envelope(400, 'ValidationError', 'name must not be empty', { errors: [{ path: ['fileInfo', 'name'], message: 'name must not be empty', name: 'ValidationError' }] })],
        [JSON.stringify({ focalPoint: { x: 'a', y: 1 } }), envelope(400, 'ValidationError', 'focalPoint must be null or an object {x, y} of numbers',
          { errors: [{ path: ['fileInfo', 'focalPoint'], message: 'focalPoint must be null or an object {x, y} of numbers', name: 'ValidationError' }] })],
        [JSON.stringify([{ caption: 1 }]), envelope(400, 'ValidationError', 'caption must be a string or null',
          { errors: [{ path: ['fileInfo', '0', 'caption'], message: 'caption must be a string or null', name: 'ValidationError' }] })],
        [JSON.stringify({ name: 'x'.repeat(256) }), envelope(400, 'ValidationError', 'name must be at most 255 characters',
          { errors: [{ path: ['fileInfo', 'name'], message: 'name must be at most 255 characters', name: 'ValidationError' }] })],
      ];
      const before = await s.snapshot();
      for (const [fileInfo, expected] of cases) {
        const res = await s.upload({ files: { name: 'bad info.png', content: bigPng, type: 'image/png' }, fileInfo });
        assertError(res, 400, 'ValidationError');
        assert.deepEqual(res.json(), expected, JSON.stringify(fileInfo));
      }
      assert.deepEqual(await s.snapshot(), before, 'nothing stored');
    });

    it('refuses text Postgres cannot store (NUL) with 400, never 500, and stores nothing', async () => {
      const before = await s.snapshot();
      for (const info of [{ name: 'a\u0000b.txt' }, { alternativeText: 'x\u0000' }, { caption: '\u0000' }]) {
        const res = await s.upload({ files: s.text('nul.txt'), fileInfo: JSON.stringify(info) });
        assertError(res, 400, 'ValidationError');
      }
      assert.deepEqual(await s.snapshot(), before, 'nothing stored');
    });
  });

  describe('empty and malformed requests', () => {
    it('no files → 400 Files are empty, whether multipart, JSON or bodiless', async () => {
      const before = await s.snapshot();
      const expected = envelope(400, 'ValidationError', 'Files are empty');
      const requests: Array<{ payload?: string | Buffer; headers?: Record<string, string> }> = [
        await multipart({ fileInfo: JSON.stringify({ caption: 'no file' }) }),
        rawMultipart([]),
        // A browser's empty file input: a part without a file name or body.
        rawMultipart([{ name: 'files', filename: '', type: 'application/octet-stream', content: '' }]),
        { payload: JSON.stringify({}), headers: { 'content-type': 'application/json' } },
        { payload: JSON.stringify({ files: 'x' }), headers: { 'content-type': 'application/json' } },
        {},
      ];
      for (const req of requests) {
        const res = await p.api.raw('POST', '/api/upload', req);
        assertError(res, 400, 'ValidationError');
        assert.deepEqual(res.json(), expected, String(req.payload).slice(0, 200));
      }
      assert.deepEqual(await s.snapshot(), before);
    });

    it('an empty (0-byte) file → 400 Files are empty, and the request is answered', async () => {
      const before = await s.snapshot();
      const one = await answered(s.upload({ files: { name: 'empty.txt', content: '', type: 'text/plain' } }), 'one empty file');
      assert.deepEqual([one.statusCode, one.json()], [400, envelope(400, 'ValidationError', 'Files are empty')]);
      const two = await answered(s.upload({ files: [{ name: 'empty.txt', content: '', type: 'text/plain' }, s.text('not empty.txt')] }), 'an empty file among others');
      assert.ok(two.statusCode < 500, two.body);
      if (two.statusCode !== 201) assert.deepEqual(await s.snapshot(), before);
    });

    it('an unknown field or a file under another field name → 400, and files already received are deleted', async () => {
      const before = await s.snapshot();
      const unknown = await p.api.raw('POST', '/api/upload', await multipart({ files: { name: 'first.png', content: bigPng, type: 'image/png' }, foo: 'bar' }));
      assert.deepEqual(unknown.json(), envelope(400, 'ValidationError', 'Invalid parameter: foo'));
      const field = await p.api.raw('POST', '/api/upload', await multipart({ files: s.text('ok.txt'), file: s.text('wrong.txt') }));
      assert.deepEqual(field.json(), envelope(400, 'ValidationError', 'Invalid file field: file; files are sent as "files"'));
      assert.equal(field.statusCode, 400);
      // The same refusals when the bad field comes before the file.
      const first = await p.api.raw('POST', '/api/upload', await multipart({ foo: 'bar', files: { name: 'after.png', content: bigPng, type: 'image/png' } }));
      assert.deepEqual(first.json(), envelope(400, 'ValidationError', 'Invalid parameter: foo'));
      const infoFirst = await p.api.raw('POST', '/api/upload', await multipart({ fileInfo: '{bad', files: s.text('after.txt') }));
      assertError(infoFirst, 400, 'ValidationError', 'fileInfo must be valid JSON');
      const textFiles = await p.api.raw('POST', '/api/upload', await multipart({ files: 'not a file' }));
      assert.deepEqual(textFiles.json(), envelope(400, 'ValidationError', 'Invalid parameter: files'));
      const bracket = await p.api.raw('POST', '/api/upload', await multipart({ 'files[]': s.text('php style.txt') }));
      assertError(bracket, 400, 'ValidationError');
      assert.deepEqual(await s.snapshot(), before, 'nothing stored');
    });

    it('malformed multipart bodies → 400, never 500, nothing stored', async () => {
      const before = await s.snapshot();
      const good = await multipart({ files: { name: 'trunc.png', content: bigPng, type: 'image/png' } });
      // Large enough that the server is already reading the file when the body ends.
      const large = await multipart({ files: { name: 'large.txt', content: 'l'.repeat(300_000), type: 'text/plain' } });
      const boundary = good.headers['content-type']!.split('boundary=')[1];
      const cases: Array<[string, { payload: Buffer | string; headers: Record<string, string> }]> = [
        ['boundary in the header differs from the body', { payload: good.payload, headers: { 'content-type': 'multipart/form-data; boundary=not-the-boundary' } }],
        ['no boundary at all', { payload: good.payload, headers: { 'content-type': 'multipart/form-data' } }],
        ['an empty boundary', { payload: good.payload, headers: { 'content-type': 'multipart/form-data; boundary=' } }],
        ['a boundary over 70 characters (RFC 2046)', rawMultipart([{ name: 'files', filename: 'b.txt', type: 'text/plain', content: 'b' }], 'b'.repeat(71))],
        ['a boundary over busboy\'s 256 characters', rawMultipart([{ name: 'files', filename: 'b.txt', type: 'text/plain', content: 'b' }], 'b'.repeat(300))],
        ['a boundary ending in a space', { payload: good.payload, headers: { 'content-type': 'multipart/form-data; boundary="ab "' } }],
        ['garbage', { payload: 'this is not multipart at all', headers: good.headers }],
        ['part without headers', { payload: `--${boundary}\r\n\r\nx\r\n`, headers: good.headers }],
        ['truncated before the first part ends its headers', { payload: good.payload.subarray(0, 60), headers: good.headers }],
        ['a large body truncated in the middle of a file', { payload: large.payload.subarray(0, 150_000), headers: large.headers }],
        ['a large body truncated before the closing boundary', { payload: large.payload.subarray(0, large.payload.length - 10), headers: large.headers }],
      ];
      for (const [label, req] of cases) {
        const res = await answered(p.api.raw('POST', '/api/upload', req), label);
        assert.equal(res.statusCode, 400, `${label}: ${res.statusCode} ${res.body}`);
        assertError(res, 400, 'ValidationError');
      }
      assert.deepEqual(await s.snapshot(), before, 'nothing stored');
    });

    it('multipart parser refusals use the error envelope names (prototype field names, bad JSON-typed fields)', async () => {
      const before = await s.snapshot();
      const proto = await p.api.raw('POST', '/api/upload', rawMultipart([{ name: '__proto__', content: 'x' }, { name: 'files', filename: 'p.txt', type: 'text/plain', content: 'p' }]));
      assertError(proto, 400, 'ValidationError');
      const ctor = await p.api.raw('POST', '/api/upload', rawMultipart([{ name: 'constructor', filename: 'c.txt', type: 'text/plain', content: 'c' }]));
      assertError(ctor, 400, 'ValidationError');
      const badJson = await p.api.raw('POST', '/api/upload', rawMultipart([{ name: 'fileInfo', type: 'application/json', content: '{bad' }, { name: 'files', filename: 'j.txt', type: 'text/plain', content: 'j' }]));
      assertError(badJson, 400, 'ValidationError');
      assert.deepEqual(await s.snapshot(), before);
    });

    it('a fileInfo part sent with Content-Type application/json is read like a text one', async () => {
      const res = await p.api.raw('POST', '/api/upload', rawMultipart([
        { name: 'fileInfo', type: 'application/json', content: JSON.stringify({ caption: 'typed json' }) },
        { name: 'files', filename: 'typed.txt', type: 'text/plain', content: 't' },
      ]));
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json()[0].caption, 'typed json');
    });

    it('a small body truncated inside a file part → 400 (the request is answered)', async () => {
      const before = await s.snapshot();
      const good = await multipart({ files: { name: 'trunc.png', content: bigPng, type: 'image/png' } });
      const text = await multipart({ files: { name: 'trunc.txt', content: 'x'.repeat(5000), type: 'text/plain' } });
      const cases: Array<[string, { payload: Buffer; headers: Record<string, string> }]> = [
        ['PNG truncated in the middle', { payload: good.payload.subarray(0, Math.floor(good.payload.length / 2)), headers: good.headers }],
        ['PNG without the closing boundary', { payload: good.payload.subarray(0, good.payload.length - 10), headers: good.headers }],
        ['text truncated in the middle', { payload: text.payload.subarray(0, Math.floor(text.payload.length / 2)), headers: text.headers }],
      ];
      for (const [label, req] of cases) {
        const res = await answered(p.api.raw('POST', '/api/upload', req), label);
        assertError(res, 400, 'ValidationError');
      }
      assert.deepEqual(await s.snapshot(), before, 'nothing stored');
    });
  });

  describe('reads', () => {
    let listed: Json[] = [];
    before(async () => {
      listed = [];
      for (const name of ['list-b.txt', 'list-a.txt', 'list-c.txt']) listed.push(...(await s.uploadOk({ files: s.text(name) })));
    });

    it('GET /api/upload/files: bare array with filters, sort and pagination', async () => {
      const res = await p.api.get('/api/upload/files?filters[name][$contains]=list-&sort=name:desc');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      const body = res.json();
      assert.ok(Array.isArray(body), res.body);
      assert.deepEqual(body.map((f: Json) => f.name), ['list-c.txt', 'list-b.txt', 'list-a.txt']);
      const byId = new Map(listed.map((f) => [f.id, f]));
      for (const f of body) {
        const { isUrlSigned: _ignored, ...uploaded } = byId.get(f.id)!;
        const { isUrlSigned: _ignored2, ...got } = f;
        assert.deepEqual(got, uploaded);
      }
      const page1 = (await p.api.get('/api/upload/files?filters[name][$contains]=list-&sort=name:desc&pagination[pageSize]=2')).json();
      assert.deepEqual(page1.map((f: Json) => f.name), ['list-c.txt', 'list-b.txt']);
      const page2 = (await p.api.get('/api/upload/files?filters[name][$contains]=list-&sort=name:desc&pagination[page]=2&pagination[pageSize]=2')).json();
      assert.deepEqual(page2.map((f: Json) => f.name), ['list-a.txt']);
      const fields = (await p.api.get('/api/upload/files?filters[name][$eq]=list-a.txt&fields[0]=name')).json();
      assert.deepEqual(fields.map((f: Json) => f.name), ['list-a.txt']);
      const unsorted = (await p.api.get('/api/upload/files?filters[name][$startsWith]=list-')).json();
      assert.deepEqual(unsorted.map((f: Json) => f.id), listed.map((f) => f.id), 'id order by default');
      assertError(await p.api.get('/api/upload/files?filters[nope][$eq]=1'), 400, 'ValidationError', 'Invalid key nope');
    });

    it('GET /api/upload/files/page: {data, meta.pagination}', async () => {
      const res = await p.api.get('/api/upload/files/page?filters[name][$contains]=list-&sort=name:asc&pagination[pageSize]=2');
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.deepEqual(Object.keys(body), ['data', 'meta']);
      assert.deepEqual(body.data.map((f: Json) => f.name), ['list-a.txt', 'list-b.txt']);
      assert.deepEqual(body.meta, { pagination: { page: 1, pageSize: 2, pageCount: 2, total: 3 } });
      const second = (await p.api.get('/api/upload/files/page?filters[name][$contains]=list-&sort=name:asc&pagination[pageSize]=2&pagination[page]=2')).json();
      assert.deepEqual(second.data.map((f: Json) => f.name), ['list-c.txt']);
      assert.deepEqual(second.meta, { pagination: { page: 2, pageSize: 2, pageCount: 2, total: 3 } });
    });

    it('GET /api/upload/files/:id: the file; unknown or non-numeric ids → 404 file.notFound', async () => {
      const f = listed[0]!;
      const res = await p.api.get(`/api/upload/files/${f.id}`);
      assert.equal(res.statusCode, 200);
      const { isUrlSigned: _a, ...got } = res.json();
      const { isUrlSigned: _b, ...uploaded } = f;
      assert.deepEqual(got, uploaded);
      for (const id of ['999999', 'abc', '0', '-1', '1.5', '1e3', '99999999999999999999999']) {
        const missing = await p.api.get(`/api/upload/files/${id}`);
        assert.deepEqual([missing.statusCode, missing.json()], [404, envelope(404, 'NotFoundError', 'file.notFound')], id);
      }
    });

    it('GET /files, /files/:id and DELETE answer isUrlSigned:false like the upload answer (Strapi signs every content-API answer)', async () => {
      const [f] = await s.uploadOk({ files: s.text('signed.txt') });
      assert.deepEqual((await p.api.get(`/api/upload/files/${f!.id}`)).json(), f);
      assert.deepEqual((await p.api.get(`/api/upload/files?filters[id][$eq]=${f!.id}`)).json(), [f]);
      assert.deepEqual((await p.api.get(`/api/upload/files/page?filters[id][$eq]=${f!.id}`)).json().data, [f]);
      assert.deepEqual((await p.api.del(`/api/upload/files/${f!.id}`)).json(), f);
    });
  });

  describe('DELETE /api/upload/files/:id', () => {
    it('answers 200 with the deleted file; its row, links, original and formats are gone; again → 404', async () => {
      const post = (await p.api.post('/api/posts', { data: { title: 'Has attachments' } })).json().data;
      const [f] = await s.uploadOk({ files: { name: 'to delete.png', content: bigPng, type: 'image/png' } });
      const put = await p.api.put(`/api/posts/${post.documentId}`, { data: { attachments: [f!.id], cover: f!.id } });
      assert.equal(put.statusCode, 200, put.body);
      const links = async () => Number((await s.query(
        `SELECT (SELECT count(*) FROM "${p.schema}".lnk_ct_post__attachments WHERE file_id = $1) + (SELECT count(*) FROM "${p.schema}".lnk_ct_post__cover WHERE file_id = $1) AS n`, [f!.id]))[0]!.n);
      assert.ok((await links()) >= 2);
      const objects = [`${f!.hash}.png`, ...FORMAT_NAMES.map((n) => `${n}_${f!.hash}.png`)];
      for (const o of objects) assert.ok((await s.disk()).includes(o), o);
      const before = await p.api.get(`/api/upload/files/${f!.id}`);

      const res = await p.api.del(`/api/upload/files/${f!.id}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.deepEqual(res.json(), before.json());
      assert.equal(res.json().id, f!.id);
      assert.equal((await s.query(`SELECT 1 FROM "${p.schema}".files WHERE id = $1`, [f!.id])).length, 0);
      assert.equal(await links(), 0);
      const disk = await s.disk();
      for (const o of objects) assert.equal(disk.includes(o), false, o);
      assert.equal((await p.api.get(f!.url)).statusCode, 404);
      for (const fmt of Object.values(f!.formats as Record<string, Json>)) assert.equal((await p.api.get(fmt.url)).statusCode, 404);
      const got = (await p.api.get(`/api/posts/${post.documentId}?populate[0]=cover&populate[1]=attachments`)).json().data;
      assert.deepEqual([got.cover, got.attachments], [null, []]);

      assert.deepEqual((await p.api.del(`/api/upload/files/${f!.id}`)).json(), envelope(404, 'NotFoundError', 'file.notFound'));
      assert.equal((await p.api.del(`/api/upload/files/${f!.id}`)).statusCode, 404);
      assert.equal((await p.api.get(`/api/upload/files/${f!.id}`)).statusCode, 404);
      for (const id of ['abc', '0', '999999']) assert.deepEqual((await p.api.del(`/api/upload/files/${id}`)).json(), envelope(404, 'NotFoundError', 'file.notFound'));
    });
  });

  describe('replace and update (?id=)', () => {
    it('one file replaces the content: 200, same id and hash, new size, mime and bytes, formats regenerated', async () => {
      const [orig] = await s.uploadOk({ files: { name: 'replace me.png', content: bigPng, type: 'image/png' }, fileInfo: JSON.stringify({ alternativeText: 'kept' }) });
      const next = await png(600, 400, 'blue');
      const res = await s.upload({ files: { name: 'other.png', content: next, type: 'image/png' } }, p.api, `?id=${orig!.id}`);
      assert.equal(res.statusCode, 200, res.body);
      const f = res.json();
      assert.ok(!Array.isArray(f));
      assert.deepEqual(Object.keys(f), FILE_KEYS);
      assert.deepEqual([f.id, f.documentId, f.hash, f.url, f.ext, f.mime, f.size, f.width, f.height, f.alternativeText, f.createdAt, f.isUrlSigned],
        [orig!.id, orig!.documentId, orig!.hash, orig!.url, '.png', 'image/png', kb(next.length), 600, 400, 'kept', orig!.createdAt, false]);
      assert.equal(f.name, 'other.png');
      assert.deepEqual(Object.keys(f.formats).sort(), ['small', 'thumbnail']);
      assert.deepEqual([f.formats.thumbnail.width, f.formats.thumbnail.height, f.formats.small.width, f.formats.small.height], [234, 156, 500, 333]);
      assert.equal(f.formats.small.name, 'small_other.png');
      assert.deepEqual((await p.api.get(f.url)).rawPayload, next);
      const small = await readFile(join(s.dir(), `small_${f.hash}.png`));
      assert.equal(small.length, f.formats.small.sizeInBytes);
      assert.deepEqual((await sharp(small).metadata()).width, 500);
      // Stale formats of the old content are gone.
      const disk = await s.disk();
      assert.deepEqual(disk.filter((n) => n.includes(f.hash)), [`${f.hash}.png`, `small_${f.hash}.png`, `thumbnail_${f.hash}.png`]);
      assert.equal((await p.api.get(orig!.formats.large.url)).statusCode, 404);
      const [row] = await s.query(`SELECT size::float8 AS size, width, height, name FROM "${p.schema}".files WHERE id = $1`, [f.id]);
      assert.deepEqual(row, { size: kb(next.length), width: 600, height: 400, name: 'other.png' });
      assert.deepEqual((await p.api.get(`/api/upload/files/${f.id}`)).json().formats, f.formats);
    });

    it('replacing with another type keeps the hash, moves the URL to the new extension and drops the old objects', async () => {
      const [orig] = await s.uploadOk({ files: { name: 'becomes text.png', content: bigPng, type: 'image/png' } });
      const post = (await p.api.post('/api/posts', { data: { title: 'Keeps its cover', cover: orig!.id } })).json().data;
      const res = await s.upload({ files: s.text('now.txt', 'now text') }, p.api, `?id=${orig!.id}`);
      assert.equal(res.statusCode, 200, res.body);
      const f = res.json();
      assert.deepEqual([f.id, f.hash, f.ext, f.mime, f.url, f.width, f.height, f.formats], [orig!.id, orig!.hash, '.txt', 'text/plain', `/uploads/${orig!.hash}.txt`, null, null, null]);
      assert.deepEqual((await s.disk()).filter((n) => n.includes(orig!.hash)), [`${orig!.hash}.txt`]);
      assert.equal((await p.api.get(f.url)).body, 'now text');
      assert.equal((await p.api.get(orig!.url)).statusCode, 404);
      const cover = (await p.api.get(`/api/posts/${post.documentId}?populate=cover`)).json().data.cover;
      assert.deepEqual([cover.id, cover.url, cover.mime], [orig!.id, f.url, 'text/plain'], 'links follow the replaced file');
    });

    it('two files → 400 Cannot replace a file with multiple ones; the row is unchanged', async () => {
      const [orig] = await s.uploadOk({ files: { name: 'keep me.png', content: bigPng, type: 'image/png' } });
      const rowBefore = await s.query(`SELECT * FROM "${p.schema}".files WHERE id = $1`, [orig!.id]);
      const res = await s.upload({ files: [s.text('one.txt'), s.text('two.txt')] }, p.api, `?id=${orig!.id}`);
      assert.deepEqual([res.statusCode, res.json()], [400, envelope(400, 'ValidationError', 'Cannot replace a file with multiple ones')]);
      assert.deepEqual(await s.query(`SELECT * FROM "${p.schema}".files WHERE id = $1`, [orig!.id]), rowBefore);
      assert.deepEqual((await p.api.get(`/api/upload/files/${orig!.id}`)).json(), orig);
    });

    it('a refused replacement leaves the stored content untouched', async () => {
      const [orig] = await s.uploadOk({ files: { name: 'untouched.png', content: bigPng, type: 'image/png' } });
      const before = await s.snapshot();
      const other = await png(300, 200, 'yellow');
      const res = await s.upload({ files: [{ name: 'x.png', content: other, type: 'image/png' }, s.text('second.txt')] }, p.api, `?id=${orig!.id}`);
      assert.equal(res.statusCode, 400);
      assert.deepEqual((await p.api.get(orig!.url)).rawPayload, bigPng, 'original bytes still served');
      assert.deepEqual(await readFile(join(s.dir(), `${orig!.hash}.png`)), bigPng);
      assert.deepEqual(await s.snapshot(), before);
    });

    it('a replacement whose second part is refused (bad type) leaves the original and stores nothing', async () => {
      const [orig] = await s.uploadOk({ files: { name: 'untouched2.png', content: bigPng, type: 'image/png' } });
      const before = await s.snapshot();
      const res = await s.upload({ files: [{ name: 'y.png', content: await png(50, 50, 'white'), type: 'image/png' }, { name: 'evil.png', content: 'not a png', type: 'image/png' }] }, p.api, `?id=${orig!.id}`);
      assertError(res, 400, 'ValidationError');
      assert.deepEqual((await p.api.get(orig!.url)).rawPayload, bigPng);
      assert.deepEqual(await s.snapshot(), before);
    });

    it('?id= with a JSON body {fileInfo} or a multipart fileInfo only updates the metadata (200)', async () => {
      const [orig] = await s.uploadOk({ files: s.text('meta.txt'), fileInfo: JSON.stringify({ caption: 'c0' }) });
      const json = await p.api.post(`/api/upload?id=${orig!.id}`, { fileInfo: { alternativeText: 'x', focalPoint: { x: 1, y: 2 } } });
      assert.equal(json.statusCode, 200, json.body);
      const a = json.json();
      assert.deepEqual(Object.keys(a), FILE_KEYS);
      assert.deepEqual([a.id, a.hash, a.url, a.size, a.name, a.alternativeText, a.caption, a.focalPoint, a.isUrlSigned],
        [orig!.id, orig!.hash, orig!.url, orig!.size, 'meta.txt', 'x', 'c0', { x: 1, y: 2 }, false]);
      assert.ok(Date.parse(a.updatedAt) >= Date.parse(orig!.updatedAt));

      const form = await s.upload({ fileInfo: JSON.stringify({ name: 'Meta renamed.txt', caption: null }) }, p.api, `?id=${orig!.id}`);
      assert.equal(form.statusCode, 200, form.body);
      const b = form.json();
      assert.deepEqual([b.id, b.hash, b.name, b.alternativeText, b.caption], [orig!.id, orig!.hash, 'Meta renamed.txt', 'x', null]);
      const [row] = await s.query(`SELECT name, alternative_text, caption, focal_point FROM "${p.schema}".files WHERE id = $1`, [orig!.id]);
      assert.deepEqual(row, { name: 'Meta renamed.txt', alternative_text: 'x', caption: null, focal_point: { x: 1, y: 2 } });
      assert.equal((await p.api.get(orig!.url)).body, 'content of meta.txt', 'content untouched');

      const bad = await p.api.post(`/api/upload?id=${orig!.id}`, { fileInfo: { nope: true } });
      assertError(bad, 400, 'ValidationError', 'Invalid parameter: nope');
    });

    it('an unknown id → 404 file.notFound and nothing stored', async () => {
      const before = await s.snapshot();
      for (const id of ['999999', 'abc', '0']) {
        assert.deepEqual((await p.api.post(`/api/upload?id=${id}`, { fileInfo: { caption: 'x' } })).json(), envelope(404, 'NotFoundError', 'file.notFound'), id);
        const res = await s.upload({ files: s.text('ghost.txt') }, p.api, `?id=${id}`);
        assert.deepEqual([res.statusCode, res.json()], [404, envelope(404, 'NotFoundError', 'file.notFound')], id);
      }
      assert.deepEqual(await s.snapshot(), before);
    });
  });

  describe('linking to entries (ref, refId, field)', () => {
    let post: Json;
    let publishedRowId: number;
    let draftRowId: number;
    before(async () => {
      post = (await p.api.post('/api/posts', { data: { title: 'Linked post' } })).json().data;
      const rows = await s.query(`SELECT id::int AS id, published_at FROM "${p.schema}".ct_post WHERE document_id = $1`, [post.documentId]);
      publishedRowId = rows.find((r) => r.published_at !== null)!.id;
      draftRowId = rows.find((r) => r.published_at === null)!.id;
    });
    const link = (field: string, refId: number | string = publishedRowId, ref = 'api::post.post') => ({ ref, refId: String(refId), field });

    it('a single media field gets the uploaded file (a later upload replaces it); the entry shows it populated', async () => {
      const [first] = await s.uploadOk({ files: { name: 'cover one.png', content: bigPng, type: 'image/png' }, ...link('cover') });
      let got = (await p.api.get(`/api/posts/${post.documentId}?populate=cover`)).json().data;
      assert.equal(got.cover.id, first!.id);
      assert.equal(got.cover.url, first!.url);
      assert.equal('isUrlSigned' in got.cover, false);
      const [second] = await s.uploadOk({ files: s.text('cover two.txt'), ...link('cover') });
      got = (await p.api.get(`/api/posts/${post.documentId}?populate=cover`)).json().data;
      assert.equal(got.cover.id, second!.id);
      const rows = await s.query(`SELECT source_id::int AS source, file_id::int AS file FROM "${p.schema}".lnk_ct_post__cover WHERE source_id = $1`, [publishedRowId]);
      assert.deepEqual(rows, [{ source: publishedRowId, file: second!.id }]);
    });

    it('a multiple media field gets the files appended, in order', async () => {
      const batch = await s.uploadOk({ files: [s.text('att1.txt'), s.text('att2.txt')], ...link('attachments') });
      const [third] = await s.uploadOk({ files: s.text('att3.txt'), ...link('attachments') });
      const got = (await p.api.get(`/api/posts/${post.documentId}?populate=attachments`)).json().data;
      assert.deepEqual(got.attachments.map((f: Json) => f.id), [...batch.map((f) => f.id), third!.id]);
      assert.deepEqual(got.attachments.map((f: Json) => f.name), ['att1.txt', 'att2.txt', 'att3.txt']);
    });

    it('links entries of a type without draft & publish (author.avatar)', async () => {
      const author = (await p.api.post('/api/authors', { data: { name: 'Avatar Owner' } })).json().data;
      const [f] = await s.uploadOk({ files: { name: 'face.png', content: await png(64, 64, 'pink'), type: 'image/png' }, ...link('avatar', author.id, 'api::author.author') });
      const got = (await p.api.get(`/api/authors/${author.documentId}?populate=avatar`)).json().data;
      assert.equal(got.avatar.id, f!.id);
    });

    it('linking by the published row id links the document: its draft sees the file too', async () => {
      const fresh = (await p.api.post('/api/posts', { data: { title: 'Doc link' } })).json().data;
      const rows = await s.query(`SELECT id::int AS id FROM "${p.schema}".ct_post WHERE document_id = $1 AND published_at IS NOT NULL`, [fresh.documentId]);
      const [f] = await s.uploadOk({ files: s.text('doc-link.txt'), ...link('cover', rows[0]!.id) });
      const draft = (await p.api.get(`/api/posts/${fresh.documentId}?status=draft&populate=cover`)).json().data;
      assert.equal(draft.cover?.id, f!.id);
    });

    it('refuses incomplete or invalid link fields with 400 and stores nothing', async () => {
      const before = await s.snapshot();
      const linksBefore = await s.query(`SELECT * FROM "${p.schema}".lnk_ct_post__cover ORDER BY id`);
      const cases: Array<[Record<string, string>, string]> = [
        [{ ref: 'api::post.post', refId: String(publishedRowId) }, 'ref, refId and field must be given together'],
        [{ ref: 'api::post.post', field: 'cover' }, 'ref, refId and field must be given together'],
        [{ refId: String(publishedRowId), field: 'cover' }, 'ref, refId and field must be given together'],
        [link('title'), 'api::post.post.title is not a media field'],
        [link('author'), 'api::post.post.author is not a media field'],
        [link('nope'), 'api::post.post.nope is not a media field'],
        [link('cover', publishedRowId, 'api::nope.nope'), 'api::nope.nope.cover is not a media field'],
        [link('cover', publishedRowId, 'constructor'), 'constructor.cover is not a media field'],
        [link('cover', 'abc'), 'refId must be the numeric id of an entry'],
        [link('cover', post.documentId), 'refId must be the numeric id of an entry'],
        [link('cover', 999999), 'No api::post.post entry has id 999999'],
      ];
      for (const [fields, message] of cases) {
        const res = await s.upload({ files: { name: 'link me.png', content: bigPng, type: 'image/png' }, ...fields });
        assert.deepEqual([res.statusCode, res.json()], [400, envelope(400, 'ValidationError', message)], JSON.stringify(fields));
      }
      assert.deepEqual(await s.snapshot(), before, 'no row, no object');
      assert.deepEqual(await s.query(`SELECT * FROM "${p.schema}".lnk_ct_post__cover ORDER BY id`), linksBefore);
    });

    it('media fields are set by file id with an entry PUT and populated', async () => {
      const [cover] = await s.uploadOk({ files: { name: 'put cover.png', content: await png(40, 30, 'black'), type: 'image/png' } });
      const [a, b] = await s.uploadOk({ files: [s.text('put a.txt'), s.text('put b.txt')] });
      const put = await p.api.put(`/api/posts/${post.documentId}`, { data: { cover: cover!.id, attachments: [b!.id, a!.id] } });
      assert.equal(put.statusCode, 200, put.body);
      const got = (await p.api.get(`/api/posts/${post.documentId}?populate[0]=cover&populate[1]=attachments`)).json().data;
      const { isUrlSigned: _x, ...populated } = cover!;
      assert.deepEqual(got.cover, populated);
      assert.deepEqual(got.attachments.map((f: Json) => f.id), [b!.id, a!.id]);
      const draft = (await p.api.get(`/api/posts/${post.documentId}?status=draft&populate=cover`)).json().data;
      assert.equal(draft.cover.id, cover!.id, 'a PUT sets the draft too');
      assert.ok(draftRowId > 0);
    });
  });

  describe('permissions', () => {
    const routes = (id: number) => [
      ['GET', '/api/upload/files'], ['GET', '/api/upload/files/page'], ['GET', `/api/upload/files/${id}`], ['DELETE', `/api/upload/files/${id}`],
    ] as const;
    let file: Json;
    before(async () => {
      [file] = (await s.uploadOk({ files: s.text('guarded.txt') })) as [Json];
    });
    const forbidden = envelope(403, 'ForbiddenError', 'Forbidden');

    it('the public role without upload permissions → 403 everywhere, nothing stored', async () => {
      const anon = p.client(null);
      const before = await s.snapshot();
      for (const [method, url] of routes(file.id)) assert.deepEqual((await anon.raw(method, url)).json(), forbidden, `${method} ${url}`);
      const res = await s.upload({ files: s.text('anon.txt') }, anon);
      assert.deepEqual([res.statusCode, res.json()], [403, forbidden]);
      assert.equal((await s.upload({ fileInfo: '{}' }, anon, `?id=${file.id}`)).statusCode, 403);
      assert.equal((await anon.post(`/api/upload?id=${file.id}`, { fileInfo: { caption: 'anon' } })).statusCode, 403);
      assert.deepEqual(await s.snapshot(), before);
    });

    it('public find/findOne: reads allowed, upload and delete still 403', async () => {
      await p.setPublic({ 'plugin::upload': ['find', 'findOne'] });
      try {
        const anon = p.client(null);
        const before = await s.snapshot();
        assert.equal((await anon.get('/api/upload/files')).statusCode, 200);
        assert.equal((await anon.get('/api/upload/files/page')).statusCode, 200);
        assert.equal((await anon.get(`/api/upload/files/${file.id}`)).json().hash, file.hash);
        assert.deepEqual((await anon.del(`/api/upload/files/${file.id}`)).json(), forbidden);
        assert.deepEqual((await s.upload({ files: s.text('anon.txt') }, anon)).json(), forbidden);
        assert.deepEqual(await s.snapshot(), before);
      } finally {
        await p.setPublic({});
      }
      assert.equal((await p.client(null).get('/api/upload/files')).statusCode, 403);
    });

    it('read-only token: find and findOne, not upload or destroy', async () => {
      const ro = p.client(await p.token('read-only'));
      const before = await s.snapshot();
      assert.equal((await ro.get('/api/upload/files')).statusCode, 200);
      assert.equal((await ro.get('/api/upload/files/page')).statusCode, 200);
      assert.equal((await ro.get(`/api/upload/files/${file.id}`)).statusCode, 200);
      assert.deepEqual((await ro.del(`/api/upload/files/${file.id}`)).json(), forbidden);
      assert.deepEqual((await s.upload({ files: s.text('ro.txt') }, ro)).json(), forbidden);
      assert.deepEqual((await ro.post(`/api/upload?id=${file.id}`, { fileInfo: { caption: 'ro' } })).json(), forbidden);
      assert.deepEqual(await s.snapshot(), before);
    });

    it('custom token with upload only: uploads, cannot list, read or delete, cannot link (no update on the type)', async () => {
      const up = p.client(await p.token('custom', { 'plugin::upload': ['upload'] }));
      const [f] = await s.uploadOk({ files: s.text('custom.txt') }, up);
      assert.equal(f!.name, 'custom.txt');
      for (const [method, url] of routes(file.id)) assert.deepEqual((await up.raw(method, url)).json(), forbidden, `${method} ${url}`);
      const post = (await p.api.post('/api/posts', { data: { title: 'Not yours' } })).json().data;
      const before = await s.snapshot();
      const res = await s.upload({ files: s.text('linked.txt'), ref: 'api::post.post', refId: String(post.id), field: 'cover' }, up);
      assert.deepEqual([res.statusCode, res.json()], [403, forbidden]);
      assert.deepEqual(await s.snapshot(), before, 'nothing stored');
      assert.equal((await p.api.get(`/api/posts/${post.documentId}?populate=cover`)).json().data.cover, null);

      // With update on the type, the same upload links.
      const linker = p.client(await p.token('custom', { 'plugin::upload': ['upload'], 'api::post.post': ['update'] }));
      const [g] = await s.uploadOk({ files: s.text('linked.txt'), ref: 'api::post.post', refId: String(post.id), field: 'cover' }, linker);
      assert.equal((await p.api.get(`/api/posts/${post.documentId}?populate=cover`)).json().data.cover.id, g!.id);
    });

    it('custom token with destroy only can delete', async () => {
      const [victim] = await s.uploadOk({ files: s.text('victim.txt') });
      const del = p.client(await p.token('custom', { 'plugin::upload': ['destroy'] }));
      assert.equal((await del.get(`/api/upload/files/${victim!.id}`)).statusCode, 403);
      assert.equal((await del.del(`/api/upload/files/${victim!.id}`)).statusCode, 200);
    });

    it('an invalid bearer token → 401 on every upload route, nothing stored', async () => {
      const bad = p.client('f'.repeat(256));
      const before = await s.snapshot();
      const unauthorized = envelope(401, 'UnauthorizedError', 'Missing or invalid credentials');
      for (const [method, url] of routes(file.id)) assert.deepEqual((await bad.raw(method, url)).json(), unauthorized, `${method} ${url}`);
      const res = await s.upload({ files: s.text('bad token.txt') }, bad);
      assert.deepEqual([res.statusCode, res.json()], [401, unauthorized]);
      assert.deepEqual(await s.snapshot(), before);
      assert.equal((await p.api.get(`/api/upload/files/${file.id}`)).statusCode, 200, 'the file is still there');
    });
  });

  describe('tenant isolation', () => {
    it('project B cannot reach project A\'s files; deleting B removes only B\'s media', async () => {
      // A holds files with low ids, including id 1.
      const [mine] = await s.uploadOk({ files: { name: 'tenant a.png', content: bigPng, type: 'image/png' } });
      const aIds = (await s.fileRows()).map((r) => r.id as number);
      assert.ok(aIds.includes(1));
      const aFirst = (await p.api.get('/api/upload/files/1')).json();

      const q = await setupContentProject(t, blogRawModel());
      const sb = projectState(t, q);
      assert.notEqual(q.id, p.id);
      assert.deepEqual((await q.api.get('/api/upload/files')).json(), []);
      for (const id of [1, mine!.id]) {
        assert.deepEqual((await q.api.get(`/api/upload/files/${id}`)).json(), envelope(404, 'NotFoundError', 'file.notFound'));
        assert.deepEqual((await q.api.del(`/api/upload/files/${id}`)).json(), envelope(404, 'NotFoundError', 'file.notFound'));
        const replaced = await sb.upload({ files: s.text('hijack.txt') }, q.api, `?id=${id}`);
        assert.equal(replaced.statusCode, 404);
      }
      assert.equal((await p.api.get(`/api/upload/files/${mine!.id}`)).statusCode, 200);
      assert.deepEqual((await p.api.get(mine!.url)).rawPayload, bigPng);

      // B's own file 1 is B's, never A's.
      const [bFile] = await sb.uploadOk({ files: sb.text('tenant b.txt', 'b content') });
      const bOne = (await q.api.get(`/api/upload/files/${bFile!.id}`)).json();
      assert.equal(bOne.hash, bFile!.hash);
      assert.ok(!aIds.includes(bFile!.id) || bOne.hash !== (await p.api.get(`/api/upload/files/${bFile!.id}`)).json().hash);
      assert.notEqual(bOne.hash, aFirst.hash);
      assert.deepEqual((await q.api.get('/api/upload/files')).json().map((f: Json) => f.hash), [bFile!.hash]);

      // B's token is unknown to A, and A's objects are not served under B.
      const before = await s.snapshot();
      const unauthorized = envelope(401, 'UnauthorizedError', 'Missing or invalid credentials');
      assert.deepEqual((await q.client(null).get('/api/upload/files')).statusCode, 403);
      const bToken = await q.token('full-access');
      const asB = p.client(bToken);
      assert.deepEqual((await asB.get('/api/upload/files')).json(), unauthorized);
      assert.deepEqual((await asB.get(`/api/upload/files/${mine!.id}`)).json(), unauthorized);
      assert.deepEqual((await asB.del(`/api/upload/files/${mine!.id}`)).json(), unauthorized);
      assert.deepEqual((await s.upload({ files: s.text('from b.txt') }, asB)).json(), unauthorized);
      assert.deepEqual(await s.snapshot(), before);
      const file = mine!.url.slice('/uploads/'.length);
      assert.equal((await t.inject({ method: 'GET', url: `/p/${q.slug}/uploads/${file}` })).statusCode, 404);
      assert.equal((await t.inject({ method: 'GET', url: `/p/${q.slug}/uploads/${mine!.formats.thumbnail.url.slice('/uploads/'.length)}` })).statusCode, 404);
      assert.equal((await t.inject({ method: 'GET', url: `/p/${p.slug}/uploads/${bFile!.url.slice('/uploads/'.length)}` })).statusCode, 404);
      assert.equal((await t.inject({ method: 'GET', url: `/p/${q.slug}/uploads/${bFile!.url.slice('/uploads/'.length)}` })).body, 'b content');

      // Deleting B drops its media directory and nothing of A's.
      assert.deepEqual(await sb.disk(), [bFile!.url.slice('/uploads/'.length)]);
      const aDisk = await s.disk();
      assert.equal((await q.admin.del(`/v1/projects/${q.slug}`)).statusCode, 204);
      await t.platform.maintenance.round(new Date(Date.now() + 8 * 86_400_000), ['purge']);
      await assert.rejects(stat(sb.dir()), { code: 'ENOENT' });
      assert.deepEqual(await s.disk(), aDisk);
      assert.deepEqual((await p.api.get(mine!.url)).rawPayload, bigPng);
      assert.equal((await t.inject({ method: 'GET', url: `/p/${q.slug}/uploads/${bFile!.url.slice('/uploads/'.length)}` })).statusCode, 404);
    });
  });

  describe('hostile input', () => {
    it('checks the content against the declared type', async () => {
      const before = await s.snapshot();
      const textAsPng = await s.upload({ files: { name: 'evil.png', content: 'just some text, not an image', type: 'image/png' } });
      assert.deepEqual([textAsPng.statusCode, textAsPng.json()], [400, envelope(400, 'ValidationError', 'File evil.png is declared as image/png but its content is not',
        { filename: 'evil.png', declared: 'image/png', detected: null })]);
      const pngAsJpeg = await s.upload({ files: { name: 'photo.jpg', content: bigPng, type: 'image/jpeg' } });
      assert.deepEqual([pngAsJpeg.statusCode, pngAsJpeg.json()], [400, envelope(400, 'ValidationError', 'File photo.jpg is declared as image/jpeg but its content is image/png',
        { filename: 'photo.jpg', declared: 'image/jpeg', detected: 'image/png' })]);
      const jpegAsPng = await s.upload({ files: { name: 'x.png', content: await jpeg(20, 20), type: 'image/png' } });
      assertError(jpegAsPng, 400, 'ValidationError');
      // A mismatch in the second file discards the first one too.
      const mixed = await s.upload({ files: [s.text('fine.txt'), { name: 'evil2.png', content: 'text', type: 'image/png' }] });
      assertError(mixed, 400, 'ValidationError');
      assert.deepEqual(await s.snapshot(), before, 'nothing stored');
    });

    it('a generic declared type is replaced by the detected one', async () => {
      const small = await png(20, 10);
      const [named, bare] = await s.uploadOk({ files: [
        { name: 'declared generic.png', content: small, type: 'application/octet-stream' },
        { name: 'noextension', content: small, type: 'application/octet-stream' },
      ] });
      assert.deepEqual([named!.mime, named!.ext, named!.width, named!.height], ['image/png', '.png', 20, 10]);
      assert.deepEqual([bare!.mime, bare!.ext, bare!.name, bare!.url], ['image/png', '.png', 'noextension', `/uploads/${bare!.hash}.png`]);
      assert.match(bare!.hash, /^noextension_[0-9a-f]{10}$/);
      const [aliased] = await s.uploadOk({ files: { name: 'aliased.jpg', content: await jpeg(10, 10), type: 'image/jpg' } });
      assert.equal(aliased!.mime, 'image/jpeg');
    });

    it('active content is served inert: HTML and SVG under nosniff and a sandboxing CSP', async () => {
      const html = '<html><script>alert(document.cookie)</script></html>';
      const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
      const [h, v] = await s.uploadOk({ files: [{ name: 'page.html', content: html, type: 'text/html' }, { name: 'pic.svg', content: svg, type: 'image/svg+xml' }] });
      for (const f of [h!, v!]) {
        const res = await p.client(null).get(f.url);
        assert.equal(res.statusCode, 200);
        assert.notEqual(res.headers['content-type'], 'text/html');
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        const csp = String(res.headers['content-security-policy']);
        assert.match(csp, /(^|;\s*)sandbox(;|$)/);
        assert.match(csp, /default-src 'none'/);
      }
      assert.equal((await p.api.get(h!.url)).headers['content-type'], 'application/octet-stream');
    });

    it('hostile file names: never 500, names sanitised, hash and URL key-safe, objects only under the project', async () => {
      const cases: Array<[string, ReturnType<typeof rawMultipart>]> = [
        ['../../etc/passwd', rawMultipart([{ name: 'files', filename: '../../etc/passwd', type: 'text/plain', content: 'root:x:0:0' }])],
        ['..\\..\\windows\\win.ini', rawMultipart([{ name: 'files', filename: '..\\..\\windows\\win.ini', type: 'text/plain', content: 'ini' }])],
        ['/etc/shadow', rawMultipart([{ name: 'files', filename: '/etc/shadow', type: 'text/plain', content: 'shadow' }])],
        ['control characters', rawMultipart([{ name: 'files', filename: 'a\u0001b\u001fc\u007fd.txt', type: 'text/plain', content: 'ctl' }])],
        ['NUL (RFC 5987)', rawMultipart([{ name: 'files', disposition: "form-data; name=\"files\"; filename*=UTF-8''nul%00byte%0D%0Aname.txt", type: 'text/plain', content: 'nul' }])],
        ['raw NUL', rawMultipart([{ name: 'files', filename: 'raw\u0000nul.txt', type: 'text/plain', content: 'nul' }])],
        ['300 characters', rawMultipart([{ name: 'files', filename: `${'a'.repeat(296)}.txt`, type: 'text/plain', content: 'long' }])],
        ['300 characters png', rawMultipart([{ name: 'files', filename: `${'b'.repeat(296)}.png`, type: 'image/png', content: bigPng }])],
        ['dots only', rawMultipart([{ name: 'files', filename: '....', type: 'text/plain', content: 'dots' }])],
        ['dotfile', rawMultipart([{ name: 'files', filename: '.htaccess', type: 'text/plain', content: 'deny' }])],
        ['odd extension', rawMultipart([{ name: 'files', filename: 'x.p h$p', type: 'text/plain', content: 'ext' }])],
        ['unicode', rawMultipart([{ name: 'files', disposition: "form-data; name=\"files\"; filename*=UTF-8''%C3%A9t%C3%A9%20%F0%9F%98%80%20r%C3%A9sum%C3%A9.txt", type: 'text/plain', content: 'u' }])],
        ['percent and quotes', rawMultipart([{ name: 'files', filename: '%2e%2e%2f%27quote%22.txt', type: 'text/plain', content: 'q' }])],
        ['upper-case extension', rawMultipart([{ name: 'files', filename: 'PHOTO.PNG', type: 'image/png', content: bigPng }])],
        ['empty name after cleaning', rawMultipart([{ name: 'files', filename: '\u0001\u0002', type: 'text/plain', content: 'e' }])],
      ];
      for (const [label, body] of cases) {
        const res = await p.api.raw('POST', '/api/upload', body);
        assert.ok(res.statusCode === 201 || res.statusCode === 400, `${label}: ${res.statusCode} ${res.body}`);
        if (res.statusCode === 400) {
          assertError(res, 400, 'ValidationError');
          continue;
        }
        const [f] = res.json() as Json[];
        assert.doesNotMatch(f!.name, /[\u0000-\u001f\u007f/\\]/, label);
        assert.ok(f!.name.length > 0 && f!.name.length <= 255, `${label}: ${f!.name.length}`);
        assert.match(f!.hash, SAFE, label);
        assert.match(f!.hash, /_[0-9a-f]{10}$/, label);
        assert.ok(f!.hash.length <= 111, label);
        assert.match(f!.ext, /^(\.[a-z0-9]{1,15})?$/, label);
        assert.equal(f!.url, `/uploads/${f!.hash}${f!.ext}`, label);
        assert.match(f!.url.slice('/uploads/'.length), SAFE, label);
        assert.ok((await s.disk()).includes(`${f!.hash}${f!.ext}`), label);
        assert.equal((await p.api.get(f!.url)).statusCode, 200, label);
      }
      // Nothing escaped the project's directory.
      assert.deepEqual((await readdir(t.env.MEDIA_DIR!)).filter((n) => !/^\d+$/.test(n)), []);
      const names = (await s.fileRows()).map((r) => r.name as string);
      assert.ok(names.includes('passwd'), 'the directory part is dropped');
      assert.ok(names.includes('win.ini'));
      assert.ok(names.includes('abcd.txt'), 'control characters are dropped');
      assert.ok(!names.some((n) => n.includes('..') && n.includes('/')));
    });

    it('a name longer than 255 characters keeps its extension', async () => {
      const [f] = await s.uploadOk({ files: s.text(`${'c'.repeat(296)}.txt`) });
      assert.equal(f!.ext, '.txt');
      assert.ok(f!.name.endsWith('.txt'));
      assert.ok(f!.name.length <= 255);
    });

    it('20 files are accepted; 21 → 413 and nothing stored', async () => {
      const twenty = await s.uploadOk({ files: Array.from({ length: 20 }, (_, i) => s.text(`many-${i}.txt`)) });
      assert.equal(twenty.length, 20);
      const before = await s.snapshot();
      const res = await s.upload({ files: Array.from({ length: 21 }, (_, i) => s.text(`too-many-${i}.txt`)) });
      assert.deepEqual([res.statusCode, res.json()], [413, envelope(413, 'PayloadTooLargeError', 'At most 20 files can be uploaded at once')]);
      assert.deepEqual(await s.snapshot(), before);
    });

    it('too many multipart fields → 413, never 500', async () => {
      const before = await s.snapshot();
      const res = await s.upload({ files: s.text('fields.txt'), path: Array.from({ length: 60 }, () => 'x') });
      assertError(res, 413, 'PayloadTooLargeError');
      assert.deepEqual(await s.snapshot(), before);
    });

    it('traversal and odd names under /uploads → 404', async () => {
      const [own] = await s.uploadOk({ files: s.text('own.txt') });
      const ownFile = own!.url.slice('/uploads/'.length);
      const paths = [
        '/uploads/..%2f..%2fetc%2fpasswd', '/uploads/%2e%2e%2f%2e%2e%2fetc%2fpasswd', '/uploads/..%5c..%5cetc%5cpasswd',
        '/uploads/%2fetc%2fpasswd', '/uploads/..', '/uploads/.', '/uploads/%2e%2e', '/uploads/.%2e', '/uploads/%00.txt',
        `/uploads/..%2f${p.id}%2f${ownFile}`, `/uploads/.%2f${ownFile}`, `/uploads/${ownFile}%00`, `/uploads/${ownFile}%2f`,
        `/uploads/${p.id}%2f${ownFile}`, '/uploads/../../../etc/passwd', '/uploads/', '/uploads/nope.txt', `/uploads/${'a'.repeat(300)}`,
      ];
      for (const path of paths) {
        const res = await p.api.get(path);
        // `/../../..` is resolved before routing: it leaves the project and reaches the dashboard's page.
        if (path.includes('/../')) assert.match(String(res.headers['content-type']), /^text\/html/, path);
        else assert.equal(res.statusCode, 404, `${path}: ${res.statusCode} ${res.body.slice(0, 100)}`);
        assert.notEqual(res.body, 'content of own.txt', path);
      }
      assert.equal((await p.api.get(own!.url)).body, 'content of own.txt');
    });
  });
});

describe('upload size limit (MEDIA_MAX_UPLOAD_BYTES=200000)', () => {
  let t: TestApp;
  let p: ContentProject;
  let s: ReturnType<typeof projectState>;
  before(async () => {
    t = await startTestApp({ env: { MEDIA_MAX_UPLOAD_BYTES: '200000' } });
    p = await setupContentProject(t, blogRawModel());
    s = projectState(t, p);
  });
  after(async () => t?.close());

  const tooBig = envelope(413, 'PayloadTooLargeError', 'FileTooBig', { maxFileSize: 200000 });

  it('a 300 kB file → 413 FileTooBig, nothing stored', async () => {
    const res = await s.upload({ files: { name: 'big.txt', content: 'x'.repeat(300_000), type: 'text/plain' } });
    assert.deepEqual([res.statusCode, res.json()], [413, tooBig]);
    assert.deepEqual(await s.snapshot(), { rows: [], disk: [] });
  });

  it('a file over the limit after an accepted one → 413 and neither is stored', async () => {
    const res = await s.upload({ files: [s.text('small first.txt'), { name: 'big second.bin', content: Buffer.alloc(300_000, 7), type: 'application/octet-stream' }] });
    assert.deepEqual([res.statusCode, res.json()], [413, tooBig]);
    assert.deepEqual(await s.snapshot(), { rows: [], disk: [] });
  });

  it('exactly the limit is accepted, one byte more is not', async () => {
    const [ok] = await s.uploadOk({ files: { name: 'exact.txt', content: 'y'.repeat(200_000), type: 'text/plain' } });
    assert.equal(ok!.size, 200);
    const before = await s.snapshot();
    const res = await s.upload({ files: { name: 'over.txt', content: 'y'.repeat(200_001), type: 'text/plain' } });
    assert.deepEqual([res.statusCode, res.json()], [413, tooBig]);
    assert.deepEqual(await s.snapshot(), before);
  });

  it('replacing with a file over the limit → 413 and the original stays', async () => {
    const original = 'original content';
    const [f] = await s.uploadOk({ files: s.text('keep.txt', original) });
    const before = await s.snapshot();
    const res = await s.upload({ files: { name: 'huge.txt', content: 'z'.repeat(300_000), type: 'text/plain' } }, p.api, `?id=${f!.id}`);
    assert.deepEqual([res.statusCode, res.json()], [413, tooBig]);
    assert.equal((await p.api.get(f!.url)).body, original);
    assert.deepEqual(await s.snapshot(), before);
  });
});

describe('embedded jobs (no Redis)', () => {
  let t: TestApp;
  let p: ContentProject;
  let s: ReturnType<typeof projectState>;
  before(async () => {
    t = await startTestApp({ env: { REDIS_URL: '' } });
    p = await setupContentProject(t, blogRawModel());
    s = projectState(t, p);
  });
  after(async () => t?.close());

  it('makes the formats in-process before answering', async () => {
    assert.equal(t.platform.config.redisUrl, undefined);
    const [f] = await s.uploadOk({ files: { name: 'embedded.png', content: await png(1200, 800, 'purple'), type: 'image/png' } });
    assert.deepEqual([f!.width, f!.height], [1200, 800]);
    assert.deepEqual(Object.keys(f!.formats).sort(), [...FORMAT_NAMES].sort());
    assert.deepEqual([f!.formats.large.width, f!.formats.large.height], [1000, 667]);
    assert.deepEqual(await s.disk(), [`${f!.hash}.png`, ...FORMAT_NAMES.map((n) => `${n}_${f!.hash}.png`)].sort());
    const [row] = await s.fileRows();
    assert.deepEqual(row!.formats, f!.formats);
    assert.equal((await p.api.del(`/api/upload/files/${f!.id}`)).statusCode, 200);
    assert.deepEqual(await s.disk(), []);
  });
});

describe('storage quota (MEDIA_STORAGE_QUOTA_BYTES)', () => {
  const QUOTA = 100_000;
  let t: TestApp;
  let p: ContentProject;
  let s: ReturnType<typeof projectState>;
  before(async () => {
    t = await startTestApp({ env: { MEDIA_STORAGE_QUOTA_BYTES: String(QUOTA) } });
    p = await setupContentProject(t, blogRawModel());
    s = projectState(t, p);
  });
  after(async () => t?.close());

  const file = (name: string, bytes: number) => ({ name, content: 'q'.repeat(bytes), type: 'text/plain' });

  it('an upload that would pass the quota is refused whole with 413; nothing is stored', async () => {
    await s.uploadOk({ files: file('first.txt', 40_000) });
    const before = await s.snapshot();
    const res = await s.upload({ files: [file('second.txt', 40_000), file('third.txt', 40_000)] });
    const error = assertError(res, 413, 'PayloadTooLargeError',
      "This upload would take the project's files over its storage quota of 100000 bytes (40000 bytes are used)");
    assert.deepEqual(error.details, { storageQuotaBytes: QUOTA, usedBytes: 40_000 });
    assert.deepEqual(await s.snapshot(), before, 'no row, no object');
    // what still fits is accepted
    await s.uploadOk({ files: file('fits.txt', 50_000) });
  });

  it('a project at its quota is refused before anything is read; a replace counts the size it frees', async () => {
    const before = await s.snapshot();
    const full = await s.upload({ files: file('one-byte-too-many.txt', 10_001) });
    assertError(full, 413, 'PayloadTooLargeError');
    assert.deepEqual(await s.snapshot(), before);
    // 90 kB are used: replacing the 50 kB file by 61 kB would pass the quota; by 45 kB it does not
    const fits = (await s.fileRows()).find((r) => r.name === 'fits.txt')!;
    assertError(await s.upload({ files: file('bigger.txt', 61_000) }, p.api, `?id=${fits.id}`), 413, 'PayloadTooLargeError');
    assert.deepEqual(await s.snapshot(), before, 'a refused replace changes nothing');
    const smaller = await s.upload({ files: file('smaller.txt', 45_000) }, p.api, `?id=${fits.id}`);
    assert.equal(smaller.statusCode, 200, smaller.body);
  });

  it('concurrent uploads never pass the quota together', async () => {
    for (const row of await s.fileRows()) assert.equal((await p.api.del(`/api/upload/files/${row.id}`)).statusCode, 200);
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => s.upload({ files: file(`race-${i}.txt`, 30_000) })));
    const statuses = results.map((r) => r.statusCode).sort();
    assert.deepEqual(statuses, [201, 201, 201, 413, 413, 413], results.map((r) => r.body).join('\n'));
    const rows = await s.fileRows();
    assert.equal(rows.length, 3);
    assert.deepEqual((await s.disk()).length, 3, 'refused uploads left no object behind');
    const usage = await p.admin.get(`/v1/projects/${p.slug}/usage`);
    assert.equal(usage.json().storageBytes, 90_000);
  });
});
