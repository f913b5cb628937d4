// The archive writer: Strapi's layout (JSONL files cut at a size, a line never split, an empty
// stage still has its first file), entries of known size streamed with backpressure, and a
// reader that fails stopping the writes instead of leaving them waiting.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { describe, it } from 'node:test';
import { extract } from 'tar-stream';
import { ArchiveWriter } from '../src/archive.ts';

async function entries(gzipped: Buffer): Promise<Array<{ name: string; body: Buffer }>> {
  const out: Array<{ name: string; body: Buffer }> = [];
  const tar = extract();
  Readable.from([gzipped]).pipe(createGunzip()).pipe(tar);
  for await (const entry of tar) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    out.push({ name: entry.header.name, body: Buffer.concat(chunks) });
  }
  return out;
}

async function collect(archive: ArchiveWriter): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of archive.output) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('ArchiveWriter', () => {
  it('cuts JSONL files at the size given without splitting a line; an empty stage keeps its first file', async () => {
    const archive = new ArchiveWriter(100);
    const output = collect(archive);
    await archive.json('metadata.json', { strapi: { version: '5.54.0' } });
    const entities = archive.jsonl('entities');
    const lines = Array.from({ length: 10 }, (_, i) => ({ type: 'api::a.a', id: i + 1, data: { title: `title ${i}` } }));
    for (const line of lines) await entities.write(line);
    await entities.close();
    const links = archive.jsonl('links');
    await links.close();
    await archive.entry('assets/uploads/a.txt', 5, Readable.from([Buffer.from('he'), Buffer.from('llo')]));
    archive.finish();
    const got = await entries(await output);
    const names = got.map((e) => e.name);
    assert.equal(names[0], 'metadata.json');
    const files = got.filter((e) => e.name.startsWith('entities/'));
    assert.ok(files.length >= 4, `${files.length} files`);
    assert.deepEqual(files.map((f) => f.name), files.map((_, i) => `entities/entities_${String(i + 1).padStart(5, '0')}.jsonl`));
    for (const f of files) assert.ok(f.body.length <= 100 || f.body.toString().split('\n').filter(Boolean).length === 1, f.name);
    assert.deepEqual(files.flatMap((f) => f.body.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l))), lines);
    assert.deepEqual(got.find((e) => e.name === 'links/links_00001.jsonl')?.body, Buffer.alloc(0));
    assert.equal(got.find((e) => e.name === 'assets/uploads/a.txt')?.body.toString(), 'hello');
  });

  it('an entry whose body is not the size announced fails', async () => {
    const archive = new ArchiveWriter();
    void collect(archive).catch(() => {});
    await assert.rejects(archive.entry('x.bin', 10, Readable.from([Buffer.from('short')])));
  });

  it('writes wait for the reader, and fail (instead of waiting forever) once the reader failed', async () => {
    const archive = new ArchiveWriter();
    let received = 0;
    // A reader that takes 64 KB, then fails.
    const reader = pipeline(archive.output, new Writable({
      write(chunk: Buffer, _encoding, callback) {
        received += chunk.length;
        callback(received > 64 * 1024 ? new Error('storage went away') : null);
      },
    }));
    reader.catch((err: Error) => archive.abort(err));
    // Random bytes: gzip cannot shrink them, so the reader sees them.
    const big = randomBytes(8 * 1024 * 1024);
    await assert.rejects(archive.entry('big.bin', big.length * 4, Readable.from([big, big, big, big])), /storage went away|destroyed|premature/i);
    await assert.rejects(reader, /storage went away/);
  });
});
