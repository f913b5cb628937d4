// Driver selection from plain options. The caller maps the environment:
// S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY → `s3`, MEDIA_PUBLIC_URL → `publicUrl`.
import { LocalDiskStorage } from './local-disk.ts';
import { S3Storage } from './s3.ts';
import type { MediaStorage } from './storage.ts';

export interface MediaStorageConfig {
  /** MEDIA_PUBLIC_URL: base of every object URL, for either driver. */
  publicUrl?: string;
  /** Root directory of the local-disk driver (used when no bucket is configured). */
  localDir: string;
  /** Base the gateway serves local files under when there is no publicUrl; default `/uploads`. */
  localBaseUrl?: string;
  s3?: {
    bucket?: string;
    endpoint?: string;
    /** Default `us-east-1`. */
    region?: string;
    accessKeyId?: string;
    secretAccessKey?: string;
    /** Default: on with a custom endpoint (MinIO, s3rver…), off on AWS. */
    forcePathStyle?: boolean;
  };
}

export const DEFAULT_LOCAL_BASE_URL = '/uploads';

/** S3 when a bucket is configured, else local disk. Empty strings count as unset (as empty env vars do). */
export function createMediaStorage(config: MediaStorageConfig): MediaStorage {
  const s3 = config.s3 ?? {};
  const publicUrl = config.publicUrl || undefined;
  if (s3.bucket) {
    const endpoint = s3.endpoint || undefined;
    return new S3Storage({
      bucket: s3.bucket,
      endpoint,
      region: s3.region || 'us-east-1',
      accessKeyId: s3.accessKeyId || undefined,
      secretAccessKey: s3.secretAccessKey || undefined,
      forcePathStyle: s3.forcePathStyle ?? endpoint !== undefined,
      publicBaseUrl: publicUrl,
    });
  }
  return new LocalDiskStorage(config.localDir, publicUrl ?? config.localBaseUrl ?? DEFAULT_LOCAL_BASE_URL);
}
