// Preview (management-api.md § Preview and draft access, docs/preview.md): the project's draft
// access rule and preview URL templates, and a document's preview URL (the dashboard's "Open
// preview"). Any member reads; owners and editors change the settings (access.ts, by method), as
// every other settings route. A change invalidates the project on every gateway, so the content
// API applies the new rule at its next request.
import type { FastifyInstance } from 'fastify';
import { NotFoundError, ValidationError, type FieldError } from '@cms/errors';
import { previewRoutes as schemas } from '@cms/management-api';
import type { ContentType } from '@cms/schema';
import { fillPreviewUrl, parsePreviewSettings, previewSettingsOf, type PreviewTarget } from '../preview-settings.ts';
import type { ManagementOptions } from './options.ts';
import { projectOf } from './request-context.ts';

interface PreviewUrlQuery {
  contentType?: unknown;
  documentId?: unknown;
  locale?: unknown;
  status?: unknown;
}

/** The document a preview URL is for; the values a template may name (bounded, strings). */
function previewTarget(query: PreviewUrlQuery, type: ContentType, defaultLocale: string): PreviewTarget {
  const errors: FieldError[] = [];
  const text = (key: 'documentId' | 'locale', max: number): string | undefined => {
    const value = query[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.length > max) errors.push({ path: [key], message: `${key} must be a string of at most ${max} characters`, name: 'ValidationError' });
    else return value;
    return undefined;
  };
  const documentId = text('documentId', 64) ?? '';
  const locale = text('locale', 35) ?? (type.localized ? defaultLocale : '');
  // A type without draft & publish has its published rows only.
  let status: PreviewTarget['status'] = type.draftAndPublish ? 'draft' : 'published';
  if (query.status !== undefined) {
    if (query.status === 'draft' || query.status === 'published') status = query.status;
    else errors.push({ path: ['status'], message: 'status must be "draft" or "published"', name: 'ValidationError' });
  }
  if (errors.length > 0) throw ValidationError.fromFieldErrors(errors);
  return { documentId, locale, status };
}

export async function previewRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  app.get('/projects/:slug/settings/preview', { schema: schemas.get }, async (request) => ({ preview: previewSettingsOf(projectOf(request).settings) }));

  // The body and the query are checked here, naming each bad field: the schema's verdict is attached
  // (attachValidation) and left to the handlers.
  app.put('/projects/:slug/settings/preview', { schema: schemas.put, attachValidation: true }, async (request) => {
    const project = projectOf(request);
    const { model } = await platform.runtimes.get(project);
    const preview = parsePreviewSettings(request.body, previewSettingsOf(project.settings), model);
    await platform.projects.updateSettings(project, 'preview', preview);
    return { preview };
  });

  app.get<{ Querystring: PreviewUrlQuery }>('/projects/:slug/preview-url', { schema: schemas.url, attachValidation: true }, async (request, reply) => {
    const project = projectOf(request);
    const { contentType } = request.query;
    if (typeof contentType !== 'string' || contentType === '') {
      throw ValidationError.fromFieldErrors([{ path: ['contentType'], message: 'contentType (a content type uid) is required', name: 'ValidationError' }]);
    }
    const { model } = await platform.runtimes.get(project);
    if (!Object.hasOwn(model.contentTypes, contentType)) throw new NotFoundError('Content type not found');
    const type = model.contentTypes[contentType]!;
    const target = previewTarget(request.query, type, project.defaultLocale);
    const { urls } = previewSettingsOf(project.settings);
    if (!Object.hasOwn(urls, contentType)) return reply.status(204).send();
    return { data: { url: fillPreviewUrl(urls[contentType]!, type, target) } };
  });
}
