// S3 (or S3-compatible: MinIO, R2, s3rver) driver on @aws-sdk/client-s3. Stream bodies go up in
// parts (s3-multipart.ts), known length or not, so memory per upload stays at one part. The SDK
// is imported, and the client made, on the first call that talks to S3 (s3-sdk.ts).
import type { S3Client } from '@aws-sdk/client-s3';
import { pipeline } from 'node:stream';
import { assertValidKey, assertValidPrefix, joinUrl } from './keys.ts';
import { partSizeFor, uploadInParts } from './s3-multipart.ts';
import { loadS3Sdk, type S3Sdk } from './s3-sdk.ts';
import type { MediaStorage, PutOptions, StoredObject } from './storage.ts';
import { ByteCounter, checkContentLength, chunksOf, lengthMismatch } from './streams.ts';

export interface S3StorageOptions {
  bucket: string;
  /** Custom endpoint (MinIO, R2, s3rver…); AWS's regional endpoint when absent. */
  endpoint?: string;
  region: string;
  /** Without a key pair the SDK's default credential chain applies (env, profile, instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle?: boolean;
  /** MEDIA_PUBLIC_URL (a CDN, say): object URLs become this base + key. */
  publicBaseUrl?: string;
}

export class S3Storage implements MediaStorage {
  readonly provider = 'aws-s3';
  private sdkClient: Promise<{ sdk: S3Sdk; client: S3Client }> | null = null;

  constructor(readonly options: S3StorageOptions) {}

  /** The SDK's client, made on first use. */
  async client(): Promise<S3Client> {
    return (await this.connected()).client;
  }

  private connected(): Promise<{ sdk: S3Sdk; client: S3Client }> {
    this.sdkClient ??= loadS3Sdk().then((sdk) => {
      const { region, endpoint, forcePathStyle, accessKeyId, secretAccessKey } = this.options;
      const client = new sdk.S3Client({
        region,
        endpoint,
        forcePathStyle,
        credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
        // Checksums only where S3 demands them: the default adds trailing checksums (aws-chunked
        // bodies) that many S3-compatible servers do not understand.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
      return { sdk, client };
    }, (err: unknown) => {
      this.sdkClient = null;
      throw err;
    });
    return this.sdkClient;
  }

  async put(key: string, body: NodeJS.ReadableStream | Buffer, opts: PutOptions): Promise<{ size: number }> {
    assertValidKey(key);
    checkContentLength(opts.contentLength);
    const { sdk, client } = await this.connected();
    const target = { Bucket: this.options.bucket, Key: key, ContentType: opts.contentType };
    if (Buffer.isBuffer(body)) {
      if (opts.contentLength !== undefined && opts.contentLength !== body.length) throw lengthMismatch(opts.contentLength);
      await client.send(new sdk.PutObjectCommand({ ...target, Body: body, ContentLength: body.length }));
      return { size: body.length };
    }
    const counter = new ByteCounter(opts.contentLength);
    pipeline(body, counter, () => {}); // a failure destroys `counter`, which is where it surfaces
    const partSize = partSizeFor(opts.contentLength);
    await uploadInParts(client, target, chunksOf(counter, partSize), partSize);
    return { size: counter.bytes };
  }

  async get(key: string): Promise<NodeJS.ReadableStream | null> {
    return (await this.read(key))?.body ?? null;
  }

  async read(key: string): Promise<StoredObject | null> {
    assertValidKey(key);
    const { sdk, client } = await this.connected();
    try {
      const out = await client.send(new sdk.GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
      // In Node the body is an http.IncomingMessage.
      return { body: out.Body as NodeJS.ReadableStream, size: Number(out.ContentLength ?? 0) };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    const { sdk, client } = await this.connected();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  async deletePrefix(prefix: string): Promise<number> {
    assertValidPrefix(prefix);
    const { sdk, client } = await this.connected();
    const Bucket = this.options.bucket;
    let deleted = 0;
    let ContinuationToken: string | undefined;
    do {
      // Pages of at most 1000 keys: also DeleteObjects' per-request limit.
      const page = await client.send(new sdk.ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken, MaxKeys: 1000 }));
      const Objects = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (Objects.length > 0) {
        const out = await client.send(new sdk.DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }));
        if (out.Errors?.length) {
          const first = out.Errors[0]!;
          throw new Error(`S3 could not delete ${out.Errors.length} objects under ${prefix} (${first.Key}: ${first.Code} ${first.Message})`);
        }
        deleted += Objects.length;
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return deleted;
  }

  async exists(key: string): Promise<boolean> {
    assertValidKey(key);
    const { sdk, client } = await this.connected();
    try {
      await client.send(new sdk.HeadObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  url(key: string): string {
    assertValidKey(key);
    const { bucket, endpoint, region, forcePathStyle, publicBaseUrl } = this.options;
    if (publicBaseUrl) return joinUrl(publicBaseUrl, key);
    if (endpoint) {
      if (forcePathStyle) return joinUrl(endpoint, `${bucket}/${key}`);
      const url = new URL(endpoint);
      return `${url.protocol}//${bucket}.${url.host}/${key}`;
    }
    if (forcePathStyle) return `https://s3.${region}.amazonaws.com/${bucket}/${key}`;
    return `https://${bucket}.s3.${region}.amazonaws.com/${key}`;
  }

  /** Close the client's keep-alive sockets (none when it never talked to S3). */
  destroy(): void {
    const made = this.sdkClient;
    this.sdkClient = null;
    void made?.then(({ client }) => client.destroy(), () => undefined);
  }
}

// A missing object (GetObject: NoSuchKey; HeadObject has no body, so only NotFound). A missing
// bucket is a configuration error and stays one.
function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  if (e?.name === 'NoSuchKey' || e?.name === 'NotFound') return true;
  return e?.$metadata?.httpStatusCode === 404 && e.name !== 'NoSuchBucket';
}
