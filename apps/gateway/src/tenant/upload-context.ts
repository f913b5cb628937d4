// What every upload route resolves first (project, model, caller) and how it answers with files:
// bare JSON, not `{data}`, each file with `isUrlSigned` (populated media do not carry it).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError, NotFoundError } from '@cms/errors';
import type { WriteOrigin } from '@cms/documents';
import type { ProjectFiles } from '@cms/media';
import { UPLOAD_FILE_UID } from '@cms/query';
import type { ProjectRuntime, TenantEntry } from '@cms/tenancy';
import type { Platform } from '../platform.ts';
import type { Access } from './access.ts';
import { accessOf } from './caller.ts';
import { tenantOf, writeOriginOf } from './request-context.ts';
import { pluginRowsJson } from './rest-targets.ts';

const UPLOAD = 'plugin::upload';
export const JSON_TYPE = 'application/json; charset=utf-8';

export interface UploadContext {
  tenant: TenantEntry;
  runtime: ProjectRuntime;
  access: Access;
  project: ProjectFiles;
  /** Content history of the entry an upload links its files to (upload-link.ts). */
  history: WriteOrigin | null;
}

export const fileNotFound = () => new NotFoundError('file.notFound');

/** The context of an upload route whose caller (caller.ts) must hold one of `actions` on the upload plugin. */
export async function uploadContext(request: FastifyRequest, platform: Platform, ...actions: string[]): Promise<UploadContext> {
  const tenant = tenantOf(request);
  const access = accessOf(request);
  if (!actions.some((a) => access.can(UPLOAD, a))) throw new ForbiddenError();
  const runtime = await platform.runtimes.get(tenant.project);
  return {
    tenant, runtime, access, project: { projectId: tenant.project.id, schema: runtime.schemaName },
    history: writeOriginOf(request, 'rest', platform.config.contentHistory),
  };
}

/** Answers of the upload API carry `isUrlSigned`. */
const withUrlSigned = (files: Array<Record<string, unknown>>) => files.map((f) => ({ ...f, isUrlSigned: false }));
export const signedJson = (json: string) => JSON.stringify(withUrlSigned(JSON.parse(json) as Array<Record<string, unknown>>));

/** Files by id, in id order, as the caller may see them. */
export async function signedFiles(platform: Platform, ctx: UploadContext, ids: readonly string[]): Promise<Array<Record<string, unknown>>> {
  const json = await pluginRowsJson(platform.db.tenantPool, ctx.runtime, ctx.access, UPLOAD_FILE_UID, ids);
  return withUrlSigned(JSON.parse(json) as Array<Record<string, unknown>>);
}

/** The files as a bare array, or (`single`) the one file, 404 when it is not there. */
export async function sendFiles(reply: FastifyReply, platform: Platform, ctx: UploadContext, ids: string[], status: number, single: boolean) {
  const files = await signedFiles(platform, ctx, ids);
  if (single && files.length === 0) throw fileNotFound();
  return reply.status(status).type(JSON_TYPE).send(JSON.stringify(single ? files[0] : files));
}
