// Importing a project from another Strapi (`cms import strapi`, docs/import-strapi.md):
// `/v1/projects/{slug}/import/…`. Every route is idempotent (a batch sent again after an
// interruption changes nothing more) and each batch is one transaction: the first bad item refuses
// it whole (400, the item named) and nothing is written. Owners and editors.
import { NO_PROJECT, withErrors } from '../errors.ts';
import { defineRoute } from '../route.ts';
import { nullableString } from '../shapes.ts';

/** Which version of which document an item is about. */
const versionKey = {
  uid: { type: 'string', description: 'The content type\'s uid' },
  documentId: { type: 'string' },
  locale: { ...nullableString, description: 'Null on types without i18n' },
  status: { type: 'string', enum: ['draft', 'published'] },
} as const;

const batch = (key: string, item: object, description: string) => ({
  type: 'object',
  required: [key],
  properties: { [key]: { type: 'array', minItems: 1, maxItems: 500, items: item, description } },
}) as const;

/** A file as the import answers it. */
const ImportedFile = {
  type: 'object',
  required: ['id', 'documentId', 'created'],
  properties: { id: { type: 'integer' }, documentId: { type: 'string' }, created: { type: 'boolean', description: 'Stored now (false: it was there already)' } },
} as const;

const WRITERS = 'Viewers cannot import';
const BAD_ITEM = 'An invalid item (named in `details.errors`, with its index): nothing of the batch was written';

export const importRoutes = {
  documents: defineRoute({
    tags: ['Imports'],
    summary: 'Import document versions',
    description: 'Each version written as it was in the source (documentId, locale, draft or published state, timestamps kept), relations aside (`…/import/relations`, once every target exists); matched by documentId, locale and state and replaced in place. Within the plan\'s document limit. Bodies up to 64 MB.',
    body: batch('documents', {
      type: 'object',
      required: ['uid', 'documentId', 'locale', 'status', 'data'],
      properties: {
        ...versionKey,
        data: { type: 'object', additionalProperties: true, description: 'The version\'s attributes as a write body (media as file ids of this project), without relations' },
        createdAt: nullableString,
        updatedAt: nullableString,
        publishedAt: nullableString,
      },
    }, 'Up to 500 versions'),
    response: withErrors({
      200: {
        description: 'Imported',
        type: 'object', required: ['created', 'updated'],
        properties: { created: { type: 'integer', description: 'Versions new to the project' }, updated: { type: 'integer', description: 'Versions replaced' } },
      },
    }, { 400: BAD_ITEM, 403: WRITERS, 404: NO_PROJECT }),
  }),

  relations: defineRoute({
    tags: ['Imports'],
    summary: 'Import relations',
    description: 'The owner-side relations of versions imported before, replacing theirs.',
    body: batch('relations', {
      type: 'object',
      required: ['uid', 'documentId', 'locale', 'status', 'relations'],
      properties: {
        ...versionKey,
        relations: {
          type: 'object',
          description: 'Relation attribute → its targets in order (`inversePosition`, from 1: the link\'s place in the target\'s `mappedBy` list)',
          additionalProperties: {
            type: 'array',
            items: {
              type: 'object', required: ['documentId', 'locale'],
              properties: { documentId: { type: 'string' }, locale: nullableString, inversePosition: { type: 'integer', minimum: 1 } },
            },
          },
        },
      },
    }, 'Up to 500 versions\' relations'),
    response: withErrors({
      200: { description: 'Imported', type: 'object', required: ['updated'], properties: { updated: { type: 'integer', description: 'Versions whose relations were written' } } },
    }, { 400: BAD_ITEM, 403: WRITERS, 404: NO_PROJECT }),
  }),

  users: defineRoute({
    tags: ['Imports'],
    summary: 'Import end users',
    description: 'Matched by e-mail: inserted or updated, with their password hashes (bcrypt or argon2; plain passwords are never imported).',
    body: batch('users', {
      type: 'object',
      required: ['email', 'username'],
      properties: {
        email: { type: 'string', maxLength: 254 },
        username: { type: 'string', minLength: 1, maxLength: 255 },
        password: { ...nullableString, description: 'A bcrypt or argon2 hash' },
        role: { ...nullableString, description: 'A role type of the project (default `authenticated`)' },
        documentId: nullableString,
        provider: { ...nullableString, description: 'Default `local`' },
        confirmed: { type: ['boolean', 'null'] },
        blocked: { type: ['boolean', 'null'] },
      },
    }, 'Up to 500 users'),
    response: withErrors({
      200: {
        description: 'Imported',
        type: 'object', required: ['created', 'updated'],
        properties: { created: { type: 'integer' }, updated: { type: 'integer' } },
      },
    }, { 400: BAD_ITEM, 403: WRITERS, 404: NO_PROJECT }),
  }),

  findFile: defineRoute({
    tags: ['Imports'],
    summary: 'Find an imported file',
    description: 'The id of the file imported under this documentId, so a resumed import skips sending it again.',
    response: withErrors({
      200: { description: 'Imported already', type: 'object', required: ['id', 'documentId'], properties: { id: { type: 'integer' }, documentId: { type: 'string' } } },
    }, { 404: 'No such project, or no file imported under this documentId' }),
  }),

  putFile: defineRoute({
    tags: ['Imports'],
    summary: 'Import a file',
    description: 'The file\'s bytes as the body (`application/octet-stream`), its name, type and info in the query; stored and processed by the media library (image formats made again) under the documentId it had, within the plan\'s largest upload and storage quota. Sent again, the file already there is kept and its id answered.',
    querystring: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The file\'s name, 1 to 255 characters (required for a new file)' },
        mime: { type: 'string', description: 'Default `application/octet-stream`' },
        fileInfo: { type: 'string', description: 'JSON: `{alternativeText, caption, folder, …}` as the upload API takes it' },
        createdAt: { type: 'string', description: 'The source\'s upload, ISO 8601' },
        updatedAt: { type: 'string', description: 'The source\'s last change, ISO 8601' },
      },
    },
    body: { content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary', description: 'The file\'s bytes' } } } },
    response: withErrors({
      200: { ...ImportedFile, description: 'It was there already: kept' },
      201: { ...ImportedFile, description: 'Stored' },
    }, { 400: 'An invalid documentId, name, timestamp or `fileInfo`, an empty file, or one larger than the plan\'s largest upload', 403: WRITERS, 404: NO_PROJECT }),
  }),
};
