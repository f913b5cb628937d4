// Preview and draft access (`/v1/projects/{slug}/settings/preview`, `…/preview-url`): who may read
// drafts through the content API, and the preview URL templates the dashboard's editor opens.
import { NO_PROJECT, withErrors } from '../errors.ts';
import { defineRoute, noContent } from '../route.ts';
import { answerWith } from '../shapes.ts';

/** A project's preview settings. */
const PreviewSettings = {
  type: 'object',
  required: ['draftAccess', 'urls'],
  properties: {
    draftAccess: {
      type: 'string', enum: ['find', 'preview'],
      description: '`find` (default, Strapi\'s rule): whoever may `find` a type reads its drafts; `preview`: draft reads need a full-access token or the type\'s `preview` action',
    },
    urls: {
      type: 'object', additionalProperties: { type: 'string' },
      description: 'Content type uid → URL template (an absolute http(s) URL of at most 2048 characters; placeholders `{type}` (the singularName), `{uid}`, `{documentId}`, `{locale}`, `{status}`)',
    },
  },
  examples: [{ draftAccess: 'preview', urls: { 'api::article.article': 'https://site.example/api/preview?type={type}&id={documentId}&locale={locale}&status={status}' } }],
} as const;

const settingsAnswer = (description: string) => answerWith('preview', PreviewSettings, description);

export const previewRoutes = {
  get: defineRoute({
    tags: ['Preview'],
    summary: 'Get the preview settings',
    description: 'Who may read drafts through the content API, and the preview URL template of each content type (defaults included). Any member.',
    response: withErrors({ 200: settingsAnswer('The settings (defaults included)') }, { 404: NO_PROJECT }),
  }),

  put: defineRoute({
    tags: ['Preview'],
    summary: 'Change the preview settings',
    description: '`draftAccess`, `urls` or both; `urls` replaces the stored map whole (a type left out has no preview any more). The content API applies the new rule at its next request. Owners and editors.',
    body: {
      type: 'object',
      additionalProperties: false,
      properties: { draftAccess: PreviewSettings.properties.draftAccess, urls: PreviewSettings.properties.urls },
      examples: [{ urls: { 'api::article.article': 'https://site.example/preview/{type}/{documentId}?locale={locale}' } }],
    },
    response: withErrors({ 200: settingsAnswer('The settings as changed') }, {
      400: 'An unknown key, draft access rule or content type, or an invalid template (each named in `details.errors`)', 403: 'Viewers cannot change settings', 404: NO_PROJECT,
    }),
  }),

  url: defineRoute({
    tags: ['Preview'],
    summary: 'A document\'s preview URL',
    description: 'Its type\'s template, filled (values URL-encoded): the dashboard\'s "Open preview".',
    querystring: {
      type: 'object',
      required: ['contentType'],
      properties: {
        contentType: { type: 'string', description: 'The content type\'s uid' },
        documentId: { type: 'string', description: 'At most 64 characters' },
        locale: { type: 'string', description: 'At most 35 characters (default: the project\'s default locale, on a localized type)' },
        status: { type: 'string', enum: ['draft', 'published'], description: 'Default: `draft` on a draft & publish type, else `published`' },
      },
    },
    response: withErrors({
      200: {
        description: 'The URL',
        type: 'object', required: ['data'],
        properties: { data: { type: 'object', required: ['url'], properties: { url: { type: 'string' } } } },
        examples: [{ data: { url: 'https://site.example/api/preview?type=article&id=a1b2c3&locale=en&status=draft' } }],
      },
      204: noContent('The type has no template'),
    }, { 400: 'No `contentType`, or a malformed value (named in `details.errors`)', 404: `${NO_PROJECT}, or no such content type` }),
  }),
};
