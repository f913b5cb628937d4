// Importing a project from another Strapi (`cms import strapi`, docs/import-strapi.md): files,
// document versions, their relations, end users. Every route is idempotent (a batch sent again
// after an interruption changes nothing more) and each batch is one transaction; what each does
// is import-actions.ts's, shared with the in-process import (import-target.ts). Owners and
// editors only (access.ts: viewers can't write).
import type { FastifyInstance } from 'fastify';
import type { Readable } from 'node:stream';
import { NotFoundError, ValidationError } from '@cms/errors';
import { importRoutes as schemas } from '@cms/management-api';
import { parseFileInfo } from '@cms/media';
import { importDocumentsBatch, importedFileId, importRelationsBatch, importUsersBatch, storeImportedFile } from './import-actions.ts';
import type { ManagementOptions } from './options.ts';
import { memberOrigin, projectOf } from './request-context.ts';

/** Batches of up to 500 items with rich text can pass the API's usual body limit. */
const BATCH_BODY_LIMIT = 64 * 1024 * 1024;
// Batches and the file's query are checked item by item by import-actions.ts, naming the first bad
// one: the schema's verdict is attached (attachValidation) and left to it.
const BATCH = { bodyLimit: BATCH_BODY_LIMIT, attachValidation: true } as const;

interface FileRoute {
  Params: { slug: string; documentId: string };
  Querystring: { name?: string; mime?: string; fileInfo?: string; createdAt?: string; updatedAt?: string };
}

export async function importRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  app.post('/projects/:slug/import/documents', { ...BATCH, schema: schemas.documents }, (request) => importDocumentsBatch(platform, projectOf(request), request.body, memberOrigin(request, 'import')));

  app.post('/projects/:slug/import/relations', { ...BATCH, schema: schemas.relations }, (request) => importRelationsBatch(platform, projectOf(request), request.body, memberOrigin(request, 'import')));

  app.post('/projects/:slug/import/users', { ...BATCH, schema: schemas.users }, (request) => importUsersBatch(platform, projectOf(request), request.body));

  // Which imported file has this documentId (so a resumed import skips sending it again).
  app.get<FileRoute>('/projects/:slug/import/files/:documentId', { schema: schemas.findFile }, async (request) => {
    const { documentId } = request.params;
    const id = await importedFileId(platform, projectOf(request), documentId);
    if (id === null) throw new NotFoundError('file.notFound');
    return { id, documentId };
  });

  // One file's bytes as the body (application/octet-stream), its name, type and info in the
  // query; stored and processed by the media library (image formats made again) under the
  // documentId it had. Sent again, the file already there is kept and its id answered.
  app.register(async (files) => {
    files.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
    files.put<FileRoute>('/projects/:slug/import/files/:documentId', { schema: schemas.putFile, attachValidation: true }, async (request, reply) => {
      const { name, mime = 'application/octet-stream', fileInfo, createdAt, updatedAt } = request.query;
      const meta = {
        name, mime, info: parseFileInfo(fileInfo === undefined ? {} : parseJson(fileInfo)),
        createdAt: timestamp(createdAt, 'createdAt'), updatedAt: timestamp(updatedAt, 'updatedAt'),
      };
      const { documentId } = request.params;
      const { id, created } = await storeImportedFile(platform, projectOf(request), documentId, request.body as Readable | undefined, meta);
      return reply.status(created ? 201 : 200).send({ id, documentId, created });
    });
  });
}

const ISO_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?(Z|[+-]\d\d:\d\d)$/;

/** An ISO 8601 timestamp from the query (the source's), or undefined when not given. */
function timestamp(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !ISO_TIMESTAMP.test(value) || Number.isNaN(Date.parse(value))) {
    throw new ValidationError(`${name} must be an ISO 8601 timestamp`, { [name]: String(value).slice(0, 50) });
  }
  return value;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError('fileInfo must be valid JSON');
  }
}
