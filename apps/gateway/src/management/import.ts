// Importing a project from another Strapi (`cms import strapi`, docs/import-strapi.md): files,
// document versions, their relations, end users. Every route is idempotent (a batch sent again
// after an interruption changes nothing more) and each batch is one transaction. Owners and
// editors only (access.ts: viewers can't write).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { importDocumentVersions, importRelations } from '@cms/documents';
import { NotFoundError, ValidationError } from '@cms/errors';
import { fileIdByDocumentId, parseFileInfo, setFileDocumentId } from '@cms/media';
import { importUsers, parseImportedUsers } from '@cms/users';
import { checkQuota, maxUploadBytes, storageQuota } from '../tenant/upload-limits.ts';
import type { ManagementOptions } from './options.ts';
import { projectOf } from './request-context.ts';

/** Batches of up to 500 items with rich text can pass the API's usual body limit. */
const BATCH_BODY_LIMIT = 64 * 1024 * 1024;
const DOCUMENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

interface FileRoute {
  Params: { slug: string; documentId: string };
  Querystring: { name?: string; mime?: string; fileInfo?: string; createdAt?: string; updatedAt?: string };
}

export function registerImportRoutes(app: FastifyInstance, { platform }: ManagementOptions): void {
  const pool = platform.db.tenantPool;

  async function contextOf(request: FastifyRequest) {
    const project = projectOf(request);
    const runtime = await platform.runtimes.get(project);
    const tenant = await platform.registry.resolve(project.slug);
    if (!tenant) throw new NotFoundError();
    return { project, runtime, tenant, schema: runtime.schemaName };
  }

  app.post('/projects/:slug/import/documents', { bodyLimit: BATCH_BODY_LIMIT }, async (request) => {
    const { project, runtime, tenant, schema } = await contextOf(request);
    return importDocumentVersions({
      pool, schema, model: runtime.model, physical: runtime.physical, defaultLocale: project.defaultLocale, localeCodes: tenant.localeCodes,
      admitDocument: platform.documentQuota.admission(project, runtime),
    }, request.body);
  });

  app.post('/projects/:slug/import/relations', { bodyLimit: BATCH_BODY_LIMIT }, async (request) => {
    const { project, runtime, tenant, schema } = await contextOf(request);
    return importRelations({
      pool, schema, model: runtime.model, physical: runtime.physical, defaultLocale: project.defaultLocale, localeCodes: tenant.localeCodes,
    }, request.body);
  });

  app.post('/projects/:slug/import/users', { bodyLimit: BATCH_BODY_LIMIT }, async (request) => {
    const { project, schema } = await contextOf(request);
    const roleTypes = (await platform.roles.list(project.id)).map((r) => r.type);
    const users = parseImportedUsers(request.body, roleTypes);
    return pool.transaction((tx) => importUsers(tx, schema, users));
  });

  // Which imported file has this documentId (so a resumed import skips sending it again).
  app.get<FileRoute>('/projects/:slug/import/files/:documentId', async (request) => {
    const { schema } = await contextOf(request);
    const id = await fileIdByDocumentId(pool, schema, request.params.documentId);
    if (id === null) throw new NotFoundError('file.notFound');
    return { id: Number(id), documentId: request.params.documentId };
  });

  // One file's bytes as the body (application/octet-stream), its name, type and info in the
  // query; stored and processed by the media library (image formats made again) under the
  // documentId it had. Sent again, the file already there is kept and its id answered.
  app.register(async (files) => {
    files.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
    files.put<FileRoute>('/projects/:slug/import/files/:documentId', async (request, reply) => {
      const body = request.body as Readable | undefined;
      const { project, tenant, schema } = await contextOf(request);
      const documentId = request.params.documentId;
      const drain = async () => { if (body) for await (const _ of body) { /* discard */ } };
      if (!DOCUMENT_ID.test(documentId)) {
        await drain();
        throw new ValidationError('documentId must be 1 to 64 letters, digits, - or _');
      }
      if (!body || typeof (body as Readable).pipe !== 'function') throw new ValidationError('Send the file\'s bytes as application/octet-stream');
      const existing = await fileIdByDocumentId(pool, schema, documentId);
      if (existing !== null) {
        await drain();
        return reply.status(200).send({ id: Number(existing), documentId, created: false });
      }
      const { name, mime = 'application/octet-stream', fileInfo } = request.query;
      if (typeof name !== 'string' || name.length === 0 || name.length > 255) {
        await drain();
        throw new ValidationError('name (the file\'s name) is required');
      }
      const info = parseFileInfo(fileInfo === undefined ? {} : parseJson(fileInfo));
      const times = { createdAt: timestamp(request.query.createdAt, 'createdAt'), updatedAt: timestamp(request.query.updatedAt, 'updatedAt') };
      const quota = storageQuota(platform, tenant);
      await checkQuota(platform, schema, quota);
      const limit = maxUploadBytes(platform, tenant);
      let seen = 0;
      body.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (seen > limit.bytes) body.destroy(new ValidationError(`The file is larger than this project's largest upload (${limit.bytes} bytes)`));
      });
      const stored = await platform.media.store(project.id, { filename: name, mimetype: mime, stream: body });
      if (!stored) throw new ValidationError('Empty files cannot be imported');
      try {
        const [id] = await platform.media.create(pool, { projectId: project.id, schema }, [stored], [info],
          (tx, ids) => setFileDocumentId(tx, schema, ids[0]!, documentId, times), quota);
        return reply.status(201).send({ id: Number(id), documentId, created: true });
      } catch (err) {
        // Sent twice at once: the other request recorded it first.
        const again = await fileIdByDocumentId(pool, schema, documentId);
        if (again !== null) return reply.status(200).send({ id: Number(again), documentId, created: false });
        throw err;
      }
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
