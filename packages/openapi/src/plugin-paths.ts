// The plugins' REST routes every project serves: the media library (`/upload…`), end users and
// their authentication (`/users…`, `/auth/…`), locales (`/i18n/locales`) and this document.
// Their bodies are bare (no `{data}`), as in Strapi. The auth routes are open to anyone, but a
// bearer token they are sent is checked (401 when unknown); locales and this document ignore it.
import { ref, closedObject, type JsonObject } from './json-schema.ts';
import { FIXED_SCHEMAS } from './names.ts';
import { errorsFor, fieldsParameter, PAGINATION_PARAMETERS, param, populateParameter, sortParameter } from './parameters.ts';

/** Operation ids of these routes (reserved before the model's are named). */
export const PLUGIN_OPERATIONS = [
  'upload', 'listUploadFiles', 'pageUploadFiles', 'getUploadFile', 'deleteUploadFile',
  'listUsers', 'createUser', 'getMe', 'countUsers', 'getUser', 'updateUser', 'deleteUser',
  'register', 'login', 'forgotPassword', 'resetPassword', 'confirmEmail', 'sendEmailConfirmation', 'changePassword',
  'listLocales', 'getOpenApiDocument',
] as const;

const json = (schema: JsonObject) => ({ 'application/json': { schema } });
const ok = (description: string, schema: JsonObject, status = 200) => ({ [status]: { description, content: json(schema) } });
const body = (schema: JsonObject) => ({ required: true, content: json(schema) });
const listOf = (name: string) => ({ type: 'array', items: ref(name) });

function uploadPaths(fileFields: string[]): Record<string, JsonObject> {
  const tags = ['Upload'];
  const file = ref(FIXED_SCHEMAS.file);
  const listParams = [fieldsParameter(fileFields), param('filters'), sortParameter(fileFields), ...PAGINATION_PARAMETERS];
  const multipart = {
    type: 'object',
    properties: {
      files: { oneOf: [{ type: 'string', format: 'binary' }, { type: 'array', items: { type: 'string', format: 'binary' } }] },
      fileInfo: { type: 'string', description: 'JSON: an UploadFileInfo, or an array of them (one per file)', contentMediaType: 'application/json' },
      ref: { type: 'string', description: 'Attach the files to an entry: its content type uid (`api::post.post`)' },
      refId: { type: 'string', description: 'The numeric id of the entry row' },
      field: { type: 'string', description: 'The media attribute to attach to' },
    },
  };
  return {
    '/upload': {
      post: {
        tags, operationId: 'upload', summary: 'Upload files, or with `id` replace one file or change its info',
        parameters: [{ name: 'id', in: 'query', required: false, description: 'The file to replace or update', schema: { type: 'integer', minimum: 1 } }],
        requestBody: { required: true, content: { 'multipart/form-data': { schema: multipart }, ...json(closedObject({ fileInfo: ref(FIXED_SCHEMAS.fileInfo) }, ['fileInfo'])) } },
        responses: { ...ok('The uploaded files', { type: 'array', items: file }, 201), ...ok('With `id`: the file', file), ...errorsFor(400, 401, 403, 404, 413) },
      },
    },
    '/upload/files': {
      get: { tags, operationId: 'listUploadFiles', summary: 'List files (bare array; default 100, at most 1000)', parameters: listParams, responses: { ...ok('Files', listOf(FIXED_SCHEMAS.file)), ...errorsFor(400, 401, 403) } },
    },
    '/upload/files/page': {
      get: {
        tags, operationId: 'pageUploadFiles', summary: 'List files with pagination meta', parameters: listParams,
        responses: { ...ok('A page of files', closedObject({ data: listOf(FIXED_SCHEMAS.file), meta: closedObject({ pagination: ref(FIXED_SCHEMAS.pagination) }, ['pagination']) }, ['data', 'meta'])), ...errorsFor(400, 401, 403) },
      },
    },
    '/upload/files/{id}': {
      parameters: [param('id')],
      get: { tags, operationId: 'getUploadFile', summary: 'Get a file', responses: { ...ok('The file', file), ...errorsFor(401, 403, 404) } },
      delete: { tags, operationId: 'deleteUploadFile', summary: 'Delete a file and its stored objects', responses: { ...ok('The deleted file', file), ...errorsFor(401, 403, 404) } },
    },
  };
}

