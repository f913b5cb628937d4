// A project's webhooks (`/v1/projects/{slug}/webhooks…`): the body of a create or an update, and
// the delivery log. The webhook itself is shapes.ts' `Webhook`.
import { withErrors } from '../errors.ts';
import { defineRoute, noContent } from '../route.ts';

const nullableString = { type: ['string', 'null'] } as const;
const nullableInteger = { type: ['integer', 'null'] } as const;

/** The events a webhook may listen to (@cms/webhooks' WEBHOOK_EVENTS). */
const WEBHOOK_EVENT_NAMES = [
  'entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish',
  'media.create', 'media.update', 'media.delete',
  'releases.publish',
] as const;

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
      events: { type: 'array', minItems: 1, items: { type: 'string', enum: WEBHOOK_EVENT_NAMES } },
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
    at: { type: 'string', format: 'date-time' },
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
    nextAttemptAt: { type: ['string', 'null'], format: 'date-time', description: 'When it is tried next (pending and retrying only)' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    log: { type: 'array', items: Attempt, description: 'Every attempt, newest first (replays included)' },
  },
} as const;

const webhookAnswer = (description: string) => ({ description, type: 'object', required: ['webhook'], properties: { webhook: { $ref: 'Webhook#' } } }) as const;
const deliveryAnswer = (description: string) => ({ description, type: 'object', required: ['delivery'], properties: { delivery: WebhookDelivery } }) as const;
const NOT_FOUND = 'No such project (or not a member), or no such webhook in it';
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
    }, { 400: 'A field is missing or invalid (each named in `details.errors`)', 403: WRITERS, 404: 'No such project (or not a member)' }),
  }),

  list: defineRoute({
    tags: ['Webhooks'],
    summary: 'List the project\'s webhooks',
    response: withErrors({
      200: { description: 'Its webhooks, oldest first (never their secrets)', type: 'object', required: ['webhooks'], properties: { webhooks: { type: 'array', items: { $ref: 'Webhook#' } } } },
    }, { 404: 'No such project (or not a member)' }),
  }),

  get: defineRoute({
    tags: ['Webhooks'],
    summary: 'Get a webhook',
    response: withErrors({ 200: webhookAnswer('The webhook') }, { 404: NOT_FOUND }),
  }),

  update: defineRoute({
    tags: ['Webhooks'],
    summary: 'Change a webhook',
    description: 'Only the fields sent change (`events` and `headers` are replaced whole). Owners and editors.',
    body: webhookBody(true),
    response: withErrors({ 200: webhookAnswer('The webhook as changed') }, { 400: 'A field is invalid (each named in `details.errors`)', 403: WRITERS, 404: NOT_FOUND }),
  }),

  remove: defineRoute({
    tags: ['Webhooks'],
    summary: 'Delete a webhook',
    description: 'With its delivery log. Owners and editors.',
    response: withErrors({ 204: noContent('Deleted') }, { 403: WRITERS, 404: NOT_FOUND }),
  }),

  test: defineRoute({
    tags: ['Webhooks'],
    summary: 'Send a test event',
    description: 'Sends a `trigger-test` event now (one attempt, no retries) and answers its outcome. Owners and editors.',
    response: withErrors({ 202: deliveryAnswer('Sent: the delivery and its attempt') }, { 403: WRITERS, 404: NOT_FOUND }),
  }),

  deliveries: defineRoute({
    tags: ['Webhooks'],
    summary: 'List a webhook\'s deliveries',
    description: 'Its latest deliveries (at most 100 are kept), newest first, each with its attempts.',
    response: withErrors({
      200: { description: 'The delivery log', type: 'object', required: ['deliveries'], properties: { deliveries: { type: 'array', items: WebhookDelivery } } },
    }, { 404: NOT_FOUND }),
  }),

  replay: defineRoute({
    tags: ['Webhooks'],
    summary: 'Send a delivery again',
    description: 'Queues the same body again (a new series of attempts, with retries). Owners and editors.',
    response: withErrors({ 202: deliveryAnswer('Queued again') }, {
      403: WRITERS, 404: 'No such project, webhook or delivery', 409: 'The delivery is on its way already (pending)',
    }),
  }),
};
