// Schemas that do not depend on the model's types: the error envelope, pagination, blocks, and
// the plugins' objects (media files, end users and their roles, locales).
import { UPLOAD_FILE_UID, USERS_UID } from '@cms/query';
import type { Model } from '@cms/schema';
import type { PhysicalModel } from '@cms/tables';
import { relationInputSchemas } from './attribute-schemas.ts';
import { closedObject, nullableType, ref, type JsonSchema } from './json-schema.ts';
import { FIXED_SCHEMAS } from './names.ts';
import { fieldProperties, viewOf } from './type-schemas.ts';

const integer = { type: 'integer' };
const string = { type: 'string' };
const dateTime = { type: 'string', format: 'date-time' };

function errorSchema(): JsonSchema {
  return closedObject({
    data: { type: 'null' },
    error: closedObject({
      status: { type: 'integer', description: 'The HTTP status' },
      name: { type: 'string', description: 'ValidationError, UnauthorizedError, ForbiddenError, NotFoundError, …' },
      message: string,
      details: { type: 'object', description: 'ValidationError: `{errors: [{path, message, name}]}`; `{}` when there is nothing to add' },
    }, ['status', 'name', 'message', 'details']),
  }, ['data', 'error'], { description: 'Every error answer' });
}

function paginationSchema(): JsonSchema {
  return {
    description: '`page`/`pageSize` or, when the request used `start`/`limit`, those; `pageCount` and `total` unless `withCount=false`',
    oneOf: [
      closedObject({ page: integer, pageSize: integer, pageCount: integer, total: integer }, ['page', 'pageSize']),
      closedObject({ start: integer, limit: integer, total: integer }, ['start', 'limit']),
    ],
  };
}

/** A node of a `blocks` attribute (Strapi's rich text blocks: paragraph, heading, list, quote, code, image, link, text). */
function blocksNodeSchema(): JsonSchema {
  return {
    type: 'object',
    required: ['type'],
    properties: {
      type: { type: 'string', examples: ['paragraph', 'heading', 'list', 'list-item', 'quote', 'code', 'image', 'link', 'text'] },
      children: { type: 'array', items: ref(FIXED_SCHEMAS.blocks) },
      text: string,
    },
  };
}

function fileSchema(model: Model, physical: PhysicalModel): JsonSchema {
  const format = {
    type: 'object',
    properties: { ext: string, url: string, hash: string, mime: string, name: string, path: nullableType('string'), size: { type: 'number' }, width: integer, height: integer, sizeInBytes: integer },
  };
  const props = fieldProperties(viewOf(model, physical, UPLOAD_FILE_UID), {});
  props.focalPoint = nullableType('object', { properties: { x: { type: 'number' }, y: { type: 'number' } } });
  props.formats = nullableType('object', { additionalProperties: format, description: 'thumbnail, small, medium and large versions of images' });
  props.size = { type: 'number', description: 'kB (1000 bytes)' };
  props.isUrlSigned = { type: 'boolean', description: 'On the upload routes' };
  return closedObject(props, ['id', 'documentId'], { title: 'Media file', description: 'A file of the media library (`plugin::upload.file`)' });
}

function fileInfoSchema(): JsonSchema {
  return closedObject({
    name: string, alternativeText: nullableType('string'), caption: nullableType('string'),
    focalPoint: nullableType('object', { properties: { x: { type: 'number' }, y: { type: 'number' } } }),
    folder: nullableType('integer', { description: 'A folder id of the media library; null: the root' }),
  });
}

function userSchemas(model: Model, physical: PhysicalModel): Record<string, JsonSchema> {
  const props = fieldProperties(viewOf(model, physical, USERS_UID), {});
  props.role = { ...ref(FIXED_SCHEMAS.role), description: 'Present when populated' };
  return {
    [FIXED_SCHEMAS.user]: closedObject(props, ['id', 'documentId'], { title: 'End user', description: 'A user of the project (`plugin::users-permissions.user`); never its password or tokens' }),
    [FIXED_SCHEMAS.role]: closedObject({ id: integer, documentId: string, name: string, description: nullableType('string'), type: string, createdAt: dateTime, updatedAt: dateTime, publishedAt: nullableType('string', { format: 'date-time' }) }, ['id']),
    [FIXED_SCHEMAS.userInput]: closedObject({
      username: { type: 'string', minLength: 3 }, email: { type: 'string', format: 'email' }, password: { type: 'string', minLength: 6, writeOnly: true },
      role: { type: ['string', 'integer'], description: 'A role type or id (not `public`)' }, confirmed: { type: 'boolean' }, blocked: { type: 'boolean' },
    }),
    [FIXED_SCHEMAS.auth]: closedObject({ jwt: { type: 'string', description: 'Absent when the e-mail must be confirmed first' }, user: ref(FIXED_SCHEMAS.user) }, ['user']),
  };
}

function localeSchema(): JsonSchema {
  return closedObject({ id: integer, documentId: string, name: string, code: string, createdAt: dateTime, updatedAt: dateTime, publishedAt: dateTime, isDefault: { type: 'boolean' } },
    ['id', 'documentId', 'name', 'code', 'isDefault'], { title: 'Locale' });
}

/** Every schema the document has whatever the model's types. */
export function fixedSchemas(model: Model, physical: PhysicalModel): Record<string, JsonSchema> {
  return {
    [FIXED_SCHEMAS.error]: errorSchema(),
    [FIXED_SCHEMAS.pagination]: paginationSchema(),
    [FIXED_SCHEMAS.relationCount]: closedObject({ count: integer }, ['count'], { description: 'A populated relation with `count=true`' }),
    [FIXED_SCHEMAS.blocks]: blocksNodeSchema(),
    ...relationInputSchemas(),
    [FIXED_SCHEMAS.file]: fileSchema(model, physical),
    [FIXED_SCHEMAS.fileInfo]: fileInfoSchema(),
    ...userSchemas(model, physical),
    [FIXED_SCHEMAS.locale]: localeSchema(),
  };
}
