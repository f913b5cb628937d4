// `POST /api/upload`: new files (optionally attached to an entry), or with `?id=` one file's new
// content or info. Files are streamed into storage as they arrive (upload-receive.ts); rows are
// written only once every part was read and checked. Each write's `media.*` webhook events are
// written with it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { positiveId } from '@cms/documents';
import { ValidationError } from '@cms/errors';
import { assertWithinQuota, parseFileInfo, parseFileInfos, type FileInfo } from '@cms/media';
import type { Platform } from '../platform.ts';
import { emitMediaEvents } from '../webhook-events.ts';
import { auditWhoOf } from '../audit/audit-context.ts';
import { callerHook } from './caller.ts';
import type { TenantOptions } from './options.ts';
import { fileNotFound, sendFiles, uploadContext, type UploadContext } from './upload-context.ts';
import { checkQuota, maxUploadBytes, storageQuota } from '../upload-limits.ts';
import { linkTarget, type LinkFiles } from './upload-link.ts';
import { receiveUpload } from './upload-receive.ts';

export async function uploadWriteRoutes(app: FastifyInstance, { platform }: TenantOptions): Promise<void> {
  // Its caller is resolved before any file part is read (caller.ts).
  app.post('/api/upload', { preHandler: callerHook(platform) }, async (request, reply) => {
    const id = (request.query as { id?: unknown }).id;
    const ctx = await uploadContext(request, platform, 'upload');
    if (id !== undefined) return replaceOrUpdate(platform, request, reply, ctx, id);
    return createFiles(platform, request, reply, ctx);
  });
}

async function createFiles(platform: Platform, request: FastifyRequest, reply: FastifyReply, ctx: UploadContext) {
  const media = platform.media;
  if (!request.isMultipart()) throw new ValidationError('Files are empty');
  const quota = storageQuota(platform, ctx.tenant);
  await checkQuota(platform, ctx.project.schema, quota);
  const received = await receiveUpload(request, { media, projectId: ctx.project.projectId, replacing: undefined, fileSize: maxUploadBytes(platform, ctx.tenant) });
  let infos: FileInfo[];
  let link: LinkFiles | undefined;
  try {
    if (received.uploads.length === 0) throw new ValidationError('Files are empty');
    if (received.emptyFiles > 0) throw new ValidationError('Empty files cannot be uploaded');
    infos = parseFileInfos(received.fileInfo, received.uploads.length);
    link = linkTarget(ctx, received.fields);
  } catch (err) {
    await media.discard(received.uploads);
    throw err;
  }
  // create() deletes the stored objects itself when recording them fails (the quota is checked
  // again there, under a per-project lock, with the uploads' real sizes).
  // The files' `media.create` events are written in the same transaction as their rows.
  const linkAndEmit: LinkFiles = async (tx, fileIds) => {
    await link?.(tx, fileIds);
    await emitMediaEvents(platform, tx, ctx.project.projectId, ctx.runtime, 'media.create', fileIds, auditWhoOf(request));
  };
  const ids = await media.create(platform.db.tenantPool, ctx.project, received.uploads, infos, linkAndEmit, quota);
  return sendFiles(reply, platform, ctx, ids, 201, false);
}

/** `?id=`: one file part replaces the content; otherwise only `fileInfo` changes. */
async function replaceOrUpdate(platform: Platform, request: FastifyRequest, reply: FastifyReply, ctx: UploadContext, rawId: unknown) {
  const { media, db: { pool } } = platform;
  const id = positiveId(rawId);
  const before = id ? await media.findRow(pool, ctx.project.schema, id) : null;
  if (!before) throw fileNotFound();
  if (!request.isMultipart()) {
    const body = request.body as { fileInfo?: unknown } | null | undefined;
    const info = parseFileInfo(body !== null && typeof body === 'object' && !Array.isArray(body) ? body.fileInfo : undefined);
    if (!(await updateInfoAndEmit(platform, request, ctx, before.id, info))) throw fileNotFound();
    return sendFiles(reply, platform, ctx, [before.id], 200, true);
  }
  const quota = storageQuota(platform, ctx.tenant);
  const used = await checkQuota(platform, ctx.project.schema, quota);
  const received = await receiveUpload(request, { media, projectId: ctx.project.projectId, replacing: before, fileSize: maxUploadBytes(platform, ctx.tenant) });
  let info: FileInfo;
  try {
    if (received.uploads.length + received.emptyFiles > 1) throw new ValidationError('Cannot replace a file with multiple ones');
    if (received.emptyFiles > 0) throw new ValidationError('Empty files cannot be uploaded');
    info = received.fileInfo.length ? parseFileInfo(received.fileInfo[0]) : {};
    // The new content takes the old one's place.
    const upload = received.uploads[0];
    if (quota !== undefined && upload) assertWithinQuota(used - Math.round(before.size * 1000), upload.bytes, quota);
  } catch (err) {
    await media.discard(received.uploads);
    throw err;
  }
  const upload = received.uploads[0];
  // A replace spans storage and rows and waits for the new formats (made by jobs reading the
  // committed row): its event is written right after it, in a transaction of its own.
  const found = upload
    ? await media.replace(pool, ctx.project, before, upload, info)
    : await updateInfoAndEmit(platform, request, ctx, before.id, info);
  if (found && upload) await pool.transaction((tx) => emitMediaEvents(platform, tx, ctx.project.projectId, ctx.runtime, 'media.update', [before.id], auditWhoOf(request)));
  if (!found) throw fileNotFound();
  return sendFiles(reply, platform, ctx, [before.id], 200, true);
}

/** Change a file's info and write its `media.update` event, in one transaction. */
function updateInfoAndEmit(platform: Platform, request: FastifyRequest, ctx: UploadContext, id: string, info: FileInfo): Promise<boolean> {
  return platform.db.tenantPool.transaction(async (tx) => {
    const found = await platform.media.updateInfo(tx, ctx.project.schema, id, info);
    if (found) await emitMediaEvents(platform, tx, ctx.project.projectId, ctx.runtime, 'media.update', [id], auditWhoOf(request));
    return found;
  });
}
