// The upload plugin's REST API: `POST /api/upload` (upload-writes.ts), `GET /api/upload/files`
// (bare array), `/files/page`, `GET`/`DELETE /api/upload/files/:id`. Bodies are bare, not `{data}`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { positiveId } from '@cms/documents';
import { paginationMeta, UPLOAD_FILE_UID } from '@cms/query';
import { emitMediaEvents } from '../webhook-events.ts';
import { callerHook } from './caller.ts';
import type { TenantOptions } from './options.ts';
import { pluginListRead, REST_LIMITS } from './rest-targets.ts';
import { fileNotFound, JSON_TYPE, sendFiles, signedFiles, signedJson, uploadContext, type UploadContext } from './upload-context.ts';
import { auditWhoOf } from '../audit/audit-context.ts';

// The bare list has no pagination meta; without `pagination` it answers up to this many files.
const FILE_LIST_LIMITS = { defaultLimit: 100, maxLimit: 1000 };

/** The bare list or the paged list of the request's query. */
const listRead = (request: FastifyRequest, ctx: UploadContext, paged: boolean) =>
  pluginListRead(request, ctx.runtime, ctx.access, UPLOAD_FILE_UID, request.query as Record<string, unknown>, paged ? REST_LIMITS : FILE_LIST_LIMITS);

export async function uploadRoutes(app: FastifyInstance, { platform }: TenantOptions): Promise<void> {
  const pool = platform.db.tenantPool;
  // Every upload route answers its caller (caller.ts).
  app.addHook('preHandler', callerHook(platform));

  app.get('/api/upload/files', async (request, reply) => {
    const ctx = await uploadContext(request, platform, 'find');
    const { json } = await listRead(request, ctx, false).find(pool);
    return reply.type(JSON_TYPE).send(signedJson(json));
  });

  app.get('/api/upload/files/page', async (request, reply) => {
    const ctx = await uploadContext(request, platform, 'find');
    const read = listRead(request, ctx, true);
    const { json, total } = await read.find(pool);
    return reply.type(JSON_TYPE).send(`{"data":${signedJson(json)},"meta":${JSON.stringify({ pagination: paginationMeta(read.plan, total) })}}`);
  });

  app.get<{ Params: { id: string } }>('/api/upload/files/:id', async (request, reply) => {
    const ctx = await uploadContext(request, platform, 'findOne');
    const id = positiveId(request.params.id);
    if (!id) throw fileNotFound();
    return sendFiles(reply, platform, ctx, [id], 200, true);
  });

  app.delete<{ Params: { id: string } }>('/api/upload/files/:id', async (request, reply) => {
    const ctx = await uploadContext(request, platform, 'destroy');
    const id = positiveId(request.params.id);
    if (!id) throw fileNotFound();
    // Strapi answers with the deleted file: read it, then delete it.
    const [file] = await signedFiles(platform, ctx, [id]);
    const removed = file !== undefined && await pool.transaction(async (tx) => {
      if (!(await platform.media.remove(tx, ctx.project, id))) return false;
      await emitMediaEvents(platform, tx, ctx.project.projectId, ctx.runtime, 'media.delete', [id], auditWhoOf(request), [file]);
      return true;
    });
    if (!removed) throw fileNotFound();
    return reply.type(JSON_TYPE).send(JSON.stringify(file));
  });
}
