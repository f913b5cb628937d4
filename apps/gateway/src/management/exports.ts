// Exports and backups of a project (management-api.md § Exports, backups and deleted projects):
// archives in the layout of `strapi export --no-encrypt`, written in the background
// (@cms/transfer) and downloaded through the management API. Backups are the same archives kept
// for the plan's retention (daily ones started by maintenance.ts, manual ones here). An archive
// holds every end user's password hash: owners only, reads included.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { backupRetentionDays } from '@cms/billing';
import { NotFoundError, ValidationError } from '@cms/errors';
import { backupRoutes as backupSchemas, exportRoutes as exportSchemas } from '@cms/management-api';
import type { ArchiveRecord } from '@cms/transfer';
import type { ManagementOptions } from './options.ts';
import { projectOf, requestOrigin } from './request-context.ts';

const OWNERS = { access: 'owner' as const };
// The (empty) bodies are checked by assertNoOptions, in its words: the schema's verdict is attached
// (attachValidation) and left to it.
const PARSED_HERE = { attachValidation: true } as const;

interface ArchiveRoute {
  Params: { slug: string; id: string };
}

/** The download address of a finished archive (null until it is done). */
export function archiveUrl(request: FastifyRequest, slug: string, record: ArchiveRecord, collection: 'exports' | 'backups'): string | null {
  return record.status === 'done' ? `${requestOrigin(request)}/v1/projects/${slug}/${collection}/${record.id}/download` : null;
}

function exportJson(request: FastifyRequest, slug: string, record: ArchiveRecord) {
  return {
    id: record.id,
    status: record.status,
    size: record.size,
    url: archiveUrl(request, slug, record, 'exports'),
    createdAt: record.createdAt,
    finishedAt: record.finishedAt,
    error: record.error,
    counts: record.counts,
  };
}

/** An object body or none: the route takes no options yet, and says so rather than ignoring them. */
function assertNoOptions(body: unknown): void {
  if (body === undefined || body === null) return;
  if (typeof body !== 'object' || Array.isArray(body)) throw new ValidationError('The body must be a JSON object');
  const keys = Object.keys(body);
  if (keys.length) throw new ValidationError(`Unknown key ${keys[0]!.slice(0, 100)}`, { key: keys[0]!.slice(0, 100) });
}

export async function exportRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  app.post<{ Params: { slug: string } }>('/projects/:slug/exports', { config: OWNERS, schema: exportSchemas.start, ...PARSED_HERE }, async (request, reply) => {
    assertNoOptions(request.body);
    const project = projectOf(request);
    const record = await platform.archives.start(project, 'export');
    return reply.status(202).send({ export: { id: record.id, status: record.status } });
  });

  app.get<ArchiveRoute>('/projects/:slug/exports/:id', { config: OWNERS, schema: exportSchemas.get }, async (request) => {
    const project = projectOf(request);
    const record = await platform.archiveStore.get(project.id, request.params.id);
    if (!record || record.kind !== 'export') throw new NotFoundError('export.notFound');
    return { export: exportJson(request, project.slug, record) };
  });

  app.get<ArchiveRoute>('/projects/:slug/exports/:id/download', { config: OWNERS, schema: exportSchemas.download }, async (request, reply) => {
    const project = projectOf(request);
    const record = await platform.archiveStore.get(project.id, request.params.id);
    if (!record || record.kind !== 'export' || record.status !== 'done') throw new NotFoundError('export.notFound');
    return sendArchive(platform, reply, record, `${project.slug}-export-${record.createdAt.slice(0, 10)}.tar.gz`);
  });
}

/** Streams a stored archive as an attachment. */
export async function sendArchive(platform: ManagementOptions['platform'], reply: FastifyReply, record: ArchiveRecord, fileName: string) {
  const stored = await platform.media.readArchive(record.storageKey);
  if (!stored) throw new NotFoundError('archive.notFound');
  return reply
    .header('content-type', 'application/gzip')
    .header('content-length', String(stored.size))
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'private, no-store')
    .send(stored.body);
}

function backupJson(record: ArchiveRecord) {
  return {
    id: record.id,
    kind: record.kind,
    status: record.status,
    size: record.size,
    createdAt: record.createdAt,
    expiresAt: record.expiresAt,
    error: record.error,
  };
}

export async function backupRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  app.get('/projects/:slug/backups', { config: OWNERS, schema: backupSchemas.list }, async (request) => {
    const project = projectOf(request);
    const records = await platform.archiveStore.list(project.id, ['scheduled', 'manual']);
    return { backups: records.map((r) => ({ ...backupJson(r), url: archiveUrl(request, project.slug, r, 'backups') })) };
  });

  app.post<{ Params: { slug: string } }>('/projects/:slug/backups', { config: OWNERS, schema: backupSchemas.start, ...PARSED_HERE }, async (request, reply) => {
    assertNoOptions(request.body);
    const project = projectOf(request);
    const record = await platform.archives.start(project, 'manual', { keepDays: backupRetentionDays(project) });
    return reply.status(202).send({ backup: backupJson(record) });
  });

  app.get<ArchiveRoute>('/projects/:slug/backups/:id/download', { config: OWNERS, schema: backupSchemas.download }, async (request, reply) => {
    const project = projectOf(request);
    const record = await platform.archiveStore.get(project.id, request.params.id);
    if (!record || record.kind === 'export' || record.status !== 'done') throw new NotFoundError('backup.notFound');
    return sendArchive(platform, reply, record, `${project.slug}-backup-${record.createdAt.slice(0, 10)}.tar.gz`);
  });
}
