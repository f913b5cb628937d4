// End-user roles of a project and their permissions (apps/gateway/src/management/roles.ts).
import { NO_PROJECT, withErrors } from '../errors.ts';
import { defineRoute, noContent, shownBody } from '../route.ts';
import { answerWith, listOf } from '../shapes.ts';

const EDITORS = 'Viewers may not change roles';

const roleAnswer = (description: string) => answerWith('role', { $ref: 'Role#' }, description);

/** A custom role's type, as the route checks it (`ROLE_TYPE` of the gateway). */
export const ROLE_TYPE_PATTERN = '^[a-z][a-z0-9_-]{0,49}$';

// Fastify checks the body's shape; the handler checks the permissions (uids and actions of the
// model), in its words: the document alone shows them as a `PermissionMap` (`shownBody`).
const SetPermissionsBody = {
  type: 'object',
  additionalProperties: false,
  required: ['permissions'],
  properties: { permissions: { type: 'object', description: '`{uid: [action]}`' } },
  examples: [{ permissions: { 'api::article.article': ['find', 'findOne'] } }],
} as const;

export const roleRoutes = {
  list: defineRoute({
    tags: ['Roles'],
    summary: 'List the end-user roles',
    description: '`public` (no credentials), `authenticated` (any end-user JWT) and the custom ones, with their permissions.',
    response: withErrors({
      200: listOf('roles', { $ref: 'Role#' }, 'The roles'),
    }, { 404: NO_PROJECT }),
  }),

  create: defineRoute({
    tags: ['Roles'],
    summary: 'Create a role',
    description: 'A custom role, granting nothing until its permissions are set.',
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'name'],
      properties: {
        type: { type: 'string', pattern: ROLE_TYPE_PATTERN },
        name: { type: 'string', minLength: 1, maxLength: 100 },
        description: { type: 'string', maxLength: 500 },
      },
      examples: [{ type: 'editor', name: 'Editor' }],
    },
    response: withErrors({ 201: roleAnswer('The new role') }, { 400: 'A malformed or taken type, a bad name', 403: EDITORS, 404: NO_PROJECT }),
  }),

  setPermissions: defineRoute({
    tags: ['Roles'],
    summary: 'Set a role\'s permissions',
    description: 'Replaces the role\'s whole permission set. Content types take `find`, `findOne`, `create`, `update`, `delete`, `createLocalization`; `plugin::upload` `find`, `findOne`, `upload`, `update`, `destroy`; `plugin::users-permissions` `me`, `find`, `findOne`, `count`, `create`, `update`, `destroy`.',
    body: SetPermissionsBody,
    docBody: shownBody(SetPermissionsBody, { permissions: { $ref: 'PermissionMap#' } }),
    response: withErrors({ 200: roleAnswer('The role with its new permissions') }, {
      400: 'An unknown uid or action',
      403: EDITORS,
      404: 'No such project or role',
    }),
  }),

  remove: defineRoute({
    tags: ['Roles'],
    summary: 'Delete a custom role',
    description: '`public` and `authenticated` cannot be deleted (400).',
    response: withErrors({ 204: noContent('Deleted') }, { 400: 'A built-in role', 403: EDITORS, 404: 'No such project or role' }),
  }),
};
