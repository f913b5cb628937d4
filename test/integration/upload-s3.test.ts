// The upload API on S3 storage (s3rver on a free port): provider `aws-s3`, absolute URLs under the
// endpoint and bucket (or MEDIA_PUBLIC_URL), every object under the project's `{id}/` prefix,
// deletes and project deletion removing the objects, nothing written to the local media dir.
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import sharp from 'sharp';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { multipart, type MultipartField } from '../helpers/multipart.ts';
import { blogRawModel } from '../fixtures/index.ts';
import { letS3rverPage } from '../helpers/s3rver-paging.ts';

type Json = Record<string, any>;

const BUCKET = 'media';
// Project ids restart at 1 in every test database: each gateway gets its own bucket.
const CDN_BUCKET = 'media-cdn';
const FORMAT_NAMES = ['thumbnail', 'large', 'medium', 'small'];
const kb = (bytes: number) => Math.round((bytes / 1000) * 100) / 100;
const png = (width: number, height: number, background = 'red') =>
  sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();


describe('upload on S3 storage', () => {
  let s3Dir = '';
  let s3rver: S3rver | undefined;
  let endpoint = '';
  let s3: S3Client;
  let bigPng: Buffer;

  const s3Env = (bucket = BUCKET) => ({
    S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER',
  });
  const keys = async (prefix: string, bucket = BUCKET) => {
    const out = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
    return (out.Contents ?? []).map((o) => o.Key!).sort();
  };
  const head = async (key: string, bucket = BUCKET) => {
    try {
      const out = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return { contentType: out.ContentType, length: out.ContentLength };
    } catch (err) {
      if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
      throw err;
    }
  };
  const body = async (key: string, bucket = BUCKET) =>
    Buffer.from(await (await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body!.transformToByteArray());
  const upload = async (p: ContentProject, fields: Record<string, MultipartField | MultipartField[]>, search = '') =>
    p.api.raw('POST', `/api/upload${search}`, await multipart(fields));

  before(async () => {
    letS3rverPage();
    s3Dir = await mkdtemp(join(tmpdir(), 'upload-s3rver-'));
    s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: BUCKET }, { name: CDN_BUCKET }] });
    const { port } = await s3rver.run();
    endpoint = `http://127.0.0.1:${port}`;
    s3 = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    bigPng = await png(1200, 800);
  });
  after(async () => {
    s3?.destroy();
    await s3rver?.close();
    await rm(s3Dir, { recursive: true, force: true });
  });

  describe('bucket URLs', () => {
    let t: TestApp;
    let p: ContentProject;
    before(async () => {
      t = await startTestApp({ env: s3Env() });
      p = await setupContentProject(t, blogRawModel());
    });
    after(async () => t?.close());

    it('stores a 1200×800 PNG and its formats under {projectId}/ with absolute URLs; DELETE removes them', async () => {
      const res = await upload(p, { files: { name: 'big photo.png', content: bigPng, type: 'image/png' } });
      assert.equal(res.statusCode, 201, res.body);
      const [f] = res.json() as Json[];
      assert.match(f!.hash, /^big_photo_[0-9a-f]{10}$/);
      const base = `${endpoint}/${BUCKET}/${p.id}/`;
      assert.deepEqual([f!.provider, f!.url, f!.size, f!.width, f!.height, f!.mime, f!.ext, f!.isUrlSigned, f!.provider_metadata],
        ['aws-s3', `${base}${f!.hash}.png`, kb(bigPng.length), 1200, 800, 'image/png', '.png', false, null]);
      assert.ok(f!.url.includes(`/${p.id}/`));
      assert.deepEqual(Object.keys(f!.formats).sort(), [...FORMAT_NAMES].sort());
      const dims: Record<string, [number, number]> = { thumbnail: [234, 156], large: [1000, 667], medium: [750, 500], small: [500, 333] };
      for (const [name, [width, height]] of Object.entries(dims)) {
        const fmt = f!.formats[name];
        assert.deepEqual([fmt.url, fmt.width, fmt.height, fmt.hash, fmt.name], [`${base}${name}_${f!.hash}.png`, width, height, `${name}_${f!.hash}`, `${name}_big photo.png`], name);
        assert.deepEqual(await head(`${p.id}/${name}_${f!.hash}.png`), { contentType: 'image/png', length: fmt.sizeInBytes }, name);
      }
      const objects = [`${p.id}/${f!.hash}.png`, ...FORMAT_NAMES.map((n) => `${p.id}/${n}_${f!.hash}.png`)].sort();
      assert.deepEqual(await keys(`${p.id}/`), objects);
      assert.deepEqual(await head(`${p.id}/${f!.hash}.png`), { contentType: 'image/png', length: bigPng.length });
      assert.deepEqual(await body(`${p.id}/${f!.hash}.png`), bigPng);
      // Nothing on local disk.
      await assert.rejects(stat(t.env.MEDIA_DIR!), { code: 'ENOENT' });
      // The gateway's /uploads fallback reads the same object.
      const served = await p.api.get(`/uploads/${f!.hash}.png`);
      assert.equal(served.statusCode, 200);
      assert.deepEqual(served.rawPayload, bigPng);
      assert.match(String(served.headers['content-security-policy']), /sandbox/);

      const del = await p.api.del(`/api/upload/files/${f!.id}`);
      assert.equal(del.statusCode, 200, del.body);
      assert.equal(del.json().url, f!.url);
      for (const key of objects) assert.equal(await head(key), null, key);
      assert.deepEqual(await keys(`${p.id}/`), []);
    });

    it('replace keeps the key; refused uploads leave no object in the bucket', async () => {
      const [f] = (await upload(p, { files: { name: 'swap.png', content: bigPng, type: 'image/png' } })).json() as Json[];
      const next = await png(300, 200, 'blue');
      const res = await upload(p, { files: { name: 'swapped.png', content: next, type: 'image/png' } }, `?id=${f!.id}`);
      assert.equal(res.statusCode, 200, res.body);
      const r = res.json();
      assert.deepEqual([r.id, r.hash, r.url, r.width, r.height, Object.keys(r.formats)], [f!.id, f!.hash, f!.url, 300, 200, ['thumbnail']]);
      assert.deepEqual(await body(`${p.id}/${f!.hash}.png`), next);
      assert.deepEqual(await keys(`${p.id}/`), [`${p.id}/${f!.hash}.png`, `${p.id}/thumbnail_${f!.hash}.png`]);

      const before = await keys(`${p.id}/`);
      const mismatch = await upload(p, { files: [{ name: 'ok.txt', content: 'fine', type: 'text/plain' }, { name: 'evil.png', content: 'not a png', type: 'image/png' }] });
      assert.equal(mismatch.statusCode, 400);
      const badRef = await upload(p, { files: { name: 'orphan.png', content: bigPng, type: 'image/png' }, ref: 'api::post.post', refId: '999999', field: 'cover' });
      assert.equal(badRef.statusCode, 400);
      assert.deepEqual(await keys(`${p.id}/`), before);
    });

    it('deleting the project deletes its objects and only its objects', async () => {
      const q = await setupContentProject(t, blogRawModel());
      const [mine] = (await upload(p, { files: { name: 'stays.txt', content: 'stays', type: 'text/plain' } })).json() as Json[];
      const [theirs] = (await upload(q, { files: { name: 'goes.txt', content: 'goes', type: 'text/plain' } })).json() as Json[];
      assert.equal(theirs!.url, `${endpoint}/${BUCKET}/${q.id}/${theirs!.hash}.txt`);
      assert.deepEqual(await keys(`${q.id}/`), [`${q.id}/${theirs!.hash}.txt`]);
      const aKeys = await keys(`${p.id}/`);
      assert.ok(aKeys.includes(`${p.id}/${mine!.hash}.txt`));
      assert.equal((await q.admin.del(`/v1/projects/${q.slug}`)).statusCode, 204);
      await t.platform.maintenance.round(new Date(Date.now() + 8 * 86_400_000), ['purge']);
      assert.deepEqual(await keys(`${q.id}/`), []);
      assert.deepEqual(await keys(`${p.id}/`), aKeys);
    });
  });

  describe('MEDIA_PUBLIC_URL', () => {
    let t: TestApp;
    let p: ContentProject;
    const cdn = 'https://cdn.example.test/assets';
    before(async () => {
      t = await startTestApp({ env: { ...s3Env(CDN_BUCKET), MEDIA_PUBLIC_URL: `${cdn}/` } });
      p = await setupContentProject(t, blogRawModel());
    });
    after(async () => t?.close());

    it('URLs of the file and its formats start with the public URL; objects are in the bucket', async () => {
      const res = await upload(p, { files: { name: 'cdn photo.png', content: bigPng, type: 'image/png' } });
      assert.equal(res.statusCode, 201, res.body);
      const [f] = res.json() as Json[];
      assert.equal(f!.provider, 'aws-s3');
      assert.equal(f!.url, `${cdn}/${p.id}/${f!.hash}.png`);
      assert.deepEqual(Object.keys(f!.formats).sort(), [...FORMAT_NAMES].sort());
      for (const name of FORMAT_NAMES) {
        assert.equal(f!.formats[name].url, `${cdn}/${p.id}/${name}_${f!.hash}.png`, name);
        assert.notEqual(await head(`${p.id}/${name}_${f!.hash}.png`, CDN_BUCKET), null, name);
      }
      assert.deepEqual(await body(`${p.id}/${f!.hash}.png`, CDN_BUCKET), bigPng);
      assert.equal((await p.api.get(`/api/upload/files/${f!.id}`)).json().url, f!.url);
      assert.equal((await p.api.del(`/api/upload/files/${f!.id}`)).statusCode, 200);
      assert.deepEqual(await keys(`${p.id}/`, CDN_BUCKET), []);
    });
  });
});
