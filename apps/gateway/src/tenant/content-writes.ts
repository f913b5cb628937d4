// REST content API writes: `POST /api/:pluralApiId`, `PUT`/`DELETE /api/:pluralApiId/:documentId`,
// single types `PUT`/`DELETE /api/:singularApiId`. The answer is the written version read back
// with the request's `fields`/`populate`, like Strapi's controllers.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashPassword } from '@cms/auth';
import { createDocument, deleteDocument, updateDocument, writeLocale, type DocumentStore, type WriteResult } from '@cms/documents';
import { ForbiddenError, MethodNotAllowedError, NotFoundError, ValidationError } from '@cms/errors';
import { findOneStatement, parseQuery, type QueryAst } from '@cms/query';
import { callerHook } from './caller.ts';
import type { TenantOptions } from './options.ts';
import { planRead } from './content-routes.ts';
import { REST_LIMITS, resolveRoute, routeTarget, sendDocument, type RouteContext } from './rest-targets.ts';
import { addDbTime, addPlanTime, setServerTiming } from '../http/server-timing.ts';
import { documentEvents } from '../webhook-events.ts';
import { auditWhoOf } from '../audit/audit-context.ts';
import { writeOriginOf } from './request-context.ts';

const COLLECTION_METHODS = ['GET', 'POST'];
const DOCUMENT_METHODS = ['GET', 'PUT', 'DELETE'];

/** `data` of a write body: a JSON object, else Strapi's 400. */
function dataOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body as { data?: unknown } | null | undefined;
  const data = body !== null && typeof body === 'object' && !Array.isArray(body) ? body.data : undefined;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new ValidationError('Missing "data" payload in the request body');
  return data as Record<string, unknown>;
}

/** The locale a write targets on a localized type. */
function localeOf(ctx: RouteContext, requested: unknown): string {
  return writeLocale(ctx.tenant.localeCodes, ctx.tenant.project.defaultLocale, requested);
}

