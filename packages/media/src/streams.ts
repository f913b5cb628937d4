// Stream helpers shared by the drivers: counting bytes on the way through and cutting a stream
// into fixed-size parts (S3 multipart) without holding more than one part in memory.
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { ValidationError } from '@cms/errors';

/** Passes bytes through and counts them; with `expected`, any other total fails the stream. */
export class ByteCounter extends Transform {
  bytes = 0;
  constructor(private readonly expected?: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    // Fail as soon as the body runs past the announced length rather than after storing it.
    if (this.expected !== undefined && this.bytes > this.expected) return callback(lengthMismatch(this.expected));
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.expected !== undefined && this.bytes !== this.expected) return callback(lengthMismatch(this.expected));
    callback();
  }
}

export function lengthMismatch(expected: number): ValidationError {
  return new ValidationError(`Upload size did not match Content-Length (${expected} bytes)`);
}

export function checkContentLength(contentLength: number | undefined): void {
  if (contentLength !== undefined && !(Number.isSafeInteger(contentLength) && contentLength >= 0)) {
    throw new ValidationError(`Invalid Content-Length ${contentLength}`);
  }
}

/** `body` as a Readable (a Buffer becomes a one-chunk stream). */
export function toReadable(body: NodeJS.ReadableStream | Buffer): NodeJS.ReadableStream {
  return Buffer.isBuffer(body) ? Readable.from([body]) : body;
}

/** Re-chunk `source` into buffers of exactly `size` bytes except the last, which may be shorter; an empty source yields none. */
export async function* chunksOf(source: AsyncIterable<Buffer> | Iterable<Buffer>, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let length = 0;
  for await (const chunk of source) {
    let rest = chunk;
    while (length + rest.length >= size) {
      const take = size - length;
      pending.push(rest.subarray(0, take));
      yield Buffer.concat(pending, size);
      pending = [];
      length = 0;
      rest = rest.subarray(take);
    }
    if (rest.length > 0) {
      pending.push(rest);
      length += rest.length;
    }
  }
  if (length > 0) yield Buffer.concat(pending, length);
}
