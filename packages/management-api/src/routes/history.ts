// Content history (`/v1/projects/{slug}/history…`): the versions every write records, a diff of
// two, and a restore. A version's content and schema are the document's and its type's: open.
import { withErrors } from '../errors.ts';
import { defineRoute, pageQuery, positiveId } from '../route.ts';
import { answerWith, dateTime, nullableString, pageOf } from '../shapes.ts';

/** One recorded version of a document-locale, its author named. */
const HistoryVersion = {
  type: 'object',
  required: ['id', 'contentType', 'relatedDocumentId', 'locale', 'status', 'data', 'schema', 'origin', 'createdAt', 'createdBy'],
  properties: {
    id: { type: 'integer' },
    contentType: { type: 'string', description: 'The content type\'s uid' },
    relatedDocumentId: { type: 'string' },
    locale: { ...nullableString, description: 'Null on types that were not localized' },
    status: { type: 'string', enum: ['draft', 'published', 'modified'], description: 'The document\'s status once that change was made' },
    data: {
      type: 'object', additionalProperties: true,
      description: 'The version the change wrote, as the content API returns it; relations as `{documentId, locale}`, media as `{id}`',
    },
    schema: { type: 'object', additionalProperties: true, description: 'The type\'s `schema.json` attributes at that time' },
    origin: { type: 'string', enum: ['rest', 'graphql', 'dashboard', 'import', 'release', 'schedule', 'restore'] },
    createdAt: dateTime,
    createdBy: {
      type: ['object', 'null'],
      description: 'Who made the change; null when no one in particular did (a server-side import)',
      required: ['type', 'id', 'name'],
      properties: {
        type: { type: 'string', enum: ['account', 'apiToken', 'user'], description: 'A member, an API token or an end user' },
        id: { type: ['integer', 'string'] },
        name: { ...nullableString, description: 'What to call them now; null once they are gone' },
      },
    },
  },
  examples: [{
    id: 88, contentType: 'api::article.article', relatedDocumentId: 'a1b2c3d4e5f6g7h8i9j0k1l2', locale: 'en', status: 'modified',
    data: { title: 'Hello, world', body: 'First post.' }, schema: { title: { type: 'string' }, body: { type: 'richtext' } },
    origin: 'dashboard', createdAt: '2026-11-29T09:30:00.000Z', createdBy: { type: 'account', id: 1, name: 'Ada' },
  }],
} as const;

const HistoryListQuery = {
  type: 'object',
  properties: {
    contentType: { type: 'string', description: 'A content type uid (one the model no longer has works while versions of it are left)' },
    documentId: { type: 'string' },
    locale: { type: 'string' },
    page: { type: 'string', description: 'From 1' },
    pageSize: { type: 'string', description: 'From 1 to 100 (default 20)' },
  },
} as const;

/** The version named in the path (`docParams`): the handler reads the text (a malformed one: 400). */
const versionParams = { versionId: positiveId('The version\'s `id`') } as const;

const againstDescription = 'Another version\'s id, `current` (the document now: its draft on a draft & publish type) or `previous` (default: the version before it of the same document-locale)';

const HistoryDiffQuery = {
  type: 'object',
  properties: { against: { type: 'string', description: againstDescription } },
} as const;

const HistoryList = pageOf(HistoryVersion, 'A page of versions, newest first');

const HistoryVersionAnswer = answerWith('data', HistoryVersion, 'The version');

const HistoryDiff = {
  description: 'What changed from `against` to the version',
  type: 'object', required: ['data'],
  properties: {
    data: {
      type: 'object', required: ['versionId', 'against', 'changes'],
      properties: {
        versionId: { type: 'integer' },
        against: { type: ['integer', 'string', 'null'], description: 'The version compared with, `current`, or null when there is none before it' },
        changes: {
          type: 'array',
          description: 'One per changed attribute path (components and dynamic zones field by field)',
          items: {
            type: 'object', required: ['path', 'before', 'after'],
            properties: {
              path: { type: 'string', description: 'Dotted: `title`, `seo.metaTitle`, `sections.1.title`' },
              before: { description: 'The value compared with; null when absent there' },
              after: { description: 'The value in the version; null when absent there' },
            },
          },
        },
      },
    },
  },
  examples: [{ data: { versionId: 88, against: 87, changes: [{ path: 'title', before: 'Hello', after: 'Hello, world' }, { path: 'seo.metaTitle', before: null, after: 'Hello' }] } }],
} as const;

const HistoryRestored = {
  description: 'Restored: the document-locale written, and what was left out',
  type: 'object', required: ['data', 'meta'],
  properties: {
    data: {
      type: 'object', required: ['documentId', 'locale', 'status'],
      properties: { documentId: { type: 'string' }, locale: nullableString, status: { type: 'string', enum: ['draft', 'published'] } },
    },
    meta: {
      type: 'object', required: ['dropped'],
      properties: {
        dropped: {
          type: 'array',
          description: 'Relations to documents and files that no longer exist, left out',
          items: {
            type: 'object', required: ['path'],
            properties: { path: { type: 'string' }, documentId: { type: 'string' }, id: { type: 'integer' } },
          },
        },
      },
    },
  },
  examples: [{ data: { documentId: 'a1b2c3d4e5f6g7h8i9j0k1l2', locale: 'en', status: 'draft' }, meta: { dropped: [{ path: 'author', documentId: 'z9y8x7w6v5u4t3s2r1q0p9o8' }] } }],
} as const;

const NO_VERSION = 'No such project (or not a member), or no such version in it';

export const historyRoutes = {
  list: defineRoute({
    tags: ['History'],
    summary: 'List versions',
    description: 'Every change to a document (from REST, GraphQL, the dashboard, an import, a release, a schedule or a restore) records one version per locale. Kept per plan (7 / 90 / 365 days).',
    querystring: HistoryListQuery,
    // The page as integers: the handler reads the text (attachValidation) and names a bad value.
    docQuery: pageQuery(20, 100),
    response: withErrors({ 200: HistoryList }, { 400: 'A malformed filter or page (or an unknown key)', 404: 'No such project (or not a member), or a content type it never had' }),
  }),

  get: defineRoute({
    tags: ['History'],
    summary: 'Get a version',
    description: 'One version with its content and the type\'s attributes at that time. Any member.',
    docParams: versionParams,
    response: withErrors({ 200: HistoryVersionAnswer }, { 400: 'A malformed version id', 404: NO_VERSION }),
  }),

  diff: defineRoute({
    tags: ['History'],
    summary: 'Compare a version',
    description: 'With the version before it, another version of the same content type, or the document now.',
    querystring: HistoryDiffQuery,
    docQuery: {
      against: {
        anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string', enum: ['current', 'previous'] }],
        default: 'previous',
        description: againstDescription,
      },
    },
    docParams: versionParams,
    response: withErrors({ 200: HistoryDiff }, { 400: 'A malformed `against` (or an unknown key), or a version of another content type', 404: `${NO_VERSION}; or no such \`against\` version` }),
  }),

  restore: defineRoute({
    tags: ['History'],
    summary: 'Restore a version',
    description: 'Writes the version\'s content as the document\'s draft (a published document becomes modified; a type without draft & publish is updated). Relations to documents and files that no longer exist are left out and listed in `meta.dropped`. Owners and editors.',
    body: { type: ['object', 'null'], maxProperties: 0, description: 'No options: no body, or `{}`' },
    docParams: versionParams,
    response: withErrors({ 200: HistoryRestored }, {
      400: 'An option was sent, or the content does not validate any more', 403: 'Viewers cannot restore', 404: NO_VERSION,
    }),
  }),
};
