// The upload plugin's REST API: `POST /api/upload` (multipart; `?id=` replaces a
// file or changes its info), `GET /api/upload/files` (bare array), `/files/page`,
// `GET`/`DELETE /api/upload/files/:id`. Bodies are bare, not `{data}`. Files are streamed into
// storage as they arrive; rows are written only once every part was read and checked.
import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { effectivePlan, planLimits } from '@cms/billing';
import { column, qualify } from '@cms/db';
import { positiveId } from '@cms/documents';
import { AppError, ForbiddenError, NotFoundError, PayloadTooLargeError, ValidationError } from '@cms/errors';
import {
  assertWithinQuota, linkFiles, parseFileInfo, parseFileInfos, parseFileInfoText, storageQuotaError,
  type FileInfo, type FileRow, type ProjectFiles, type StorageQuota, type StoredUpload,
} from '@cms/media';
import { paginationMeta, UPLOAD_FILE_UID } from '@cms/query';
import type { ProjectRuntime, TenantEntry } from '@cms/tenancy';
import type { Platform } from '../platform.ts';
import type { Services } from '../services.ts';
import { resolveAccess, type Access } from './access.ts';
import { tenantOf } from './request-context.ts';
import { pluginListRead, pluginRowsJson, REST_LIMITS } from './rest-targets.ts';

const UPLOAD = 'plugin::upload';
const JSON_TYPE = 'application/json; charset=utf-8';
// The bare list has no pagination meta; without `pagination` it answers up to this many files.
const FILE_LIST_LIMITS = { defaultLimit: 100, maxLimit: 1000 };
const MULTIPART_LIMITS = { fieldNameSize: 100, fieldSize: 1024 * 1024, fields: 40, files: 20, headerPairs: 200, parts: 60 };
const FIELDS = new Set(['fileInfo', 'ref', 'refId', 'field', 'path']);

interface UploadContext {
  tenant: TenantEntry;
  runtime: ProjectRuntime;
  access: Access;
  project: ProjectFiles;
}

const fileNotFound = () => new NotFoundError('file.notFound');

