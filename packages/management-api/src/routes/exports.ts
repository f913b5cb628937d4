// Exports and backups (`/v1/projects/{slug}/exports…`, `…/backups…`; apps/gateway/src/management/exports.ts):
// archives in the layout of `strapi export --no-encrypt`, written in the background. Owners only:
// an archive holds every end user's password hash.
import { withErrors } from '../errors.ts';
import { defineRoute } from '../route.ts';

const nullableString = { type: ['string', 'null'] } as const;
const nullableNumber = { type: ['number', 'null'] } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;
const nullableDateTime = { type: ['string', 'null'], format: 'date-time' } as const;
const archiveStatus = { type: 'string', enum: ['running', 'done', 'failed'] } as const;

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
} as const;

/** `{}` or no body: these routes take no options yet (an unknown key is a 400 naming it). */
const NoOptionsBody = {
  type: ['object', 'null'],
  description: 'No options yet: an empty object, or no body',
  maxProperties: 0,
} as const;

const ExportStarted = {
  description: 'Started: poll `GET /v1/projects/{slug}/exports/{id}` until it is done',
  type: 'object', required: ['export'],
  properties: { export: { type: 'object', required: ['id', 'status'], properties: { id: { type: 'string' }, status: archiveStatus } } },
} as const;
const ExportAnswer = { description: 'The export', type: 'object', required: ['export'], properties: { export: ProjectExport } } as const;
const BackupList = {
  description: 'The project\'s backups',
  type: 'object', required: ['backups'],
  properties: { backups: { type: 'array', items: Backup, description: 'Newest first' } },
} as const;
const BackupAnswer = { description: 'Started: it is listed with its status', type: 'object', required: ['backup'], properties: { backup: Backup } } as const;

/** A downloaded archive: bytes, never serialized (a stream). */
const ArchiveDownload = {
  description: 'The archive, as an attachment (`.tar.gz` in the layout of `strapi export --no-encrypt`)',
  content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } } },
} as const;

const OWNERS = 'Owners only';
const NO_PROJECT = 'No such project (or not a member)';
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
