// A project's locales (i18n).
import type { FastifyInstance } from 'fastify';
import { localeRoutes as schemas } from '@cms/management-api';
import type { LocaleRecord } from '@cms/tenancy';
import type { ManagementOptions } from './options.ts';
import { projectOf } from './request-context.ts';

const localeJson = ({ code, name, isDefault }: LocaleRecord) => ({ code, name, isDefault });

export async function localeRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  app.get('/projects/:slug/locales', { schema: schemas.list }, async (request) => ({
    locales: (await platform.locales.list(projectOf(request).id)).map(localeJson),
  }));

  app.post<{ Body: { code: string; name?: string; isDefault?: boolean } }>('/projects/:slug/locales', { schema: schemas.add }, async (request, reply) => {
    const locale = await platform.locales.add(projectOf(request), request.body);
    return reply.status(201).send({ locale: localeJson(locale) });
  });

  app.patch<{ Params: { slug: string; code: string }; Body: { name?: string; isDefault?: boolean } }>('/projects/:slug/locales/:code', { schema: schemas.update }, async (request) => {
    const locale = await platform.locales.update(projectOf(request), request.params.code, request.body);
    return { locale: localeJson(locale) };
  });

  app.delete<{ Params: { slug: string; code: string } }>('/projects/:slug/locales/:code', { schema: schemas.remove }, async (request, reply) => {
    const project = projectOf(request);
    // The content of the deleted locale is found through the model version the deletion locks.
    const physicalAt = async (modelVersion: number) => (await platform.runtimes.get({ ...project, modelVersion })).physical;
    await platform.locales.remove(project, request.params.code, physicalAt);
    return reply.status(204).send();
  });
}