export async function contentWriteRoutes(app: FastifyInstance, { platform }: TenantOptions): Promise<void> {
  const pool = platform.db.tenantPool;
  // The writes answer their caller (caller.ts); a PATCH's 405 does not ask.
  const withCaller = { preHandler: callerHook(platform) };

  const storeOf = (request: FastifyRequest, ctx: RouteContext): DocumentStore => ({
    pool,
    schema: ctx.runtime.schemaName,
    model: ctx.runtime.model,
    physical: ctx.runtime.physical,
    defaultLocale: ctx.tenant.project.defaultLocale,
    hashPassword,
    admitDocument: platform.documentQuota.admission(ctx.tenant.project, ctx.runtime),
    emit: documentEvents(platform, ctx.tenant.project, ctx.runtime, auditWhoOf(request)),
    history: writeOriginOf(request, 'rest', platform.config.contentHistory),
  });

  async function prepare(request: FastifyRequest, name: string, documentId: string | null, action: 'create' | 'update' | 'delete') {
    const ctx = await resolveRoute(request, platform, name, documentId !== null);
    // POST is for collections; PUT/DELETE without a documentId only for single types.
    if (documentId === null && ctx.target.single === (action === 'create')) {
      throw new MethodNotAllowedError(ctx.target.single ? DOCUMENT_METHODS : COLLECTION_METHODS);
    }
    if (!ctx.access.can(ctx.target.type.uid, action)) throw new ForbiddenError();
    const started = performance.now();
    // Only the response-shaping parameters matter to a write; filters/sort/pagination are validated and ignored.
    const ast: QueryAst = parseQuery(request.query as Record<string, unknown>, REST_LIMITS);
    // Planning the answer's shape validates fields/populate before anything is written.
    if (action !== 'delete') responsePlan(ctx, ast, 'published', ctx.tenant.project.defaultLocale);
    addPlanTime(request, started);
    return { ctx, ast };
  }

  const responsePlan = (ctx: RouteContext, ast: QueryAst, status: 'draft' | 'published', locale: string) =>
    planRead(ctx, { sort: [], fields: ast.fields, populate: ast.populate }, status, locale);

  /** The read of the written version, shaped by the request's fields/populate: run by the write in its last statement. */
  const answerOf = (ctx: RouteContext, ast: QueryAst) => (written: WriteResult) =>
    findOneStatement(responsePlan(ctx, ast, written.status, written.locale ?? ctx.tenant.project.defaultLocale), written.documentId);

  function answered(written: WriteResult): string {
    if (written.answer == null) throw new NotFoundError();
    return written.answer;
  }

  app.post<{ Params: { name: string } }>('/api/:name', withCaller, async (request, reply) => {
    const { ctx, ast } = await prepare(request, request.params.name, null, 'create');
    const data = dataOf(request);
    // Ours: `?locale` wins, else `data.locale` (spec §4.2), else the default locale.
    const locale = ctx.target.type.localized ? localeOf(ctx, ast.locale ?? data.locale) : ctx.tenant.project.defaultLocale;
    const started = performance.now();
    const written = await createDocument(storeOf(request, ctx), {
      uid: ctx.target.type.uid, data, locale, status: ast.status ?? 'published',
      canFind: (uid) => ctx.access.can(uid, 'find'), answer: answerOf(ctx, ast),
    });
    addDbTime(request, started);
    return sendDocument(request, reply, ctx, answered(written), 201);
  });

  async function update(request: FastifyRequest, name: string, documentId: string | null) {
    const { ctx, ast } = await prepare(request, name, documentId, 'update');
    const data = dataOf(request);
    const locale = ctx.target.type.localized ? localeOf(ctx, ast.locale) : ctx.tenant.project.defaultLocale;
    const started = performance.now();
    const written = await updateDocument(storeOf(request, ctx), {
      uid: ctx.target.type.uid, documentId, data, locale, status: ast.status ?? 'published',
      canFind: (uid) => ctx.access.can(uid, 'find'),
      canCreateLocalization: ctx.access.can(ctx.target.type.uid, 'createLocalization'), answer: answerOf(ctx, ast),
    });
    addDbTime(request, started);
    return { ctx, json: answered(written) };
  }

  async function remove(request: FastifyRequest, name: string, documentId: string | null): Promise<void> {
    const { ctx, ast } = await prepare(request, name, documentId, 'delete');
    const started = performance.now();
    await deleteDocument(storeOf(request, ctx), { uid: ctx.target.type.uid, documentId, locale: ast.locale ?? ctx.tenant.project.defaultLocale });
    addDbTime(request, started);
  }

  app.put<{ Params: { name: string } }>('/api/:name', withCaller, async (request, reply) => {
    const { ctx, json } = await update(request, request.params.name, null);
    return sendDocument(request, reply, ctx, json);
  });
  app.put<{ Params: { name: string; documentId: string } }>('/api/:name/:documentId', withCaller, async (request, reply) => {
    const { ctx, json } = await update(request, request.params.name, request.params.documentId);
    return sendDocument(request, reply, ctx, json);
  });
  app.delete<{ Params: { name: string } }>('/api/:name', withCaller, async (request, reply) => {
    await remove(request, request.params.name, null);
    setServerTiming(request, reply);
    return reply.status(204).send();
  });
  app.delete<{ Params: { name: string; documentId: string } }>('/api/:name/:documentId', withCaller, async (request, reply) => {
    await remove(request, request.params.name, request.params.documentId);
    setServerTiming(request, reply);
    return reply.status(204).send();
  });
  // Strapi has no PATCH; ours answers 405 in the envelope with an Allow header.
  app.patch<{ Params: { name: string } }>('/api/:name', async (request) => {
    const target = await routeTarget(request, platform, request.params.name);
    throw new MethodNotAllowedError(target.single ? DOCUMENT_METHODS : COLLECTION_METHODS);
  });
  app.patch('/api/:name/:documentId', async () => {
    throw new MethodNotAllowedError(DOCUMENT_METHODS);
  });
}
