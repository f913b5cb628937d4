// Projects (apps/gateway/src/management/projects.ts): create, list (also the deleted ones the
// caller may restore), read, rename, delete, restore.
import { NO_PROJECT, withErrors } from '../errors.ts';
import { defineRoute, noBody, noContent } from '../route.ts';
import { Project, answerWith, dateTime, listOf } from '../shapes.ts';

/** `{project}`. */
const projectAnswer = (description: string) => answerWith('project', { $ref: 'Project#' }, description);

/** A project of the list: with `?status=deleted`, also when it was deleted and when it will be purged. */
const ListedProject = {
  type: 'object',
  description: 'A project; a deleted one (`?status=deleted`) also has `deletedAt` and `purgeAt`',
  required: Project.required,
  properties: {
    ...Project.properties,
    deletedAt: { ...dateTime, description: 'When it was deleted (deleted projects only)' },
    purgeAt: { ...dateTime, description: 'When its data will be dropped unless it is restored (deleted projects only)' },
  },
  examples: [Project.examples[0]],
} as const;

const name = { type: 'string', maxLength: 100 } as const;

export const projectRoutes = {
  create: defineRoute({
    tags: ['Projects'],
    summary: 'Create a project',
    description: 'Creates the project (and its Postgres schema) with the caller as its first owner. `slug` (`^[a-z][a-z0-9-]{1,38}[a-z0-9]$`, no `--`) is derived from `name` when absent; `defaultLocale` defaults to `en`.',
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: {
        name,
        slug: { type: 'string', maxLength: 100 },
        defaultLocale: { type: 'string', maxLength: 50 },
      },
      examples: [{ name: 'My blog', slug: 'my-blog', defaultLocale: 'en' }],
    },
    response: withErrors({ 201: projectAnswer('The new project') }, {
      400: 'A missing or too long name, a malformed slug or locale',
      409: 'The slug is taken',
    }),
  }),

  list: defineRoute({
    tags: ['Projects'],
    summary: 'List the projects',
    description: 'Every project the account is a member of (environments are not listed). `?status=deleted`: the deleted projects the account owns that can still be restored.',
    // Shown by the document only: the handler answers any other value (a repeated key included) with its own 400.
    docQuery: {
      status: {
        type: 'string', enum: ['active', 'deleted'], default: 'active',
        description: '`active` (the default) or `deleted`: the deleted, still restorable projects the caller owns', examples: ['deleted'],
      },
    },
    response: withErrors({
      200: listOf('projects', ListedProject, 'The projects'),
    }, { 400: '`status` is neither `active` nor `deleted`' }),
  }),

  get: defineRoute({
    tags: ['Projects'],
    summary: 'Get a project',
    description: 'An environment also has `parent` and `environment`.',
    response: withErrors({ 200: projectAnswer('The project') }, { 404: NO_PROJECT }),
  }),

  rename: defineRoute({
    tags: ['Projects'],
    summary: 'Rename a project',
    description: 'The slug and the URLs stay. Owners and editors.',
    body: { type: 'object', additionalProperties: false, required: ['name'], properties: { name }, examples: [{ name: 'Our blog' }] },
    response: withErrors({ 200: projectAnswer('The renamed project') }, {
      400: 'A missing or too long name',
      403: 'Viewers may not rename',
      404: NO_PROJECT,
    }),
  }),

  remove: defineRoute({
    tags: ['Projects'],
    summary: 'Delete a project',
    description: 'Owners only. Cancels its Stripe subscription first (502 and nothing deleted when Stripe cannot be reached), then the project answers 404 everywhere and stays restorable by its owners for 7 days. Its environments are dropped at once. An environment is dropped at once too.',
    response: withErrors({ 204: noContent('Deleted') }, {
      403: 'Only owners delete a project',
      404: NO_PROJECT,
    }),
  }),

  restore: defineRoute({
    tags: ['Projects'],
    summary: 'Restore a deleted project',
    description: 'A project deleted less than 7 days ago comes back whole (tokens included). Its owners only: others get 404.',
    docBody: noBody(),
    response: withErrors({ 200: projectAnswer('The restored project') }, {
      404: 'No deleted project of that slug the caller owns, or past its restore window',
    }),
  }),
};
