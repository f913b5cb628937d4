// The pure pieces of an upload: names and hashes, mime sniffing, fileInfo parsing, and the
// in-process job queue's retries.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { silentLogger } from '@cms/telemetry';
import { baseNameOf, displayName, extensionOf, fileHash, kilobytes } from '../src/file-names.ts';
import { parseFileInfo, parseFileInfos } from '../src/file-info.ts';
import { InProcessJobQueue, type ImageJob } from '../src/jobs.ts';
import { MimeMismatchError, sniffMime } from '../src/mime.ts';

const drain = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

describe('file names', () => {
  it('keeps the display name, drops directories and control characters', () => {
    assert.equal(displayName('big photo.png'), 'big photo.png');
    assert.equal(displayName('../../etc/passwd'), 'passwd');
    assert.equal(displayName('C:\\Users\\me\\a b.jpg'), 'a b.jpg');
    assert.equal(displayName('a\u0000b\u001f.txt'), 'ab.txt');
    assert.equal(displayName(''), 'file');
    assert.equal(displayName('x'.repeat(400)).length, 255);
  });

  it('extensions are lower-case and key-safe', () => {
    assert.equal(extensionOf('photo.PNG'), '.png');
    assert.equal(extensionOf('archive.tar.gz'), '.gz');
    assert.equal(extensionOf('noext'), '');
    assert.equal(extensionOf('.hidden'), '');
    assert.equal(extensionOf('bad.p%g'), '');
    assert.equal(baseNameOf('photo.PNG', '.png'), 'photo');
  });

  it('hashes are the slugged base name plus 10 hex digits', () => {
    assert.match(fileHash('big photo'), /^big_photo_[0-9a-f]{10}$/);
    assert.match(fileHash('Crème brûlée!'), /^Creme_brulee_[0-9a-f]{10}$/);
    assert.match(fileHash('日本語'), /^file_[0-9a-f]{10}$/);
    assert.match(fileHash('../..'), /^file_[0-9a-f]{10}$/);
    assert.notEqual(fileHash('a'), fileHash('a'));
  });

  it('sizes are kB with two decimals, as Strapi rounds them', () => {
    assert.equal(kilobytes(409675), 409.68);
    assert.equal(kilobytes(89900), 89.9);
    assert.equal(kilobytes(0), 0);
  });
});

describe('mime sniffing', () => {
  it('takes the detected type over a generic one and refuses a contradicting one', async () => {
    const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: 'red' } }).png().toBuffer();
    const generic = await sniffMime(Readable.from([png]), 'application/octet-stream', 'a');
    assert.equal(generic.mime, 'image/png');
    assert.equal(generic.detectedExt, '.png');
    assert.deepEqual(await drain(generic.stream), png);
    assert.equal((await sniffMime(Readable.from([png]), 'IMAGE/PNG; q=1', 'a')).mime, 'image/png');
    await assert.rejects(sniffMime(Readable.from([png]), 'image/jpeg', 'a.jpg'), MimeMismatchError);
    await assert.rejects(sniffMime(Readable.from([png]), 'text/plain', 'a.txt'), MimeMismatchError);
  });

  it('refuses a binary type without its signature and keeps declared text types', async () => {
    await assert.rejects(sniffMime(Readable.from([Buffer.from('hello')]), 'image/png', 'a.png'), /declared as image\/png but its content is not/);
    assert.equal((await sniffMime(Readable.from([Buffer.from('a,b\n')]), 'text/csv', 'a.csv')).mime, 'text/csv');
    assert.equal((await sniffMime(Readable.from([Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')]), 'image/svg+xml', 'a.svg')).mime, 'image/svg+xml');
    assert.equal((await sniffMime(Readable.from([Buffer.from('x')]), 'not a mime', 'a')).mime, 'application/octet-stream');
    assert.equal((await sniffMime(Readable.from([Buffer.alloc(0)]), '', 'a')).mime, 'application/octet-stream');
  });
});

describe('fileInfo', () => {
  it('accepts the documented keys, folder included', () => {
    assert.deepEqual(parseFileInfo({ name: 'n', alternativeText: null, caption: 'c', focalPoint: { x: 1, y: 2 }, folder: 3 }),
      { name: 'n', alternativeText: null, caption: 'c', focalPoint: { x: 1, y: 2 }, folder: '3' });
    assert.deepEqual(parseFileInfo({ folder: null }), { folder: null });
    assert.deepEqual(parseFileInfo(undefined), {});
  });

  it('refuses unknown keys, wrong types and empty names with the key path', () => {
    const errorOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return (err as { details: { errors: Array<{ path: string[]; message: string }> } }).details.errors[0];
      }
      throw new Error('no error');
    };
    assert.deepEqual(errorOf(() => parseFileInfo({ foo: 1 })), { path: ['fileInfo', 'foo'], message: 'Invalid parameter: foo', name: 'ValidationError' });
    assert.equal(errorOf(() => parseFileInfo({ caption: 5 })).message, 'caption must be a string or null');
    assert.equal(errorOf(() => parseFileInfo({ name: ' ' })).message, 'name must not be empty');
    assert.equal(errorOf(() => parseFileInfo({ focalPoint: { x: 1 } })).message, 'focalPoint must be null or an object {x, y} of numbers');
    assert.equal(errorOf(() => parseFileInfo('x')).message, 'fileInfo must be an object');
    assert.deepEqual(errorOf(() => parseFileInfos([[{}, { bad: 1 }]], 2)).path, ['fileInfo', '1', 'bad']);
    assert.equal(errorOf(() => parseFileInfos([{}, {}], 1)).message, 'fileInfo has 2 entries for 1 file(s)');
  });

  it('one object, an array, or one field per file', () => {
    assert.deepEqual(parseFileInfos([{ caption: 'a' }], 2), [{ caption: 'a' }]);
    assert.deepEqual(parseFileInfos([[{ caption: 'a' }, { caption: 'b' }]], 2), [{ caption: 'a' }, { caption: 'b' }]);
    assert.deepEqual(parseFileInfos([{ caption: 'a' }, { caption: 'b' }], 2), [{ caption: 'a' }, { caption: 'b' }]);
  });
});

describe('in-process job queue', () => {
  const job: ImageJob = { projectId: 1, schema: 't_1', fileId: '1', name: 'a.png', hash: 'a_0123456789', ext: '.png', mime: 'image/png', size: 1 };

  it('retries a failing job with backoff until it succeeds', async () => {
    let calls = 0;
    const queue = new InProcessJobQueue(async () => {
      if (++calls < 3) throw new Error('transient');
    }, silentLogger());
    const handle = await queue.add(job);
    assert.equal(await handle.finished(50), false);
    assert.equal(await handle.finished(10_000), true);
    assert.equal(calls, 3);
    await queue.close();
  });

  it('runs at most `concurrency` jobs at once', async () => {
    let running = 0;
    let peak = 0;
    const queue = new InProcessJobQueue(async () => {
      peak = Math.max(peak, ++running);
      await new Promise((r) => setTimeout(r, 20));
      running--;
    }, silentLogger(), 2);
    const handles = await Promise.all([1, 2, 3, 4, 5].map(() => queue.add(job)));
    assert.deepEqual(await Promise.all(handles.map((h) => h.finished(5_000))), [true, true, true, true, true]);
    assert.equal(peak, 2);
    await queue.close();
  });
});
