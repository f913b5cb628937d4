// One contract suite, run against both drivers: LocalDiskStorage in a temp dir and S3Storage
// against a real s3rver on a free port.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { createMediaStorage, LocalDiskStorage, PART_SIZE, S3Storage, type MediaStorage } from '../src/index.ts';
import { letS3rverPage } from '../../../test/helpers/s3rver-paging.ts';

const MiB = 1024 * 1024;

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** A stream of `total` random bytes in 64 KiB chunks (hash in `sha256()` once read), optionally failing after `failAfter` bytes. */
function generated(total: number, failAfter?: number) {
  const hash = createHash('sha256');
  let sent = 0;
  const stream = new Readable({
    read() {
      if (failAfter !== undefined && sent >= failAfter) return this.destroy(new Error('client went away'));
      if (sent >= total) return this.push(null);
      const chunk = randomBytes(Math.min(64 * 1024, total - sent));
      sent += chunk.length;
      hash.update(chunk);
      this.push(chunk);
    },
  });
  return { stream, sha256: () => hash.digest('hex') };
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

interface Driver {
  storage: MediaStorage;
  /** The URL the driver gives `1/a.png` in this setup. */
  expectedUrl: string;
  /** Extra check after a failed write (e.g. no temp files left on disk). */
  noLeftovers(): Promise<void>;
}

function contract(name: string, setup: () => Promise<Driver>, teardown: () => Promise<void>, driverSpecific?: () => void) {
  describe(`${name}: MediaStorage contract`, () => {
    let d: Driver;
    let s: MediaStorage;
    before(async () => {
      d = await setup();
      s = d.storage;
    });
    after(teardown);

    it('round-trips a Buffer and reports its size', async () => {
      const body = Buffer.from('hello media');
      assert.deepEqual(await s.put('rt/buffer.txt', body, { contentType: 'text/plain' }), { size: body.length });
      assert.deepEqual(await readAll((await s.get('rt/buffer.txt'))!), body);
      // Overwrite replaces.
      await s.put('rt/buffer.txt', Buffer.from('v2'), { contentType: 'text/plain', contentLength: 2 });
      assert.equal((await readAll((await s.get('rt/buffer.txt'))!)).toString(), 'v2');
    });

    it('round-trips a stream of known and of unknown length', async () => {
      const known = generated(300 * 1024);
      assert.deepEqual(await s.put('rt/known.bin', known.stream, { contentType: 'application/octet-stream', contentLength: 300 * 1024 }), { size: 300 * 1024 });
      assert.equal(sha256(await readAll((await s.get('rt/known.bin'))!)), known.sha256());

      const unknown = generated(123_457);
      assert.deepEqual(await s.put('rt/unknown.bin', unknown.stream, { contentType: 'application/octet-stream' }), { size: 123_457 });
      assert.equal(sha256(await readAll((await s.get('rt/unknown.bin'))!)), unknown.sha256());

      assert.deepEqual(await s.put('rt/empty.bin', Readable.from([]), { contentType: 'application/octet-stream' }), { size: 0 });
      assert.equal((await readAll((await s.get('rt/empty.bin'))!)).length, 0);
    });

    it('streams a body of unknown length larger than 5 MiB (multipart on S3)', async () => {
      const total = 2 * PART_SIZE + 12_345;
      const big = generated(total);
      assert.deepEqual(await s.put('rt/big.bin', big.stream, { contentType: 'video/mp4' }), { size: total });
      const back = await readAll((await s.get('rt/big.bin'))!);
      assert.equal(back.length, total);
      assert.equal(sha256(back), big.sha256());

      // Exactly one part's worth: the boundary where a single full part becomes a multipart upload.
      const exact = generated(PART_SIZE);
      assert.deepEqual(await s.put('rt/exact.bin', exact.stream, { contentType: 'video/mp4' }), { size: PART_SIZE });
      assert.equal(sha256(await readAll((await s.get('rt/exact.bin'))!)), exact.sha256());
    });

    it('answers exists, get of a missing key and delete (missing keys included)', async () => {
      await s.put('3/here.txt', Buffer.from('x'), { contentType: 'text/plain' });
      assert.equal(await s.exists('3/here.txt'), true);
      assert.equal(await s.exists('3/missing.txt'), false);
      assert.equal(await s.get('3/missing.txt'), null);
      await s.delete('3/here.txt');
      assert.equal(await s.exists('3/here.txt'), false);
      assert.equal(await s.get('3/here.txt'), null);
      await s.delete('3/here.txt');
      await s.delete('3/never/was.txt');
    });

    it('deletePrefix removes only that prefix and counts what it deleted', async () => {
      for (const key of ['1/p/a.txt', '1/p/b.txt', '1/p/deep/c.txt', '12/p/a.txt', '2/p/a.txt']) {
        await s.put(key, Buffer.from(key), { contentType: 'text/plain' });
      }
      assert.equal(await s.deletePrefix('1/'), 3);
      for (const key of ['1/p/a.txt', '1/p/b.txt', '1/p/deep/c.txt']) assert.equal(await s.exists(key), false, key);
      assert.equal(await s.exists('12/p/a.txt'), true);
      assert.equal(await s.exists('2/p/a.txt'), true);
      assert.equal(await s.deletePrefix('1/'), 0);
      assert.equal(await s.deletePrefix('nothing/here/'), 0);
      // Without the trailing slash `1` would also match `12/`: refused.
      await assert.rejects(s.deletePrefix('1'), { name: 'ValidationError' });
      for (const bad of ['', '/', '../', '/1/', '1//', 'a b/']) await assert.rejects(s.deletePrefix(bad), { name: 'ValidationError' }, JSON.stringify(bad));
      assert.equal(await s.exists('12/p/a.txt'), true);
      assert.equal(await s.deletePrefix('12/'), 1);
      assert.equal(await s.deletePrefix('2/'), 1);
    });

    it('deletePrefix pages through more than 1000 objects', async () => {
      const n = 1003;
      for (let i = 0; i < n; i += 50) {
        await Promise.all(Array.from({ length: Math.min(50, n - i) }, (_, j) => s.put(`many/${i + j}.txt`, Buffer.from('.'), { contentType: 'text/plain' })));
      }
      assert.equal(await s.deletePrefix('many/'), n);
      assert.equal(await s.exists('many/0.txt'), false);
    });

    it('refuses invalid keys with a ValidationError', async () => {
      const bad = ['../x', '/x', 'a\0b', 'a b', '', 'a/../b', '..', 'a/', 'a//b', './a', 'a/./b', 'é.png', 'a?b', 'a\\b', 'x'.repeat(513)];
      for (const key of bad) {
        const label = JSON.stringify(key.slice(0, 20));
        await assert.rejects(s.put(key, Buffer.from('x'), { contentType: 'text/plain' }), { name: 'ValidationError', status: 400 }, label);
        await assert.rejects(s.get(key), { name: 'ValidationError' }, label);
        await assert.rejects(s.exists(key), { name: 'ValidationError' }, label);
        await assert.rejects(s.delete(key), { name: 'ValidationError' }, label);
        assert.throws(() => s.url(key), { name: 'ValidationError' }, label);
      }
      const tooLongSegment = `long/${'a'.repeat(201)}.png`;
      await assert.rejects(s.put(tooLongSegment, Buffer.from('x'), { contentType: 'text/plain' }), { name: 'ValidationError' });
      // The longest valid key is fine.
      const longest = `long/${'a'.repeat(200)}/${'b'.repeat(200)}/${'c'.repeat(105)}`;
      assert.equal(longest.length, 512);
      await s.put(longest, Buffer.from('x'), { contentType: 'text/plain' });
      assert.equal(await s.exists(longest), true);
      await s.delete(longest);
    });

    it('gives object URLs', () => {
      assert.equal(s.url('1/a.png'), d.expectedUrl);
    });

    it('leaves no object behind when the body stream fails', async () => {
      const cases: Array<[string, number, number, number | undefined]> = [
        ['small, unknown length', 200 * 1024, 100 * 1024, undefined],
        ['large, unknown length (fails after a part went up)', 3 * PART_SIZE, PART_SIZE + MiB, undefined],
        ['small, known length', 2 * MiB, MiB, 2 * MiB],
        ['large, known length (fails after a part went up)', 3 * PART_SIZE, PART_SIZE + MiB, 3 * PART_SIZE],
      ];
      for (const [label, total, failAfter, contentLength] of cases) {
        const key = `4/failed-${total}.bin`;
        const body = generated(total, failAfter);
        await assert.rejects(s.put(key, body.stream, { contentType: 'application/octet-stream', contentLength }), /client went away/, label);
        assert.equal(await s.exists(key), false, label);
        assert.equal(await s.get(key), null, label);
      }
      // A failed overwrite keeps the old object.
      await s.put('4/keep.txt', Buffer.from('old'), { contentType: 'text/plain' });
      await assert.rejects(s.put('4/keep.txt', generated(MiB, 512 * 1024).stream, { contentType: 'text/plain' }), /client went away/);
      assert.equal((await readAll((await s.get('4/keep.txt'))!)).toString(), 'old');
      await d.noLeftovers();
    });

    it('refuses a body whose length differs from contentLength, storing nothing', async () => {
      await assert.rejects(s.put('5/short.bin', generated(1000).stream, { contentType: 'text/plain', contentLength: 2000 }), { name: 'ValidationError' });
      await assert.rejects(s.put('5/long.bin', generated(3000).stream, { contentType: 'text/plain', contentLength: 2000 }), { name: 'ValidationError' });
      await assert.rejects(s.put('5/buf.bin', Buffer.alloc(10), { contentType: 'text/plain', contentLength: 9 }), { name: 'ValidationError' });
      for (const key of ['5/short.bin', '5/long.bin', '5/buf.bin']) assert.equal(await s.exists(key), false, key);
      await d.noLeftovers();
    });

    driverSpecific?.();
  });
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath ?? e.path, e.name));
}

