// Restoring a backup (`/v1/projects/{slug}/backups/{id}/restore`, `…/restores/{id}`;
// apps/gateway/src/management/restores.ts), in place or as a new project. Owners only.
import { withErrors } from '../errors.ts';
import { defineRoute } from '../route.ts';
import { answerWith, archiveStatus, dateTime, nullableDateTime, nullableString } from '../shapes.ts';

/** A restore of a backup, in place or as a new project. */
const Restore = {
  type: 'object',
  required: ['id', 'status', 'target', 'backupId', 'project', 'error', 'createdAt', 'finishedAt'],
  properties: {
    id: { type: 'string' },
    status: archiveStatus,
    target: { type: 'string', enum: ['in-place', 'new-project'] },
    backupId: { type: 'string' },
    project: {
      anyOf: [{ $ref: 'Project#' }, { type: 'null' }],
      description: 'The project written into (in place: this one); a new project once the restore is done, null before',
    },
    error: nullableString,
    createdAt: dateTime,
    finishedAt: nullableDateTime,
  },
  examples: [{
    id: '5d6e7f80-9a1b-4c2d-8e3f-405162738495', status: 'running', target: 'new-project', backupId: '0b1f6c1e-8d2a-4c55-9d3e-2f4a7b9c1d2e',
    project: null, error: null, createdAt: '2026-11-29T09:30:00.000Z', finishedAt: null,
  }],
} as const;

const RestoreBody = {
  type: 'object',
  required: ['target'],
  additionalProperties: false,
  properties: {
    target: { type: 'string', enum: ['in-place', 'new-project'], description: '`in-place` replaces the project\'s content, media and end users (its tokens, members, settings and webhooks stay)' },
    name: { type: 'string', minLength: 1, maxLength: 100, description: 'The new project\'s name (`new-project` only)' },
  },
  examples: [{ target: 'new-project', name: 'Blog (restored)' }],
} as const;

const restoreAnswer = (description: string) => answerWith('restore', Restore, description);

const OWNERS = 'Owners only';

export const restoreRoutes = {
  start: defineRoute({
    tags: ['Exports and backups'],
    summary: 'Restore a backup',
    description: '`in-place`: the archive is imported into a staged copy while the project keeps serving, then the project switches to it at once (content, media, end users, model, locales; its API tokens, members, settings and webhooks stay). `new-project`: the archive becomes a new project of the caller\'s. Runs in the background.',
    body: RestoreBody,
    response: withErrors({ 202: restoreAnswer('Started: poll `GET /v1/projects/{slug}/restores/{id}`') }, {
      400: 'An invalid target or name (named in `details.errors`), or an unknown key', 403: OWNERS, 404: 'No such project, or no such backup of it',
      409: 'The backup is not done, or a restore of this project is running',
    }),
  }),

  get: defineRoute({
    tags: ['Exports and backups'],
    summary: 'Get a restore',
    description: 'Its status; once a `new-project` restore is done, the new project. Owners only.',
    response: withErrors({ 200: restoreAnswer('The restore') }, { 403: OWNERS, 404: 'No such project, or no such restore of it' }),
  }),
};
