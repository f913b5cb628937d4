// A project's webhooks (`/v1/projects/{slug}/webhooks…`): the body of a create or an update, and
// the delivery log. The webhook itself is shapes.ts' `Webhook`.
import { NO_PROJECT, withErrors } from '../errors.ts';
import { defineRoute, noBody, noContent, positiveId } from '../route.ts';
import { WEBHOOK_EVENTS, answerWith, dateTime, listOf, nullableDateTime, nullableInteger, nullableString } from '../shapes.ts';

/**
 * A create's body (`partial: false`: name, url and events required) or an update's (any subset).
 * The route checks every rule below itself, answering each broken one with its path in
 * `details.errors`: the gateway registers these routes with `attachValidation` (the handler
 * answers, in its words), and the schema says the same rules.
 */
function webhookBody(partial: boolean) {
  return {
    type: 'object',
    description: partial ? 'The fields to change; the others keep their value' : 'The new webhook',
    ...(partial ? {} : { required: ['name', 'url', 'events'] }),
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 100 },
      url: { type: 'string', maxLength: 2048, description: 'An http or https URL' },
      events: { type: 'array', minItems: 1, items: { type: 'string', enum: WEBHOOK_EVENTS } },
      headers: {
        type: 'object',
        maxProperties: 20,
        description: 'Extra request headers, name → value (one line of at most 1000 characters); the platform\'s own (`Content-Type`, `X-Webhook-Signature`, …) cannot be set',
        additionalProperties: { type: 'string', maxLength: 1000 },
      },
      enabled: { type: 'boolean', description: partial ? 'Deliveries are sent' : 'Deliveries are sent (default true)' },
    },
    additionalProperties: false,
    examples: [partial ? { enabled: false } : { name: 'Rebuild the site', url: 'https://hooks.example.com/rebuild', events: ['entry.publish', 'entry.unpublish'] }],
  } as const;
}

/** One attempt at a delivery. */
const Attempt = {
  type: 'object',
  required: ['attempt', 'responseStatus', 'error', 'durationMs', 'responseExcerpt', 'at'],
  properties: {
    attempt: { type: 'integer' },
    responseStatus: { ...nullableInteger, description: 'The receiver\'s HTTP status; null when none came back' },
    error: { ...nullableString, description: 'Why it failed (timeout, refused connection, a non-2xx status)' },
    durationMs: { type: 'integer' },
    responseExcerpt: { ...nullableString, description: 'The start of the receiver\'s answer' },
    at: dateTime,
  },
} as const;

/** An event sent (or being sent) to a webhook, with its attempts. */
const WebhookDelivery = {
  type: 'object',
  required: ['id', 'webhookId', 'event', 'status', 'attempts', 'durationMs', 'responseStatus', 'error', 'responseExcerpt', 'nextAttemptAt', 'createdAt', 'updatedAt', 'log'],
  properties: {
    id: { type: 'integer' },
    webhookId: { type: 'integer' },
    event: { type: 'string', description: 'One of the webhook\'s events, or `trigger-test` for a test send' },
    status: { type: 'string', enum: ['pending', 'retrying', 'delivered', 'dead'], description: '`dead`: retries exhausted (replay it to try again)' },
    attempts: { type: 'integer' },
    durationMs: { ...nullableInteger, description: 'Of the last attempt' },
    responseStatus: nullableInteger,
    error: nullableString,
    responseExcerpt: nullableString,
    nextAttemptAt: { ...nullableDateTime, description: 'When it is tried next (pending and retrying only)' },
    createdAt: dateTime,
    updatedAt: dateTime,
    log: { type: 'array', items: Attempt, description: 'Every attempt, newest first (replays included)' },
  },
  examples: [{
    id: 40, webhookId: 5, event: 'entry.publish', status: 'delivered', attempts: 1, durationMs: 84, responseStatus: 200, error: null,
    responseExcerpt: 'ok', nextAttemptAt: null, createdAt: '2026-11-29T09:30:00.000Z', updatedAt: '2026-11-29T09:30:00.084Z',
    log: [{ attempt: 1, responseStatus: 200, error: null, durationMs: 84, responseExcerpt: 'ok', at: '2026-11-29T09:30:00.084Z' }],
  }],
} as const;

