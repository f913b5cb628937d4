// Exports and backups (`/v1/projects/{slug}/exports…`, `…/backups…`; apps/gateway/src/management/exports.ts):
// archives in the layout of `strapi export --no-encrypt`, written in the background. Owners only:
// an archive holds every end user's password hash.
import { NO_PROJECT, withErrors } from '../errors.ts';
import { defineRoute } from '../route.ts';
import { answerWith, archiveStatus, dateTime, listOf, nullableDateTime, nullableNumber, nullableString } from '../shapes.ts';

/** An export of a project. */
const ProjectExport = {
  type: 'object',
  required: ['id', 'status', 'size', 'url', 'createdAt', 'finishedAt', 'error', 'counts'],
  properties: {
    id: { type: 'string' },
    status: archiveStatus,
    size: { ...nullableNumber, description: 'Bytes, once done' },
    url: { ...nullableString, description: 'Where to download the `.tar.gz` (owners\' session), once done' },
    createdAt: dateTime,
    finishedAt: nullableDateTime,
    error: { ...nullableString, description: 'Why it failed' },
    counts: {
      type: ['object', 'null'],
      description: 'What the archive holds, once done (stored as JSON: kept whole)',
      additionalProperties: true,
      properties: {
        entities: { type: 'object', additionalProperties: { type: 'integer' }, description: 'Entities per Strapi type uid' },
        links: { type: 'integer' },
        assets: { type: 'integer' },
        missingAssets: { type: 'integer', description: 'Files whose stored object was missing (left out)' },
      },
    },
  },
  examples: [{
    id: '7c1e2f3a-4b5c-4d6e-8f90-a1b2c3d4e5f6', status: 'done', size: 482133, url: 'https://cms.example.com/v1/projects/my-blog/exports/7c1e2f3a-4b5c-4d6e-8f90-a1b2c3d4e5f6/download',
    createdAt: '2026-11-29T09:30:00.000Z', finishedAt: '2026-11-29T09:30:04.000Z', error: null,
    counts: { entities: { 'api::article.article': 42 }, links: 12, assets: 9, missingAssets: 0 },
  }],
} as const;

/** A backup: an export kept for the plan's retention. */
const Backup = {
  type: 'object',
  required: ['id', 'kind', 'status', 'size', 'createdAt', 'expiresAt', 'error'],
  properties: {
    id: { type: 'string' },
    kind: { type: 'string', enum: ['scheduled', 'manual'], description: '`scheduled`: the daily one' },
    status: archiveStatus,
    size: { ...nullableNumber, description: 'Bytes, once done' },
    createdAt: dateTime,
    expiresAt: { ...nullableDateTime, description: 'When it is deleted' },
    error: nullableString,
    url: { ...nullableString, description: 'Where to download it, once done (in the list only)' },
  },
  examples: [{
    id: '0b1f6c1e-8d2a-4c55-9d3e-2f4a7b9c1d2e', kind: 'scheduled', status: 'done', size: 482133, createdAt: '2026-11-29T03:00:00.000Z',
    expiresAt: '2026-12-06T03:00:00.000Z', error: null, url: 'https://cms.example.com/v1/projects/my-blog/backups/0b1f6c1e-8d2a-4c55-9d3e-2f4a7b9c1d2e/download',
  }],
} as const;

/** `{}` or no body: these routes take no options yet (an unknown key is a 400 naming it). */
const NoOptionsBody = {
  type: ['object', 'null'],
  description: 'No options yet: an empty object, or no body',
  maxProperties: 0,
} as const;

const ExportStarted = answerWith('export', { type: 'object', required: ['id', 'status'], properties: { id: { type: 'string' }, status: archiveStatus } },
  'Started: poll `GET /v1/projects/{slug}/exports/{id}` until it is done');
const ExportAnswer = answerWith('export', ProjectExport, 'The export');
const BackupList = listOf('backups', Backup, 'The project\'s backups', 'Newest first');
const BackupAnswer = answerWith('backup', Backup, 'Started: it is listed with its status');

/** A downloaded archive: bytes, never serialized (a stream). */
const ArchiveDownload = {
  description: 'The archive, as an attachment (`.tar.gz` in the layout of `strapi export --no-encrypt`)',
  content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } } },
} as const;

const OWNERS = 'Owners only';
const NO_OPTIONS = 'A body that is not an object, or a key (these routes take no options yet)';

export const exportRoutes = {
  start: defineRoute({
    tags: ['Exports and backups'],
    summary: 'Export the project',
    description: 'Writes an archive in the background: schemas, entities (end users and roles included, as Strapi\'s), links, assets, configuration, metadata. `strapi import` of Strapi 5 and `cms import strapi --data` both accept it.',
    body: NoOptionsBody,
    response: withErrors({ 202: ExportStarted }, { 400: NO_OPTIONS, 403: OWNERS, 404: NO_PROJECT }),
  }),

  get: defineRoute({
    tags: ['Exports and backups'],
    summary: 'Get an export',
    description: 'Its status, and once done its size, counts and download URL. Owners only.',
    response: withErrors({ 200: ExportAnswer }, { 403: OWNERS, 404: 'No such project, or no such export of it' }),
  }),

  download: defineRoute({
    tags: ['Exports and backups'],
    summary: 'Download an export',
    description: 'The `.tar.gz`, streamed as an attachment (`content-disposition`), once the export is done.',
    response: withErrors({ 200: ArchiveDownload }, { 403: OWNERS, 404: 'No such project, or no such finished export of it' }),
  }),
};

export const backupRoutes = {
  list: defineRoute({
    tags: ['Exports and backups'],
    summary: 'List backups',
    description: 'Daily ones (`scheduled`) and manual ones, newest first, kept per plan (`free` 7 days, `pro` 30, `enterprise` 90).',
    response: withErrors({ 200: BackupList }, { 403: OWNERS, 404: NO_PROJECT }),
  }),

  start: defineRoute({
    tags: ['Exports and backups'],
    summary: 'Back up the project now',
    description: 'A manual backup, written in the background and kept for the plan\'s retention.',
    body: NoOptionsBody,
    response: withErrors({ 202: BackupAnswer }, { 400: NO_OPTIONS, 403: OWNERS, 404: NO_PROJECT }),
  }),

  download: defineRoute({
    tags: ['Exports and backups'],
    summary: 'Download a backup',
    description: 'The `.tar.gz`, streamed as an attachment, once the backup is done.',
    response: withErrors({ 200: ArchiveDownload }, { 403: OWNERS, 404: 'No such project, or no such finished backup of it' }),
  }),
};
