// Exports and backups on S3 storage (s3rver on a free port): the archive is streamed into the
// bucket in parts while it is written (a multipart upload: never one buffer of the whole
// archive), kept under `archives/{projectId}/` apart from the project's public media, downloaded
// byte for byte with a 12 MB file in it, and deleted with the project when it is purged.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { extract } from 'tar-stream';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { multipart } from '../helpers/multipart.ts';
import { letS3rverPage } from '../helpers/s3rver-paging.ts';
import { blogRawModel } from '../fixtures/index.ts';

const BUCKET = 'exports';
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('exports on S3 storage', () => {
  let s3Dir = '';
  let s3rver: S3rver | undefined;
  let s3: S3Client;
  let t: TestApp;
  let p: ContentProject;

  /** The objects the bucket was told to create, and how. */
  const created: Array<{ key: string; name: string }> = [];
  const keys = async (prefix: string) => ((await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }))).Contents ?? []).map((o) => o.Key!).sort();

  before(async () => {
    letS3rverPage();
    s3Dir = await mkdtemp(join(tmpdir(), 'export-s3rver-'));
    s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: BUCKET }] });
    const { port } = await s3rver.run();
    (s3rver as unknown as NodeJS.EventEmitter).on('event', (event: { Records: Array<{ eventName: string; s3: { object: { key: string } } }> }) => {
      for (const r of event.Records) created.push({ key: decodeURIComponent(r.s3.object.key), name: r.eventName });
    });
    const endpoint = `http://127.0.0.1:${port}`;
    s3 = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    t = await startTestApp({ env: { S3_BUCKET: BUCKET, S3_ENDPOINT: endpoint, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' } });
    p = await setupContentProject(t, blogRawModel());
  });
  after(async () => {
    await t?.close();
    s3?.destroy();
    await s3rver?.close();
    await rm(s3Dir, { recursive: true, force: true });
  });

  it('streams the archive into the bucket in parts, under archives/{projectId}/, and serves it back byte for byte', async () => {
    // Random bytes: the archive cannot be smaller than the file, so it takes several 5 MiB parts.
    const content = randomBytes(12 * 1024 * 1024);
    const { payload, headers } = await multipart({ files: { name: 'big.bin', content, type: 'application/octet-stream' } });
    const uploaded = await p.api.raw('POST', '/api/upload', { payload, headers });
    assert.equal(uploaded.statusCode, 201, uploaded.body);
    const file = (uploaded.json() as Array<{ hash: string; ext: string; documentId: string }>)[0]!;

    const started = await p.admin.post(`/v1/projects/${p.slug}/exports`, {});
    assert.equal(started.statusCode, 202, started.body);
    let record: Record<string, unknown> = started.json().export;
    for (let i = 0; i < 600 && record.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      record = (await p.admin.get(`/v1/projects/${p.slug}/exports/${record.id}`)).json().export;
    }
    assert.equal(record.status, 'done', JSON.stringify(record));
    const [key, ...others] = await keys(`archives/${p.id}/`);
    assert.deepEqual(others, []);
    assert.match(key!, new RegExp(`^archives/${p.id}/${String(record.id)}-[0-9a-f]{32}\\.tar\\.gz$`));
    const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    assert.equal(head.ContentLength, record.size);
    assert.equal(head.ContentType, 'application/gzip');
    // Stored by a multipart upload (S3's `ObjectCreated:Post`), not one PutObject of a buffer.
    assert.deepEqual(created.filter((e) => e.key === key).map((e) => e.name), ['ObjectCreated:Post']);
    // Not under the project's public prefix, nor served by its /uploads route.
    assert.ok(!(await keys(`${p.id}/`)).some((k) => k.includes('.tar.gz')));
    assert.equal((await t.inject({ method: 'GET', url: `/p/${p.slug}/uploads/${key!.split('/').pop()}` })).statusCode, 404);

    const download = await p.admin.get(new URL(String(record.url)).pathname);
    assert.equal(download.statusCode, 200);
    assert.equal(download.rawPayload.length, record.size);
    const tar = extract();
    Readable.from([download.rawPayload]).pipe(createGunzip()).pipe(tar);
    let found: Buffer | null = null;
    for await (const entry of tar) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      if (entry.header.name === `assets/uploads/${file.hash}${file.ext}`) found = Buffer.concat(chunks);
    }
    assert.ok(found, 'the file is in the archive');
    assert.equal(sha256(found), sha256(content));
  });

  it('a purged project takes its archives with it', async () => {
    assert.equal((await p.admin.post(`/v1/projects/${p.slug}/backups`, {})).statusCode, 202);
    await t.platform.archives.settled();
    assert.equal((await keys(`archives/${p.id}/`)).length, 2);
    assert.equal((await p.admin.del(`/v1/projects/${p.slug}`)).statusCode, 204);
    // Restorable for 7 days: kept.
    assert.equal((await keys(`archives/${p.id}/`)).length, 2);
    await t.platform.maintenance.round(new Date(Date.now() + 8 * 86_400_000), ['purge']);
    assert.deepEqual(await keys(`archives/${p.id}/`), []);
    assert.deepEqual(await keys(`${p.id}/`), []);
  });
});
