// A project's content API tokens (apps/gateway/src/management/api-tokens.ts). The plain access key
// is in the creation answer only.
import { NO_PROJECT, withErrors } from '../errors.ts';
import { defineRoute, noContent, positiveId, shownBody } from '../route.ts';
import { ApiToken, answerWith, listOf, nullableDateTime, nullableInteger } from '../shapes.ts';


/** One token in detail: also its description and when it was last used. */
const DetailedApiToken = {
  type: 'object',
  description: 'An API token with its description and last use',
  required: [...ApiToken.required, 'description', 'lastUsedAt'],
  properties: {
    ...ApiToken.properties,
    description: { type: 'string' },
    lastUsedAt: { ...nullableDateTime, description: 'Recorded in batches every 5 seconds; null if never used' },
  },
} as const;

// Fastify checks the body's shape; the handler checks the permissions (uids and actions of the
// model), in its words: the document alone shows them as a `PermissionMap` (`shownBody`).
const CreateApiTokenBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'type'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    type: { type: 'string', maxLength: 50, description: '`read-only`, `full-access` or `custom`' },
    description: { type: 'string', maxLength: 500 },
    permissions: { type: 'object', description: 'For `custom`: `{uid: [action]}` as for roles (content types also take `preview`)' },
    lifespanDays: { ...nullableInteger, description: '7, 30, 90 or null (never expires, the default)' },
  },
  examples: [{ name: 'Website', type: 'read-only', lifespanDays: 90 }],
} as const;

/** The token named in the path (`docParams`): a malformed id names nothing (404). */
const tokenParams = { id: positiveId('The token\'s `id`') } as const;

export const apiTokenRoutes = {
  create: defineRoute({
    tags: ['API tokens'],
    summary: 'Create an API token',
    description: '`read-only`: find and findOne on everything; `full-access`: everything; `custom`: `permissions` (`{uid: [action]}` as for roles; content types also take `preview`). The plain `accessKey` is answered once (only a keyed hash is stored): content API clients send `Authorization: Bearer <accessKey>`. Owners and editors.',
    body: CreateApiTokenBody,
    docBody: shownBody(CreateApiTokenBody, { permissions: { $ref: 'PermissionMap#' } }),
    response: withErrors({
      201: {
        description: 'The token, and its access key (shown this once)',
        type: 'object',
        required: ['apiToken', 'accessKey'],
        properties: { apiToken: { $ref: 'ApiToken#' }, accessKey: { type: 'string' } },
      },
    }, {
      400: 'A bad name, type, lifespan or permission',
      403: 'Viewers may not create tokens',
      404: NO_PROJECT,
    }),
  }),

  list: defineRoute({
    tags: ['API tokens'],
    summary: 'List the API tokens',
    description: 'Never their keys.',
    response: withErrors({
      200: listOf('apiTokens', { $ref: 'ApiToken#' }, 'The tokens'),
    }, { 404: NO_PROJECT }),
  }),

  get: defineRoute({
    tags: ['API tokens'],
    summary: 'Get an API token',
    description: 'One token with its description and last use (never its key).',
    docParams: tokenParams,
    response: withErrors({
      200: answerWith('apiToken', DetailedApiToken, 'The token'),
    }, { 404: 'No such project or token' }),
  }),

  remove: defineRoute({
    tags: ['API tokens'],
    summary: 'Delete an API token',
    description: 'It stops working on every instance at once. Owners and editors.',
    docParams: tokenParams,
    response: withErrors({ 204: noContent('Deleted') }, { 403: 'Viewers may not delete tokens', 404: 'No such project or token' }),
  }),
};
