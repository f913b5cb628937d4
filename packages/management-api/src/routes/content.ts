// The dashboard's access to a project's content (`/v1/projects/{slug}/content-access`,
// `…/content/{uid}/{documentId}/…`; apps/gateway/src/management/content.ts): a content access key,
// and the draft & publish actions Strapi's content API does not have.
import { NO_PROJECT, withErrors } from '../errors.ts';
import { defineRoute, noBody, noContent } from '../route.ts';
import { dateTime } from '../shapes.ts';

const ContentAccess = {
  description: 'A short-lived content access key',
  type: 'object', required: ['accessKey', 'expiresAt', 'access'],
  properties: {
    accessKey: { type: 'string', description: 'A bearer credential of the project\'s content API (REST, GraphQL, upload), for the member' },
    expiresAt: { ...dateTime, description: 'When it stops working: ask for a new one before' },
    access: { type: 'string', enum: ['full-access', 'read-only'], description: 'Viewers get read-only' },
  },
  examples: [{ accessKey: 'cmsk_…', expiresAt: '2026-11-29T10:30:00.000Z', access: 'full-access' }],
} as const;

const DocumentActionParams = {
  type: 'object',
  properties: { slug: { type: 'string' }, uid: { type: 'string', maxLength: 200 }, documentId: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;

const DocumentActionBody = {
  type: ['object', 'null'], additionalProperties: false,
  properties: { locale: { type: 'string', minLength: 1, maxLength: 50, description: 'A locale of a localized type (default: the project\'s default), or `*` for every locale' } },
  description: 'Optional: no body acts on the default locale',
  examples: [{ locale: 'fr' }],
} as const;


const documentAction = (name: string, what: string) => defineRoute({
  tags: ['Content'],
  summary: name,
  description: `${what} Owners and editors.`,
  params: DocumentActionParams,
  body: DocumentActionBody,
  response: withErrors({ 204: noContent('Done') }, {
    400: 'An unknown locale, or an invalid body', 403: 'Viewers cannot change content', 404: 'No such project, content type or document',
  }),
});

export const contentRoutes = {
  access: defineRoute({
    tags: ['Content'],
    summary: 'Get a content access key',
    description: 'A short-lived bearer credential of the project\'s own content API for the member (the dashboard then calls `/p/{slug}/api` as any Strapi client does): full access for owners and editors, read-only for viewers.',
    docBody: noBody(),
    response: withErrors({ 200: ContentAccess }, { 404: NO_PROJECT }),
  }),
  unpublish: documentAction('Unpublish a document', 'Removes the published version of a document-locale (`locale: "*"`: every locale), keeping its draft: what Strapi\'s content API cannot do.'),
  discard: documentAction('Discard a draft', 'Drops a document-locale\'s draft changes: its draft becomes the published version again (`locale: "*"`: every locale).'),
};
