// `GET /api/i18n/locales` — the i18n plugin's content API, as Strapi v5 serves it.
import type { FastifyInstance } from 'fastify';
import { localeDocuments } from '@cms/tenancy';
import { tenantOf } from './request-context.ts';

export async function localeRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/i18n/locales', async (request) => localeDocuments(tenantOf(request)));
}