export function registerUploadRoutes(app: FastifyInstance, platform: Platform, services: Services): void {
  const pool = platform.db.pool;
  const media = platform.media;

  async function contextOf(request: FastifyRequest, ...actions: string[]): Promise<UploadContext> {
    const tenant = tenantOf(request);
    const access = await resolveAccess(request, tenant, services);
    if (!actions.some((a) => access.can(UPLOAD, a))) throw new ForbiddenError();
    const runtime = await platform.runtimes.get(tenant.project);
    return { tenant, runtime, access, project: { projectId: tenant.project.id, schema: runtime.schemaName } };
  }

  /** Files by id, in id order, as a JSON array text. */
  const filesJson = (ctx: UploadContext, ids: readonly string[]) => pluginRowsJson(pool, ctx.runtime, ctx.access, UPLOAD_FILE_UID, ids);

  /** Answers of the upload API carry `isUrlSigned` (populated media do not). */
  const withUrlSigned = (files: Array<Record<string, unknown>>) => files.map((f) => ({ ...f, isUrlSigned: false }));
  const signedJson = (json: string) => JSON.stringify(withUrlSigned(JSON.parse(json) as Array<Record<string, unknown>>));

  async function sendFiles(reply: FastifyReply, ctx: UploadContext, ids: string[], status: number, single: boolean) {
    const files = withUrlSigned(JSON.parse(await filesJson(ctx, ids)) as Array<Record<string, unknown>>);
    if (single && files.length === 0) throw fileNotFound();
    return reply.status(status).type(JSON_TYPE).send(JSON.stringify(single ? files[0] : files));
  }

  /** The largest file the project may upload: its plan's, or the operator's cap when lower. */
  const maxUploadBytes = (tenant: TenantEntry): FileSizeLimit => {
    const plan = effectivePlan(tenant.project);
    const planBytes = planLimits(plan).maxUploadBytes;
    const cap = platform.config.media.maxUploadBytes;
    return cap !== undefined && cap < planBytes ? { bytes: cap } : { bytes: planBytes, plan };
  };

  /** Bytes the project's files may take: the plan's quota when plan limits are on, the operator's cap. */
  const storageQuota = (tenant: TenantEntry): StorageQuota | undefined => {
    const cap = platform.config.media.storageQuotaBytes;
    if (!platform.config.limits.plans) return cap === undefined ? undefined : { bytes: cap };
    const plan = effectivePlan(tenant.project);
    const planBytes = planLimits(plan).storageBytes;
    return cap !== undefined && cap < planBytes ? { bytes: cap } : { bytes: planBytes, plan };
  };

  /** A project already at its quota is refused before any byte is stored (reads and deletes keep working). */
  async function checkQuota(ctx: UploadContext, quota: StorageQuota | undefined): Promise<number> {
    if (quota === undefined) return 0;
    const used = await media.storedBytes(pool, ctx.project.schema);
    if (used >= quota.bytes) throw storageQuotaError(used, quota);
    return used;
  }

  app.post('/api/upload', async (request, reply) => {
    const id = (request.query as { id?: unknown }).id;
    const ctx = await contextOf(request, 'upload');
    if (id !== undefined) return replaceOrUpdate(request, reply, ctx, id);
    if (!request.isMultipart()) throw new ValidationError('Files are empty');
    const quota = storageQuota(ctx.tenant);
    await checkQuota(ctx, quota);
    const received = await receive(request, ctx, undefined);
    let infos: FileInfo[];
    let link: ReturnType<typeof linkTarget>;
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
    const ids = await media.create(pool, ctx.project, received.uploads, infos, link, quota);
    return sendFiles(reply, ctx, ids, 201, false);
  });

  /** `?id=`: one file part replaces the content; otherwise only `fileInfo` changes. */
  async function replaceOrUpdate(request: FastifyRequest, reply: FastifyReply, ctx: UploadContext, rawId: unknown) {
    const id = positiveId(rawId);
    const before = id ? await media.findRow(pool, ctx.project.schema, id) : null;
    if (!before) throw fileNotFound();
    if (!request.isMultipart()) {
      const body = request.body as { fileInfo?: unknown } | null | undefined;
      const info = parseFileInfo(body !== null && typeof body === 'object' && !Array.isArray(body) ? body.fileInfo : undefined);
      if (!(await media.updateInfo(pool, ctx.project.schema, before.id, info))) throw fileNotFound();
      return sendFiles(reply, ctx, [before.id], 200, true);
    }
    const quota = storageQuota(ctx.tenant);
    const used = await checkQuota(ctx, quota);
    const received = await receive(request, ctx, before);
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
    const found = upload
      ? await media.replace(pool, ctx.project, before, upload, info)
      : await media.updateInfo(pool, ctx.project.schema, before.id, info);
    if (!found) throw fileNotFound();
    return sendFiles(reply, ctx, [before.id], 200, true);
  }

  interface Received {
    uploads: StoredUpload[];
    /** Parts with a file name but no bytes. */
    emptyFiles: number;
    fileInfo: unknown[];
    fields: Record<string, string>;
  }

  /**
   * Read every part: `files` are streamed into storage (under `replacing`'s hash when given),
   * text fields collected. On any failure the parts stored so far are deleted.
   */
  async function receive(request: FastifyRequest, ctx: UploadContext, replacing: FileRow | undefined): Promise<Received> {
    const received: Received = { uploads: [], emptyFiles: 0, fileInfo: [], fields: {} };
    const fileSize = maxUploadBytes(ctx.tenant);
    checkBoundary(request.headers['content-type']);
    try {
      for await (const part of request.parts({ limits: { ...MULTIPART_LIMITS, fileSize: fileSize.bytes } }) as AsyncIterable<Multipart>) {
        if (part.type === 'file') {
          await receiveFile(ctx, part, received, replacing, fileSize);
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
      await media.discard(received.uploads);
      throw uploadError(err, fileSize);
    }
    return received;
  }

  async function receiveFile(ctx: UploadContext, part: MultipartFile, received: Received, replacing: FileRow | undefined, fileSize: FileSizeLimit) {
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
    const stored = await media.store(ctx.project.projectId, { filename: part.filename, mimetype: part.mimetype, stream: part.file }, replacing);
    if (!stored) {
      received.emptyFiles++;
      return;
    }
    if (part.file.truncated) {
      await media.discard([stored]);
      throw tooBig(fileSize);
    }
    received.uploads.push(stored);
  }

  /** `ref`/`refId`/`field`: attach the new files to one row's media attribute, inside the insert's transaction. */
  function linkTarget(ctx: UploadContext, fields: Record<string, string>) {
    const { ref, refId, field } = fields;
    if (ref === undefined && refId === undefined && field === undefined) return undefined;
    if (ref === undefined || refId === undefined || field === undefined) throw new ValidationError('ref, refId and field must be given together');
    const { model, physical } = ctx.runtime;
    const type = Object.hasOwn(model.contentTypes, ref) ? model.contentTypes[ref] : undefined;
    const attr = type && Object.hasOwn(type.attributes, field) ? type.attributes[field] : undefined;
    const phys = attr ? physical.contentTypes[ref]!.attributes[field] : undefined;
    if (!type || !attr || attr.kind !== 'media' || phys?.kind !== 'media') throw new ValidationError(`${ref}.${field} is not a media field`.slice(0, 300));
    const rowId = positiveId(refId);
    if (!rowId) throw new ValidationError('refId must be the numeric id of an entry');
    // Attaching files changes the entry, which the caller must be allowed to do.
    if (!ctx.access.can(ref, 'update')) throw new ForbiddenError();
    const table = physical.contentTypes[ref]!.table;
    return async (tx: Parameters<typeof linkFiles>[0], fileIds: string[]) => {
      // Every row of the entry's document (drafts and published; only the row's locale when the
      // field is localized), so publishing later keeps the link.
      const rows = await column(tx, documentRowsSql(ctx.project.schema, table, attr.localized), [rowId]);
      if (rows.length === 0) throw new ValidationError(`No ${ref} entry has id ${rowId}`);
      for (const row of rows) await linkFiles(tx, ctx.project.schema, phys.linkTable, row, fileIds, attr.multiple);
    };
  }

  // Reads: the bare list, the paged list and one file.
  const listRead = (request: FastifyRequest, ctx: UploadContext, paged: boolean) =>
    pluginListRead(request, ctx.runtime, ctx.access, UPLOAD_FILE_UID, request.query as Record<string, unknown>, paged ? REST_LIMITS : FILE_LIST_LIMITS);

  app.get('/api/upload/files', async (request, reply) => {
    const ctx = await contextOf(request, 'find');
    const { json } = await listRead(request, ctx, false).find(pool);
    return reply.type(JSON_TYPE).send(signedJson(json));
  });

  app.get('/api/upload/files/page', async (request, reply) => {
    const ctx = await contextOf(request, 'find');
    const read = listRead(request, ctx, true);
    const { json, total } = await read.find(pool);
    return reply.type(JSON_TYPE).send(`{"data":${signedJson(json)},"meta":${JSON.stringify({ pagination: paginationMeta(read.plan, total) })}}`);
  });

  app.get<{ Params: { id: string } }>('/api/upload/files/:id', async (request, reply) => {
    const ctx = await contextOf(request, 'findOne');
    const id = positiveId(request.params.id);
    if (!id) throw fileNotFound();
    return sendFiles(reply, ctx, [id], 200, true);
  });

  app.delete<{ Params: { id: string } }>('/api/upload/files/:id', async (request, reply) => {
    const ctx = await contextOf(request, 'destroy');
    const id = positiveId(request.params.id);
    if (!id) throw fileNotFound();
    // Strapi answers with the deleted file: read it, then delete it.
    const [file] = withUrlSigned(JSON.parse(await filesJson(ctx, [id])) as Array<Record<string, unknown>>);
    if (!file || !(await media.remove(pool, ctx.project, id))) throw fileNotFound();
    return reply.type(JSON_TYPE).send(JSON.stringify(file));
  });
}

/** Ids of every row of the document that row $1 belongs to (of its locale only, when `sameLocale`). */
function documentRowsSql(schema: string, table: string, sameLocale: boolean): string {
  const t = qualify(schema, table);
  return `SELECT r.id::text FROM ${t} r JOIN ${t} given ON given.document_id = r.document_id ` +
    `${sameLocale ? 'AND given.locale IS NOT DISTINCT FROM r.locale ' : ''}WHERE given.id = $1 ORDER BY r.id`;
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

/** Files larger than this are refused; `plan` when the limit is the project's plan's. */
interface FileSizeLimit {
  bytes: number;
  plan?: string;
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
