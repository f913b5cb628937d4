// Mime sniffing: the type of an upload is read from its first bytes (file-type), not taken from
// the client. A declared type that the content contradicts is refused; a generic or missing one
// is replaced by what was detected.
import { Readable } from 'node:stream';
import { fileTypeFromBuffer, supportedMimeTypes } from 'file-type';
import { ValidationError } from '@cms/errors';

const GENERIC = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/unknown']);

// Names clients use for the same type file-type reports under its canonical name.
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/x-png': 'image/png',
  'image/x-ms-bmp': 'image/bmp',
  'image/x-icon': 'image/vnd.microsoft.icon',
  'audio/mp3': 'audio/mpeg',
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
  'application/x-zip-compressed': 'application/zip',
  'application/x-pdf': 'application/pdf',
};

const MIME_PATTERN = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/;
const SUPPORTED = new Set<string>(supportedMimeTypes);

function canonical(mime: string): string {
  const bare = mime.split(';')[0]!.trim().toLowerCase();
  return ALIASES[bare] ?? bare;
}

// file-type's own sample size: enough for every signature it knows.
const SAMPLE_SIZE = 4100;

export interface SniffedStream {
  /** Every byte of the upload, the sample first. */
  stream: Readable;
  /** The upload has no bytes at all. */
  empty: boolean;
  /** The type to record: the detected one, or the declared one when the content has no signature. */
  mime: string;
  /** The detected extension (`.png`), when there is one. */
  detectedExt: string;
}

export class MimeMismatchError extends ValidationError {
  constructor(filename: string, declared: string, detected: string | undefined) {
    super(
      detected
        ? `File ${filename} is declared as ${declared} but its content is ${detected}`
        : `File ${filename} is declared as ${declared} but its content is not`,
      { filename, declared, detected: detected ?? null },
    );
  }
}

/**
 * Read the stream's first bytes and decide its type. The returned stream still yields every
 * byte. Refused: content of another detectable type than declared, and a declared binary type
 * whose signature is missing (e.g. text posted as image/png).
 */
export async function sniffMime(source: Readable, declaredType: string, filename: string): Promise<SniffedStream> {
  const { sample, rest } = await readSample(source, SAMPLE_SIZE);
  const stream = Readable.from(concat(sample, rest), { objectMode: false });
  const detected = sample.length ? await fileTypeFromBuffer(sample) : undefined;
  const declared = canonical(declaredType ?? '');
  const empty = sample.length === 0;
  if (detected) {
    if (!GENERIC.has(declared) && declared !== detected.mime) throw new MimeMismatchError(filename, declared, detected.mime);
    return { stream, empty, mime: detected.mime, detectedExt: `.${detected.ext}` };
  }
  if (!empty && SUPPORTED.has(declared)) throw new MimeMismatchError(filename, declared, undefined);
  const mime = GENERIC.has(declared) || !MIME_PATTERN.test(declared) ? 'application/octet-stream' : declared;
  return { stream, empty, mime, detectedExt: '' };
}

/**
 * The first `size` bytes (fewer if the stream ends sooner) and an iterator over the rest. Reading
 * through the stream's async iterator means a stream that errors or was destroyed (a truncated
 * multipart body) rejects here instead of leaving the caller waiting.
 */
async function readSample(source: Readable, size: number): Promise<{ sample: Buffer; rest: AsyncIterator<Buffer> }> {
  const rest = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let length = 0;
  while (length < size) {
    const next = await rest.next();
    if (next.done) break;
    chunks.push(next.value);
    length += next.value.length;
  }
  return { sample: Buffer.concat(chunks, length), rest };
}

async function* concat(sample: Buffer, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  if (sample.length) yield sample;
  for (;;) {
    const next = await rest.next();
    if (next.done) return;
    yield next.value;
  }
}