// --- Local disk ------------------------------------------------------------------------------

let diskRoot = '';
contract(
  'LocalDiskStorage',
  async () => {
    diskRoot = await mkdtemp(join(tmpdir(), 'media-disk-'));
    // A root that does not exist yet: created on first write.
    const root = join(diskRoot, 'uploads');
    return {
      storage: new LocalDiskStorage(root, 'http://localhost:1337/uploads/'),
      expectedUrl: 'http://localhost:1337/uploads/1/a.png',
      async noLeftovers() {
        const temps = (await filesUnder(root)).filter((f) => f.includes('~'));
        assert.deepEqual(temps, [], 'temp files left behind');
      },
    };
  },
  () => rm(diskRoot, { recursive: true, force: true }),
);

// --- S3 (s3rver) -----------------------------------------------------------------------------


let s3Dir = '';
let s3rver: S3rver | undefined;
let s3: S3Storage | undefined;
const sent: string[] = [];
contract(
  'S3Storage',
  async () => {
    letS3rverPage();
    s3Dir = await mkdtemp(join(tmpdir(), 'media-s3rver-'));
    s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: 'media' }] });
    const { port } = await s3rver.run();
    const endpoint = `http://127.0.0.1:${port}`;
    s3 = new S3Storage({ bucket: 'media', endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
    // Record the name of every command sent, to see which upload path a put took.
    (await s3.client()).middlewareStack.add((next, context) => (args) => {
      sent.push(String(context.commandName).replace(/Command$/, ''));
      return next(args);
    }, { step: 'initialize' });
    return {
      storage: s3,
      expectedUrl: `${endpoint}/media/1/a.png`,
      async noLeftovers() {},
    };
  },
  async () => {
    s3?.destroy();
    await s3rver?.close();
    await rm(s3Dir, { recursive: true, force: true });
  },
  () => {
    const putting = async (key: string, body: NodeJS.ReadableStream | Buffer, contentLength?: number) => {
      sent.length = 0;
      await s3!.put(key, body, { contentType: 'image/png', contentLength }).catch(() => {});
      return sent.filter((n) => n !== 'HeadObject');
    };
    const contentType = async (key: string) => (await (await s3!.client()).send(new HeadObjectCommand({ Bucket: 'media', Key: key }))).ContentType;

    it('S3: small bodies go up in one PutObject, larger ones as a multipart upload, with their content type', async () => {
      assert.deepEqual(await putting('6/buf.png', Buffer.alloc(10)), ['PutObject']);
      assert.deepEqual(await putting('6/small.png', generated(MiB).stream), ['PutObject']);
      assert.deepEqual(await putting('6/small-known.png', generated(MiB).stream, MiB), ['PutObject']);
      assert.deepEqual(await putting('6/big.png', generated(2 * PART_SIZE + 1).stream), [
        'CreateMultipartUpload', 'UploadPart', 'UploadPart', 'UploadPart', 'CompleteMultipartUpload',
      ]);
      assert.deepEqual(await putting('6/big-known.png', generated(2 * PART_SIZE).stream, 2 * PART_SIZE), [
        'CreateMultipartUpload', 'UploadPart', 'UploadPart', 'CompleteMultipartUpload',
      ]);
      for (const key of ['6/buf.png', '6/small.png', '6/big.png', '6/big-known.png']) assert.equal(await contentType(key), 'image/png', key);
    });

    it('S3: a failed body aborts the multipart upload and never sends a truncated request', async () => {
      assert.deepEqual(await putting('6/fail.png', generated(3 * PART_SIZE, PART_SIZE + MiB).stream), [
        'CreateMultipartUpload', 'UploadPart', 'AbortMultipartUpload',
      ]);
      assert.deepEqual(await putting('6/fail-small.png', generated(2 * MiB, MiB).stream, 2 * MiB), []);
    });
  },
);

