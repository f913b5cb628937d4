// Receiving a multipart upload: every part read in order, `files` streamed into storage as they
// arrive, text fields collected; the parser's refusals become the API's errors. Nothing is
// recorded here: on any failure the parts stored so far are deleted.
import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError, PayloadTooLargeError, ValidationError } from '@cms/errors';
import { parseFileInfoText, type FileRow, type MediaLibrary, type StoredUpload } from '@cms/media';
import type { FileSizeLimit } from '../upload-limits.ts';

const MULTIPART_LIMITS = { fieldNameSize: 100, fieldSize: 1024 * 1024, fields: 40, files: 20, headerPairs: 200, parts: 60 };
const FIELDS = new Set(['fileInfo', 'ref', 'refId', 'field', 'path']);

export interface Received {
  uploads: StoredUpload[];
  /** Parts with a file name but no bytes. */
  emptyFiles: number;
  fileInfo: unknown[];
  fields: Record<string, string>;
}

/** Where the parts of one upload go: the project's files, staged under `replacing`'s hash when given. */
interface Destination {
  media: MediaLibrary;
  projectId: number;
  replacing: FileRow | undefined;
  fileSize: FileSizeLimit;
}

/** Read every part of the request's multipart body into `to`. */
export async function receiveUpload(request: FastifyRequest, to: Destination): Promise<Received> {
  const received: Received = { uploads: [], emptyFiles: 0, fileInfo: [], fields: {} };
  checkBoundary(request.headers['content-type']);
  try {
    for await (const part of request.parts({ limits: { ...MULTIPART_LIMITS, fileSize: to.fileSize.bytes } }) as AsyncIterable<Multipart>) {
      if (part.type === 'file') {
        await receiveFile(to, part, received);
      } else if (!FIELDS.has(part.fieldname)) {
        throw new ValidationError(`Invalid parameter: ${part.fieldname}`.slice(0, 300));
      } else if (part.fieldname === 'fileInfo') {
        // A part sent as application/json arrives parsed; other parts are JSON text.
        received.fileInfo.push(typeof part.value === 'string' ? parseFileInfoText(part.value) : part.value);
      } else if (typeof part.value !== 'string') {
        throw new ValidationError(`${part.fieldname} must be text`);
      } else {
        received.fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    await to.media.discard(received.uploads);
    throw uploadError(err, to.fileSize);
  }
  return received;
}

async function receiveFile(to: Destination, part: MultipartFile, received: Received) {
  if (part.fieldname !== 'files') {
    part.file.resume();
    throw new ValidationError(`Invalid file field: ${part.fieldname}; files are sent as "files"`.slice(0, 300));
  }
  // An empty file input in a browser form sends a part without a name and body.
  if (part.filename === '') {
    part.file.resume();
    return;
  }
  // Parts of a replace are staged (see MediaLibrary.store), so a refused request changes nothing.
  const stored = await to.media.store(to.projectId, { filename: part.filename, mimetype: part.mimetype, stream: part.file }, to.replacing);
  if (!stored) {
    received.emptyFiles++;
    return;
  }
  if (part.file.truncated) {
    await to.media.discard([stored]);
    throw tooBig(to.fileSize);
  }
  received.uploads.push(stored);
}

/** RFC 2046's boundary: 1 to 70 of its characters, not ending in a space (busboy throws past 256). */
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

function checkBoundary(contentType: string | undefined): void {
  const match = /;\s*boundary=(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary || !BOUNDARY.test(boundary)) {
    throw new ValidationError('Malformed multipart body: the boundary must be 1 to 70 characters (RFC 2046)');
  }
}

// Strapi's message; the details also name the plan whose limit it is.
const tooBig = (limit: FileSizeLimit) => new PayloadTooLargeError('FileTooBig', {
  maxFileSize: limit.bytes, ...(limit.plan === undefined ? {} : { limit: 'maxUploadBytes', plan: limit.plan }),
});

/** Multipart parser failures in the envelope: over-size files are Strapi's FileTooBig. */
function uploadError(err: unknown, fileSize: FileSizeLimit): unknown {
  if (err instanceof AppError) return err;
  const code = (err as { code?: string })?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooBig(fileSize);
  if (code === 'FST_FILES_LIMIT') return new PayloadTooLargeError(`At most ${MULTIPART_LIMITS.files} files can be uploaded at once`);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return new PayloadTooLargeError('Too many multipart fields');
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return new ValidationError('The request is not multipart/form-data');
  if (code === 'FST_INVALID_JSON_FIELD_ERROR') return new ValidationError('fileInfo must be valid JSON');
  // The parser's other refusals (prototype-poisoning field names, …) are the client's too.
  const status = (err as { statusCode?: number })?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return new ValidationError(`Invalid multipart body: ${(err as Error).message}`.slice(0, 300));
  // Busboy's errors on malformed bodies ("Unexpected end of form", bad boundaries) are the client's.
  if (err instanceof Error && /form|boundary|multipart|Unexpected end/i.test(err.message)) return new ValidationError(`Malformed multipart body: ${err.message}`.slice(0, 300));
  return err;
}
