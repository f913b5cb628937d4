// Releases (`/v1/projects/{slug}/releases…`): Strapi 5's content releases and their actions, as
// @cms/releases answers them (apps/gateway/src/management/releases.ts).
import { NO_PROJECT, withErrors } from '../errors.ts';
import { defineRoute, noBody, noContent, pageQuery, positiveId } from '../route.ts';
import { answerWith, dateTime, nullableDateTime, nullableString, nullableText, pageOf, publishAction } from '../shapes.ts';


/** A release; its status is worked out again at every read (an entry edited since may block it). */
const Release = {
  type: 'object',
  required: ['id', 'name', 'status', 'scheduledAt', 'timezone', 'releasedAt', 'actions', 'createdAt', 'updatedAt'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    status: {
      type: 'string', enum: ['empty', 'ready', 'blocked', 'failed', 'done'],
      description: '`blocked`: an entry fails publishing\'s validation; `failed`: its scheduled publish failed; `done`: published (it cannot change any more)',
    },
    scheduledAt: { ...nullableDateTime, description: 'When it publishes by itself; null: by hand only' },
    timezone: { ...nullableString, description: 'The IANA zone the schedule was chosen in' },
    releasedAt: nullableDateTime,
    actions: {
      type: 'object', required: ['meta'],
      properties: { meta: { type: 'object', required: ['count'], properties: { count: { type: 'integer' } } } },
    },
    createdAt: dateTime,
    updatedAt: dateTime,
  },
  examples: [{
    id: 3, name: 'Spring launch', status: 'ready', scheduledAt: '2030-03-01T08:00:00.000Z', timezone: 'Europe/Paris', releasedAt: null,
    actions: { meta: { count: 2 } }, createdAt: '2026-11-23T06:00:00.000Z', updatedAt: '2026-11-23T06:00:00.000Z',
  }],
} as const;

/** One document-locale of a release, to publish or unpublish. */
const ReleaseAction = {
  type: 'object',
  required: ['id', 'type', 'contentType', 'entryDocumentId', 'locale', 'isEntryValid', 'entryError', 'entry'],
  properties: {
    id: { type: 'integer' },
    type: publishAction,
    contentType: { type: 'string', description: 'The content type\'s uid' },
    entryDocumentId: { type: 'string' },
    locale: { ...nullableString, description: 'Null on types without i18n' },
    isEntryValid: { type: 'boolean', description: 'The action could be applied now (the entry exists; its draft passes publishing\'s validation)' },
    entryError: { ...nullableString, description: 'Why it could not; null when valid' },
    entry: {
      type: ['object', 'null'], additionalProperties: true,
      description: 'The entry\'s draft as the content API returns it (no populate); null once it no longer exists',
    },
  },
  examples: [{
    id: 9, type: 'publish', contentType: 'api::article.article', entryDocumentId: 'a1b2c3d4e5f6g7h8i9j0k1l2', locale: 'en', isEntryValid: true, entryError: null,
    entry: { id: 14, documentId: 'a1b2c3d4e5f6g7h8i9j0k1l2', title: 'Hello', locale: 'en', publishedAt: null },
  }],
} as const;

const releaseFields = {
  name: { type: 'string', minLength: 1, maxLength: 255, description: 'Trimmed; no control characters' },
  scheduledAt: { ...nullableText(64), description: 'An ISO 8601 instant in the future (needs a `timezone`); null: no schedule' },
  timezone: { ...nullableText(64), description: 'An IANA time zone such as `Europe/Paris`' },
} as const;

const CreateReleaseBody = {
  type: 'object', additionalProperties: false, required: ['name'], properties: releaseFields,
  examples: [{ name: 'Spring launch', scheduledAt: '2030-03-01T09:00:00+01:00', timezone: 'Europe/Paris' }],
} as const;
const UpdateReleaseBody = { type: 'object', additionalProperties: false, properties: releaseFields, examples: [{ scheduledAt: null }] } as const;

const CreateReleaseActionBody = {
  type: 'object', additionalProperties: false, required: ['contentType', 'entryDocumentId', 'type'],
  properties: {
    contentType: { type: 'string', minLength: 1, maxLength: 200, description: 'A draft & publish content type\'s uid' },
    entryDocumentId: { type: 'string', minLength: 1, maxLength: 64 },
    locale: { ...nullableText(50), description: 'Localized types: one of the project\'s locales (default: its default locale)' },
    type: publishAction,
  },
  examples: [{ contentType: 'api::article.article', entryDocumentId: 'a1b2c3d4e5f6g7h8i9j0k1l2', locale: 'en', type: 'publish' }],
} as const;
const UpdateReleaseActionBody = { type: 'object', additionalProperties: false, required: ['type'], properties: { type: publishAction }, examples: [{ type: 'unpublish' }] } as const;

const pageText = {
  page: { type: 'string', pattern: '^\\d{1,9}$', description: 'From 1' },
  pageSize: { type: 'string', pattern: '^\\d{1,9}$', description: 'From 1 to 100 (default 25)' },
} as const;

const ReleaseListQuery = {
  type: 'object',
  properties: { status: { type: 'string', enum: ['pending', 'done'], description: 'pending: not published yet' }, ...pageText },
} as const;
const PageQuery = { type: 'object', properties: pageText } as const;
/** The page as integers (`docQuery`): the handler reads the text (attachValidation) and names a bad value. */
const PageDocQuery = pageQuery(25, 100);

