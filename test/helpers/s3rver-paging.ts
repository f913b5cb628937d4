// s3rver 3.7.1 encrypts ListObjectsV2 continuation tokens with DES, which OpenSSL 3 (Node 17+)
// no longer provides: every truncated listing answers 500. The token only has to round-trip, so
// for the calling test process 'des' becomes the identity; no other code there uses DES.
import crypto from 'node:crypto';

export function letS3rverPage(): void {
  const { createCipheriv, createDecipheriv } = crypto;
  const identity = { update: (data: string | Buffer, encoding?: BufferEncoding) => Buffer.from(data as string, encoding), final: () => Buffer.alloc(0) };
  Object.assign(crypto, {
    createCipheriv: (algorithm: string, ...rest: unknown[]) => (algorithm === 'des' ? identity : Reflect.apply(createCipheriv, crypto, [algorithm, ...rest])),
    createDecipheriv: (algorithm: string, ...rest: unknown[]) => (algorithm === 'des' ? identity : Reflect.apply(createDecipheriv, crypto, [algorithm, ...rest])),
  });
}
