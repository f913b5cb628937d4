export type { MediaStorage, PutOptions } from './storage.ts';
export { LocalDiskStorage } from './local-disk.ts';
export { S3Storage, type S3StorageOptions } from './s3.ts';
export { createMediaStorage, DEFAULT_LOCAL_BASE_URL, type MediaStorageConfig } from './create.ts';
export { assertValidKey, assertValidPrefix, isValidKey, MAX_KEY_LENGTH, MAX_SEGMENT_LENGTH } from './keys.ts';
export { PART_SIZE } from './s3-multipart.ts';