function userPaths(userFields: string[]): Record<string, JsonObject> {
  const tags = ['Users-Permissions'];
  const user = ref(FIXED_SCHEMAS.user);
  const auth = ref(FIXED_SCHEMAS.auth);
  const roles = populateParameter(['role']);
  const password = { type: 'string', writeOnly: true };
  const authOp = (operationId: string, summary: string, schema: JsonObject, answer: JsonObject = auth, description = 'The user and a JWT') =>
    ({ post: { tags, operationId, summary, requestBody: body(schema), responses: { ...ok(description, answer), ...errorsFor(400, 401) } } });
  return {
    '/users': {
      get: { tags, operationId: 'listUsers', summary: 'List users (bare array; default 100, at most 1000)', parameters: [fieldsParameter(userFields), roles, param('filters'), sortParameter(userFields), ...PAGINATION_PARAMETERS], responses: { ...ok('Users', listOf(FIXED_SCHEMAS.user)), ...errorsFor(400, 401, 403) } },
      post: { tags, operationId: 'createUser', summary: 'Create a user', requestBody: body(ref(FIXED_SCHEMAS.userInput)), responses: { ...ok('The user', user, 201), ...errorsFor(400, 401, 403) } },
    },
    '/users/me': {
      get: { tags, operationId: 'getMe', summary: 'The user of the JWT', parameters: [roles], responses: { ...ok('The user', user), ...errorsFor(401, 403) } },
    },
    '/users/count': {
      get: { tags, operationId: 'countUsers', summary: 'Count users', parameters: [param('filters')], responses: { ...ok('How many users match', { type: 'integer' }), ...errorsFor(400, 401, 403) } },
    },
    '/users/{id}': {
      parameters: [param('id')],
      get: { tags, operationId: 'getUser', summary: 'Get a user', parameters: [roles], responses: { ...ok('The user', user), ...errorsFor(401, 403, 404) } },
      put: { tags, operationId: 'updateUser', summary: 'Update a user', requestBody: body(ref(FIXED_SCHEMAS.userInput)), responses: { ...ok('The user', user), ...errorsFor(400, 401, 403, 404) } },
      delete: { tags, operationId: 'deleteUser', summary: 'Delete a user', responses: { ...ok('The deleted user', user), ...errorsFor(401, 403, 404) } },
    },
    '/auth/local/register': authOp('register', 'Register a user (when registration is allowed)',
      closedObject({ username: { type: 'string' }, email: { type: 'string', format: 'email' }, password }, ['username', 'email', 'password']),
      auth, 'The user and a JWT (only the user while its e-mail is unconfirmed)'),
    '/auth/local': authOp('login', 'Log in with e-mail or username', closedObject({ identifier: { type: 'string' }, password }, ['identifier', 'password'])),
    '/auth/forgot-password': authOp('forgotPassword', 'E-mail a password reset code', closedObject({ email: { type: 'string', format: 'email' } }, ['email']),
      closedObject({ ok: { const: true } }, ['ok']), 'Sent (also for unknown addresses)'),
    '/auth/reset-password': authOp('resetPassword', 'Set a new password with a reset code', closedObject({ code: { type: 'string' }, password, passwordConfirmation: password }, ['code', 'password', 'passwordConfirmation'])),
    '/auth/email-confirmation': {
      get: {
        tags, operationId: 'confirmEmail', summary: 'Confirm an e-mail address (the link of the confirmation e-mail)',
        parameters: [{ name: 'confirmation', in: 'query', required: true, schema: { type: 'string' } }],
        responses: { 302: { description: 'Redirect to the project\'s `emailConfirmationRedirect`' }, ...errorsFor(400, 401) },
      },
    },
    '/auth/send-email-confirmation': authOp('sendEmailConfirmation', 'Send the confirmation e-mail again', closedObject({ email: { type: 'string', format: 'email' } }, ['email']),
      closedObject({ email: { type: 'string' }, sent: { const: true } }, ['email', 'sent']), 'Sent'),
    '/auth/change-password': {
      post: {
        tags, operationId: 'changePassword', summary: 'Change the password of the JWT\'s user',
        requestBody: body(closedObject({ currentPassword: password, password, passwordConfirmation: password }, ['currentPassword', 'password', 'passwordConfirmation'])),
        responses: { ...ok('The user and a new JWT', auth), ...errorsFor(400, 401, 403) },
      },
    },
  };
}

export function pluginPaths(fileFields: string[], userFields: string[]): Record<string, JsonObject> {
  return {
    ...uploadPaths(fileFields),
    ...userPaths(userFields),
    '/i18n/locales': {
      get: { tags: ['I18n'], operationId: 'listLocales', summary: 'The project\'s locales', security: [{}], responses: { ...ok('Locales', listOf(FIXED_SCHEMAS.locale)), ...errorsFor() } },
    },
    '/openapi.json': {
      get: { tags: ['OpenAPI'], operationId: 'getOpenApiDocument', summary: 'This document', security: [{}], responses: { ...ok('The OpenAPI 3.1 document of this API', { type: 'object' }), ...errorsFor() } },
    },
  };
}
