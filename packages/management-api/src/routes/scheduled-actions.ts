// Scheduled actions (`/v1/projects/{slug}/scheduled-actions…`): one document-locale published or
// unpublished at a set instant, in the shape of Contentful's (apps/gateway/src/management/scheduled-actions.ts).
import { NO_PROJECT, withErrors } from '../errors.ts';
import { defineRoute, noContent, positiveId } from '../route.ts';
import { answerWith, dateTime, listOf, nullableString, nullableText, publishAction } from '../shapes.ts';

const status = { type: 'string', enum: ['scheduled', 'succeeded', 'failed', 'canceled'] } as const;

/** One document-locale published or unpublished at a set instant. */
const ScheduledAction = {
  type: 'object',
  required: ['id', 'contentType', 'documentId', 'locale', 'action', 'scheduledFor', 'status', 'error', 'createdAt'],
  properties: {
    id: { type: 'integer' },
    contentType: { type: 'string' },
    documentId: { type: 'string' },
    locale: { ...nullableString, description: 'Null on types without i18n' },
    action: publishAction,
    scheduledFor: {
      type: 'object', required: ['datetime', 'timezone'],
      properties: {
        datetime: { ...dateTime, description: 'The instant, in UTC' },
        timezone: { type: 'string', description: 'The IANA zone it was chosen in' },
      },
    },
    status,
    error: { ...nullableString, description: 'Why it failed' },
    createdAt: dateTime,
  },
  examples: [{
    id: 6, contentType: 'api::article.article', documentId: 'a1b2c3d4e5f6g7h8i9j0k1l2', locale: 'en', action: 'publish',
    scheduledFor: { datetime: '2030-12-01T08:00:00.000Z', timezone: 'Europe/Paris' }, status: 'scheduled', error: null, createdAt: '2026-11-29T09:30:00.000Z',
  }],
} as const;

const CreateScheduledActionBody = {
  type: 'object', additionalProperties: false, required: ['contentType', 'documentId', 'action', 'scheduledFor'],
  properties: {
    contentType: { type: 'string', minLength: 1, maxLength: 200 },
    documentId: { type: 'string', minLength: 1, maxLength: 64 },
    locale: { ...nullableText(50), description: 'Localized types: one of the project\'s locales (default: its default locale); ignored on others' },
    action: publishAction,
    scheduledFor: {
      type: 'object', additionalProperties: false, required: ['datetime', 'timezone'],
      properties: {
        datetime: {
          type: 'string', minLength: 1, maxLength: 64,
          description: 'In the future: an ISO 8601 instant (`Z` or an offset), or a local date-time without offset on the clock of `timezone`',
        },
        timezone: { type: 'string', minLength: 1, maxLength: 64, description: 'An IANA time zone' },
      },
    },
  },
  examples: [{ contentType: 'api::article.article', documentId: 'a1b2c3d4e5f6g7h8i9j0k1l2', action: 'publish', scheduledFor: { datetime: '2030-12-01T09:00:00', timezone: 'Europe/Paris' } }],
} as const;

const ScheduledActionListQuery = {
  type: 'object',
  properties: {
    documentId: { type: 'string', description: 'Only this document\'s' },
    status,
  },
} as const;

const ScheduledActionAnswer = answerWith('data', ScheduledAction, 'Scheduled');
const ScheduledActionList = listOf('data', ScheduledAction, 'The scheduled actions (cancelled ones too, as `canceled`)', 'Soonest first, at most 1000');


export const scheduledActionRoutes = {
  create: defineRoute({
    tags: ['Scheduled actions'],
    summary: 'Schedule a publish or unpublish',
    description: 'One document-locale of a draft & publish type, at an instant in the future (within 5 s of it, exactly once). Owners and editors.',
    body: CreateScheduledActionBody,
    response: withErrors({ 201: ScheduledActionAnswer }, {
      400: 'Invalid (a type without draft & publish, a past or malformed instant, an unknown zone or locale; named in `details.errors`)', 403: 'Viewers cannot schedule', 404: 'No such project or document',
    }),
  }),

  list: defineRoute({
    tags: ['Scheduled actions'],
    summary: 'List scheduled actions',
    description: 'Soonest first, at most 1000.',
    querystring: ScheduledActionListQuery,
    response: withErrors({ 200: ScheduledActionList }, { 400: 'A malformed filter (or an unknown key)', 404: NO_PROJECT }),
  }),

  cancel: defineRoute({
    tags: ['Scheduled actions'],
    summary: 'Cancel a scheduled action',
    description: 'It stays listed, as `canceled`. Owners and editors.',
    docParams: { id: positiveId('A malformed id names nothing (404)') },
    response: withErrors({ 204: noContent('Cancelled') }, { 400: 'Only a scheduled action can be cancelled (it ran, failed or was cancelled)', 403: 'Viewers cannot cancel', 404: 'No such project, or no such scheduled action in it' }),
  }),
};