/**
 * The release and the action named in the path (`docParams`): the handler reads the text (a
 * malformed id names nothing: 404).
 */
const releaseParams = { id: positiveId('The release\'s `id`') } as const;
const actionParams = { ...releaseParams, actionId: positiveId('The action\'s `id`') } as const;

const releaseAnswer = (description: string) => answerWith('data', Release, description);
const ReleaseList = pageOf(Release, 'A page of releases, newest first', {
  pendingReleasesCount: { type: 'integer', description: 'Releases not published yet (all pages)' },
});
const actionAnswer = (description: string) => answerWith('data', ReleaseAction, description);
const ReleaseActionList = pageOf(ReleaseAction, 'A page of the release\'s actions');

const WRITERS = 'Viewers cannot change releases';
const NO_RELEASE = 'No such project, or no such release in it';
const NO_ACTION = 'No such project, release or action';
const DONE = 'Invalid (each field named in `details.errors`), or the release is done already (done releases cannot change)';

export const releaseRoutes = {
  create: defineRoute({
    tags: ['Releases'],
    summary: 'Create a release',
    description: 'With `scheduledAt` (an instant in the future) and its IANA `timezone`, it publishes by itself on time, exactly once. Owners and editors; a plan limits pending releases.',
    body: CreateReleaseBody,
    response: withErrors({ 201: releaseAnswer('Created') }, { 400: 'Invalid name or schedule (a past instant, no time zone, an unknown zone)', 403: `${WRITERS}, or the plan's pending releases limit is reached`, 404: NO_PROJECT }),
  }),

  list: defineRoute({
    tags: ['Releases'],
    summary: 'List releases',
    description: 'Newest first, a page at a time; `status=pending` for those not published yet. Any member.',
    querystring: ReleaseListQuery,
    docQuery: PageDocQuery,
    response: withErrors({ 200: ReleaseList }, { 400: 'A malformed page or status (or an unknown key)', 404: NO_PROJECT }),
  }),

  get: defineRoute({
    tags: ['Releases'],
    summary: 'Get a release',
    description: 'Its status is worked out again at this read (an entry edited since may block it). Any member.',
    docParams: releaseParams,
    response: withErrors({ 200: releaseAnswer('The release') }, { 404: NO_RELEASE }),
  }),

  update: defineRoute({
    tags: ['Releases'],
    summary: 'Change a release',
    description: 'Its name and/or schedule (`scheduledAt: null` removes it). Owners and editors.',
    docParams: releaseParams,
    body: UpdateReleaseBody,
    response: withErrors({ 200: releaseAnswer('The release as changed') }, { 400: DONE, 403: WRITERS, 404: NO_RELEASE }),
  }),

  remove: defineRoute({
    tags: ['Releases'],
    summary: 'Delete a release',
    description: 'With its actions (the documents are not changed). Owners and editors.',
    docParams: releaseParams,
    response: withErrors({ 204: noContent('Deleted') }, { 403: WRITERS, 404: NO_RELEASE }),
  }),

  addAction: defineRoute({
    tags: ['Releases'],
    summary: 'Add a document to a release',
    description: 'One document-locale of a draft & publish type, to publish or unpublish; at most once per release. Owners and editors.',
    docParams: releaseParams,
    body: CreateReleaseActionBody,
    response: withErrors({ 201: actionAnswer('Added') }, {
      400: `${DONE}; or a type without draft & publish, an unknown locale`, 403: WRITERS, 404: 'No such project, release or document', 409: 'This document-locale is in the release already',
    }),
  }),

  listActions: defineRoute({
    tags: ['Releases'],
    summary: 'List a release\'s actions',
    description: 'Each document-locale of the release with its entry\'s draft and whether it can be applied now, a page at a time. Any member.',
    querystring: PageQuery,
    docQuery: PageDocQuery,
    docParams: releaseParams,
    response: withErrors({ 200: ReleaseActionList }, { 400: 'A malformed page (or an unknown key)', 404: NO_RELEASE }),
  }),

  updateAction: defineRoute({
    tags: ['Releases'],
    summary: 'Change an action\'s type',
    description: 'Publish or unpublish the document-locale instead. Owners and editors; not on a done release.',
    docParams: actionParams,
    body: UpdateReleaseActionBody,
    response: withErrors({ 200: actionAnswer('The action as changed') }, { 400: DONE, 403: WRITERS, 404: NO_ACTION }),
  }),

  removeAction: defineRoute({
    tags: ['Releases'],
    summary: 'Remove a document from a release',
    description: 'The document itself is not changed. Owners and editors; not on a done release.',
    docParams: actionParams,
    response: withErrors({ 204: noContent('Removed') }, { 400: DONE, 403: WRITERS, 404: NO_ACTION }),
  }),

  publish: defineRoute({
    tags: ['Releases'],
    summary: 'Publish a release now',
    description: 'Applies every action in one transaction, all or nothing, sets `done` and `releasedAt`, and sends the webhook event `releases.publish`. Owners and editors.',
    docParams: releaseParams,
    docBody: noBody(),
    response: withErrors({ 200: releaseAnswer('Published') }, {
      400: 'Published already, or an entry failed (all of them in `details.errors`: `{actionId, type, contentType, entryDocumentId, locale, message, details?}`); nothing was changed',
      403: WRITERS, 404: NO_RELEASE,
    }),
  }),
};
