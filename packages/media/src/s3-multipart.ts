// Upload of a stream body. PutObject needs a Content-Length up front, so a body of unknown length is
// cut into 5 MiB parts (S3's minimum part size) and sent as a multipart upload; a body that fits in
// one short part goes up as a plain PutObject instead. Only one part is held in memory.
//
// Known-length streams take the same path rather than one streaming PutObject: a request is only
// sent once its whole part has been read, so a client stream failing midway never reaches S3 as a
// truncated request (which some S3-compatible servers, s3rver among them, store as an object), and
// every request has a Buffer body the SDK can retry. Failed multipart uploads are aborted.
import type { CompletedPart, S3Client } from '@aws-sdk/client-s3';
import { PayloadTooLargeError } from '@cms/errors';
import { loadS3Sdk } from './s3-sdk.ts';

export const PART_SIZE = 5 * 1024 * 1024;
export const MAX_PARTS = 10_000; // S3's limit

/** 5 MiB, or larger when a known length would need more than MAX_PARTS parts (up to S3's 5 TiB). */
export function partSizeFor(contentLength: number | undefined): number {
  if (contentLength === undefined) return PART_SIZE; // so at most ~48.8 GiB
  const MiB = 1024 * 1024;
  return Math.max(PART_SIZE, Math.ceil(contentLength / MAX_PARTS / MiB) * MiB);
}

export interface UploadTarget {
  Bucket: string;
  Key: string;
  ContentType: string;
}

/**
 * Upload `parts` (each exactly `partSize` bytes except a shorter last one) to `target`. Nothing
 * is completed before `parts` has been read to its end (which is where the body's length is
 * checked). On failure the multipart upload is aborted so its parts are not kept (and billed); an
 * abort that itself fails leaves them to the bucket's AbortIncompleteMultipartUpload rule.
 */
export async function uploadInParts(client: S3Client, target: UploadTarget, parts: AsyncIterable<Buffer>, partSize = PART_SIZE): Promise<void> {
  const { Bucket, Key } = target;
  const { AbortMultipartUploadCommand, CompleteMultipartUploadCommand, CreateMultipartUploadCommand, PutObjectCommand, UploadPartCommand } = await loadS3Sdk();
  let uploadId: string | undefined;
  const completed: CompletedPart[] = [];
  try {
    for await (const part of parts) {
      if (uploadId === undefined) {
        if (part.length < partSize) {
          // The whole body is this one short part.
          await client.send(new PutObjectCommand({ ...target, Body: part, ContentLength: part.length }));
          return;
        }
        uploadId = (await client.send(new CreateMultipartUploadCommand(target))).UploadId;
        if (!uploadId) throw new Error(`S3 CreateMultipartUpload returned no UploadId for ${Key}`);
      }
      if (completed.length >= MAX_PARTS) throw new PayloadTooLargeError(`Uploads are limited to ${MAX_PARTS} parts of ${partSize} bytes`);
      const PartNumber = completed.length + 1;
      const { ETag } = await client.send(new UploadPartCommand({ Bucket, Key, UploadId: uploadId, PartNumber, Body: part, ContentLength: part.length }));
      completed.push({ PartNumber, ETag });
    }
    if (uploadId === undefined) {
      await client.send(new PutObjectCommand({ ...target, Body: Buffer.alloc(0), ContentLength: 0 }));
      return;
    }
    await client.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId: uploadId, MultipartUpload: { Parts: completed } }));
  } catch (err) {
    if (uploadId !== undefined) {
      // Best effort: the original failure is what the caller needs to see.
      await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: uploadId })).catch(() => {});
    }
    throw err;
  }
}