const webhookAnswer = (description: string) => answerWith('webhook', { $ref: 'Webhook#' }, description);
const deliveryAnswer = (description: string) => answerWith('delivery', WebhookDelivery, description);
const NOT_FOUND = 'No such project (or not a member), or no such webhook in it';

/** The webhook (and delivery) named in the path (`docParams`): a malformed id names nothing (404). */
const hookParams = { id: positiveId('The webhook\'s `id`') } as const;
const deliveryParams = { ...hookParams, deliveryId: positiveId('The delivery\'s `id`') } as const;
const WRITERS = 'Viewers cannot change webhooks';

export const webhookRoutes = {
  create: defineRoute({
    tags: ['Webhooks'],
    summary: 'Create a webhook',
    description: 'Answers the signing secret this once: every delivery carries `X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` keyed by it. Owners and editors.',
    body: webhookBody(false),
    response: withErrors({
      201: {
        description: 'Created; its secret (shown once)',
        type: 'object',
        required: ['webhook', 'secret'],
        properties: { webhook: { $ref: 'Webhook#' }, secret: { type: 'string', description: '`whsec_…`: keep it, it is never shown again' } },
      },
    }, { 400: 'A field is missing or invalid (each named in `details.errors`)', 403: WRITERS, 404: NO_PROJECT }),
  }),

  list: defineRoute({
    tags: ['Webhooks'],
    summary: 'List the project\'s webhooks',
    description: 'Every webhook of the project, oldest first, without their signing secrets. Any member.',
    response: withErrors({
      200: listOf('webhooks', { $ref: 'Webhook#' }, 'Its webhooks, oldest first (never their secrets)'),
    }, { 404: NO_PROJECT }),
  }),

  get: defineRoute({
    tags: ['Webhooks'],
    summary: 'Get a webhook',
    description: 'One webhook, without its signing secret. Any member.',
    docParams: hookParams,
    response: withErrors({ 200: webhookAnswer('The webhook') }, { 404: NOT_FOUND }),
  }),

  update: defineRoute({
    tags: ['Webhooks'],
    summary: 'Change a webhook',
    description: 'Only the fields sent change (`events` and `headers` are replaced whole). Owners and editors.',
    docParams: hookParams,
    body: webhookBody(true),
    response: withErrors({ 200: webhookAnswer('The webhook as changed') }, { 400: 'A field is invalid (each named in `details.errors`)', 403: WRITERS, 404: NOT_FOUND }),
  }),

  remove: defineRoute({
    tags: ['Webhooks'],
    summary: 'Delete a webhook',
    description: 'With its delivery log. Owners and editors.',
    docParams: hookParams,
    response: withErrors({ 204: noContent('Deleted') }, { 403: WRITERS, 404: NOT_FOUND }),
  }),

  test: defineRoute({
    tags: ['Webhooks'],
    summary: 'Send a test event',
    description: 'Sends a `trigger-test` event now (one attempt, no retries) and answers its outcome. Owners and editors.',
    docParams: hookParams,
    docBody: noBody(),
    response: withErrors({ 202: deliveryAnswer('Sent: the delivery and its attempt') }, { 403: WRITERS, 404: NOT_FOUND }),
  }),

  deliveries: defineRoute({
    tags: ['Webhooks'],
    summary: 'List a webhook\'s deliveries',
    description: 'Its latest deliveries (at most 100 are kept), newest first, each with its attempts.',
    docParams: hookParams,
    response: withErrors({
      200: listOf('deliveries', WebhookDelivery, 'The delivery log'),
    }, { 404: NOT_FOUND }),
  }),

  replay: defineRoute({
    tags: ['Webhooks'],
    summary: 'Send a delivery again',
    description: 'Queues the same body again (a new series of attempts, with retries). Owners and editors.',
    docParams: deliveryParams,
    docBody: noBody(),
    response: withErrors({ 202: deliveryAnswer('Queued again') }, {
      403: WRITERS, 404: 'No such project, webhook or delivery', 409: 'The delivery is on its way already (pending)',
    }),
  }),
};
