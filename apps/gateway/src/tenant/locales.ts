// `GET /api/i18n/locales` — the i18n plugin's content API, as Strapi v5 serves it.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { tenantOf } from './index.ts';

/** Locales have no row of their own in a project schema; derive a stable documentId. */
function localeDocumentId(projectId: number, code: string): string {
  const h = createHash('sha256').update(`${projectId}:locale:${code}`).digest('hex');
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let id = alphabet[parseInt(h.slice(0, 2), 16) % 26]!;
  for (let i = 2; id.length < 24; i += 2) id += alphabet[parseInt(h.slice(i, i + 2), 16) % 36];
  return id;
}

export function registerLocaleRoutes(app: FastifyInstance): void {
  app.get('/api/i18n/locales', async (request) => {
    const { project, locales } = tenantOf(request);
    return locales.map((l, i) => ({
      id: i + 1,
      documentId: localeDocumentId(project.id, l.code),
      name: l.name,
      code: l.code,
      createdAt: l.createdAt,
      updatedAt: l.createdAt,
      publishedAt: l.createdAt,
      isDefault: l.isDefault,
    }));
  });
}
