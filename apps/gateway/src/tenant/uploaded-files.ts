// `GET /uploads/{file}` of a project: its stored media, for local-disk storage (whose URLs are
// `/uploads/…`) and as a fallback for the others. Public, like Strapi's public folder. Served
// with a sandboxing CSP so an uploaded HTML or SVG file cannot run script on the project's origin
// (nosniff comes with every answer: see http/browser-access.ts).
import { extname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '@cms/errors';
import type { TenantOptions } from './options.ts';
import { tenantOf } from './request-context.ts';

const FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

const CONTENT_TYPES: Record<string, string> = {
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp',
  '.avif': 'image/avif', '.tif': 'image/tiff', '.tiff': 'image/tiff', '.svg': 'image/svg+xml', '.ico': 'image/vnd.microsoft.icon',
  '.bmp': 'image/bmp', '.pdf': 'application/pdf', '.json': 'application/json', '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8', '.mp4': 'video/mp4', '.webm': 'video/webm', '.mov': 'video/quicktime',
  '.mp3': 'audio/mpeg', '.wav': 'audio/wav', '.ogg': 'audio/ogg', '.zip': 'application/zip',
};

export async function uploadedFileRoutes(app: FastifyInstance, { platform }: TenantOptions): Promise<void> {
  app.get<{ Params: { file: string } }>('/uploads/:file', async (request, reply) => {
    const { file } = request.params;
    if (!FILE_NAME.test(file) || file.includes('..')) throw new NotFoundError();
    const { project } = tenantOf(request);
    // An environment's files are its parent's until it stores its own (copy on write).
    const body = await platform.media.open(project.id, file) ?? (project.parentId ? await platform.media.open(project.parentId, file) : null);
    if (!body) throw new NotFoundError();
    return reply
      .type(CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream')
      .header('content-security-policy', "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox")
      .header('cache-control', 'public, max-age=60')
      .send(body);
  });
}
