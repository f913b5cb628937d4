// What the import routes do (import.ts), as functions the in-process import target
// (import-target.ts) calls too: the routes only read the request and shape the answer. Every
// write is idempotent (a batch sent again changes nothing more) and each batch is one transaction.
import type { Readable } from 'node:stream';
import { importDocumentVersions, importRelations, type WriteOrigin } from '@cms/documents';
import { NotFoundError, ValidationError } from '@cms/errors';
import { fileIdByDocumentId, setFileDocumentId, type FileInfo } from '@cms/media';
import type { ProjectRecord } from '@cms/tenancy';
import { importUsers, parseImportedUsers } from '@cms/users';
import type { Platform } from '../platform.ts';
import { checkQuota, maxUploadBytes, storageQuota } from '../upload-limits.ts';

const DOCUMENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The project's compiled model and tenant entry (its locales), for one batch. */
async function contextOf(platform: Platform, project: ProjectRecord) {
  const runtime = await platform.runtimes.get(project);
  const tenant = await platform.registry.resolve(project.slug);
  if (!tenant) throw new NotFoundError();
  return { runtime, tenant, schema: runtime.schemaName };
}

/** A batch of document versions (`{documents: [...]}`), within the plan's document quota. */
export async function importDocumentsBatch(platform: Platform, project: ProjectRecord, body: unknown, origin: WriteOrigin) {
  const { runtime, tenant, schema } = await contextOf(platform, project);
  return importDocumentVersions({
    pool: platform.db.tenantPool, schema, model: runtime.model, physical: runtime.physical, defaultLocale: project.defaultLocale,
    localeCodes: tenant.localeCodes, admitDocument: platform.documentQuota.admission(project, runtime), history: historyOf(platform, origin),
  }, body);
}

/** A batch of owner-side relations (`{relations: [...]}`) of versions imported before. */
export async function importRelationsBatch(platform: Platform, project: ProjectRecord, body: unknown, origin: WriteOrigin) {
  const { runtime, tenant, schema } = await contextOf(platform, project);
  return importRelations({
    pool: platform.db.tenantPool, schema, model: runtime.model, physical: runtime.physical, defaultLocale: project.defaultLocale,
    localeCodes: tenant.localeCodes, history: historyOf(platform, origin),
  }, body);
}

/** The import's versions are recorded as `origin` unless content history is off. */
const historyOf = (platform: Platform, origin: WriteOrigin): WriteOrigin | null => (platform.config.contentHistory ? origin : null);

/** A batch of end users (`{users: [...]}`) with their password hashes, of the project's roles. */
export async function importUsersBatch(platform: Platform, project: ProjectRecord, body: unknown) {
  const { schema } = await contextOf(platform, project);
  const roleTypes = (await platform.roles.list(project.id)).map((r) => r.type);
  const users = parseImportedUsers(body, roleTypes);
  return platform.db.tenantPool.transaction((tx) => importUsers(tx, schema, users));
}

/** The id of the file imported under `documentId`, null when there is none (a resumed import skips it). */
export async function importedFileId(platform: Platform, project: ProjectRecord, documentId: string): Promise<number | null> {
  const { schema } = await contextOf(platform, project);
  const id = await fileIdByDocumentId(platform.db.tenantPool, schema, documentId);
  return id === null ? null : Number(id);
}

export interface ImportedFileMeta {
  /** The file's name: 1 to 255 characters (checked here, after the lookup of a file already there). */
  name: unknown;
  mime: string;
  info: FileInfo;
  /** The source's upload and last change (ISO 8601). */
  createdAt?: string;
  updatedAt?: string;
}

/**
 * One file's bytes, stored and processed by the media library (image formats made again) under
 * the documentId it had, within the plan's largest upload and storage quota. A file already
 * there under that documentId is kept (`created: false`) and `body` read to its end. Its object
 * is stored under `mediaProjectId`'s prefix (a staged project's files under the project it will
 * become).
 */
export async function storeImportedFile(
  platform: Platform, project: ProjectRecord, documentId: string, body: Readable | undefined, meta: ImportedFileMeta,
  mediaProjectId = project.id,
): Promise<{ id: number; created: boolean }> {
  const { tenant, schema } = await contextOf(platform, project);
  const pool = platform.db.tenantPool;
  const drain = async () => { if (body) for await (const _ of body) { /* discard */ } };
  if (!DOCUMENT_ID.test(documentId)) {
    await drain();
    throw new ValidationError('documentId must be 1 to 64 letters, digits, - or _');
  }
  if (!body || typeof body.pipe !== 'function') throw new ValidationError('Send the file\'s bytes as application/octet-stream');
  const existing = await fileIdByDocumentId(pool, schema, documentId);
  if (existing !== null) {
    await drain();
    return { id: Number(existing), created: false };
  }
  const { name, mime, info } = meta;
  if (typeof name !== 'string' || name.length === 0 || name.length > 255) {
    await drain();
    throw new ValidationError('name (the file\'s name) is required');
  }
  const quota = storageQuota(platform, tenant);
  await checkQuota(platform, schema, quota);
  const limit = maxUploadBytes(platform, tenant);
  let seen = 0;
  body.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > limit.bytes) body.destroy(new ValidationError(`The file is larger than this project's largest upload (${limit.bytes} bytes)`));
  });
  const stored = await platform.media.store(mediaProjectId, { filename: name, mimetype: mime, stream: body });
  if (!stored) throw new ValidationError('Empty files cannot be imported');
  const times = { createdAt: meta.createdAt, updatedAt: meta.updatedAt };
  try {
    const [id] = await platform.media.create(pool, { projectId: mediaProjectId, schema }, [stored], [info],
      (tx, ids) => setFileDocumentId(tx, schema, ids[0]!, documentId, times), quota);
    return { id: Number(id), created: true };
  } catch (err) {
    // Sent twice at once: the other request recorded it first.
    const again = await fileIdByDocumentId(pool, schema, documentId);
    if (again !== null) return { id: Number(again), created: false };
    throw err;
  }
}
