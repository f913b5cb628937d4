// The one interface every media storage driver implements. Keys are relative paths such as
// `{projectId}/{hash}{ext}` (see keys.ts); a project's objects share the `{projectId}/` prefix.

export interface PutOptions {
  contentType: string;
  /** When given, a body of any other length is refused and nothing is stored. */
  contentLength?: number;
}

export interface StoredObject {
  body: NodeJS.ReadableStream;
  size: number;
}

export interface MediaStorage {
  /** Strapi's provider name recorded on each file: `local` or `aws-s3`. */
  readonly provider: string;
  /** Stream `body` to `key`; never buffers the whole file in memory. Resolves with the bytes written. */
  put(key: string, body: NodeJS.ReadableStream | Buffer, opts: PutOptions): Promise<{ size: number }>;
  /** A readable stream of the object, or null when it does not exist. */
  get(key: string): Promise<NodeJS.ReadableStream | null>;
  /** The object's stream and its length in bytes (e.g. for a tar entry), or null when it does not exist. */
  read(key: string): Promise<StoredObject | null>;
  /** Missing keys are not an error. */
  delete(key: string): Promise<void>;
  /** Delete every object under `prefix` (which must end with `/`); resolves with how many were deleted. */
  deletePrefix(prefix: string): Promise<number>;
  exists(key: string): Promise<boolean>;
  /** Public URL of an object: MEDIA_PUBLIC_URL base + key when configured, else the driver's own form. */
  url(key: string): string;
}