// --- URL forms and driver choice (no I/O) ----------------------------------------------------

describe('url forms', () => {
  const base = { bucket: 'media', region: 'eu-west-3' };
  it('uses the public base URL when configured, else the driver form', () => {
    assert.equal(new S3Storage({ ...base, publicBaseUrl: 'https://cdn.example.com/' }).url('7/h.png'), 'https://cdn.example.com/7/h.png');
    assert.equal(new S3Storage(base).url('7/h.png'), 'https://media.s3.eu-west-3.amazonaws.com/7/h.png');
    assert.equal(new S3Storage({ ...base, forcePathStyle: true }).url('7/h.png'), 'https://s3.eu-west-3.amazonaws.com/media/7/h.png');
    assert.equal(new S3Storage({ ...base, endpoint: 'http://minio:9000', forcePathStyle: true }).url('7/h.png'), 'http://minio:9000/media/7/h.png');
    assert.equal(new S3Storage({ ...base, endpoint: 'https://r2.example.com' }).url('7/h.png'), 'https://media.r2.example.com/7/h.png');
    assert.equal(new LocalDiskStorage('/tmp/x', '/uploads').url('7/h.png'), '/uploads/7/h.png');
  });
});

describe('createMediaStorage', () => {
  it('picks S3 when a bucket is configured, else local disk', () => {
    const local = createMediaStorage({ localDir: '/tmp/media' });
    assert.ok(local instanceof LocalDiskStorage);
    assert.equal(local.url('1/a.png'), '/uploads/1/a.png');
    assert.ok(createMediaStorage({ localDir: '/tmp/media', s3: { bucket: '' } }) instanceof LocalDiskStorage);
    assert.equal(createMediaStorage({ localDir: '/tmp/media', publicUrl: 'https://cdn.test' }).url('1/a.png'), 'https://cdn.test/1/a.png');

    const remote = createMediaStorage({ localDir: '/tmp/media', s3: { bucket: 'b', endpoint: 'http://minio:9000' } });
    assert.ok(remote instanceof S3Storage);
    assert.equal(remote.url('1/a.png'), 'http://minio:9000/b/1/a.png'); // path style by default on a custom endpoint
    assert.equal(createMediaStorage({ localDir: '/x', s3: { bucket: 'b' } }).url('1/a.png'), 'https://b.s3.us-east-1.amazonaws.com/1/a.png');
    assert.equal(createMediaStorage({ localDir: '/x', publicUrl: 'https://cdn.test/m', s3: { bucket: 'b' } }).url('1/a.png'), 'https://cdn.test/m/1/a.png');
  });
});
