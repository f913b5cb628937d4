// @aws-sdk/client-s3, imported when an S3Storage first talks to S3: a process without S3_BUCKET
// never loads it (about 5 MB of a gateway's memory, and 100 ms of CPU at start).
export type S3Sdk = typeof import('@aws-sdk/client-s3');

let loading: Promise<S3Sdk> | null = null;

/** The SDK; a failed import is retried by the next call. */
export function loadS3Sdk(): Promise<S3Sdk> {
  loading ??= import('@aws-sdk/client-s3').then((m: S3Sdk & { default?: S3Sdk }) => {
    // Compiled into dist/, the SDK's CommonJS build comes as the module's default export only.
    if (typeof m.S3Client !== 'function' && m.default) return m.default;
    return m;
  }).catch((err: unknown) => {
    loading = null;
    throw new Error(`@aws-sdk/client-s3 (the S3 media storage) could not be loaded: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  });
  return loading;
}
