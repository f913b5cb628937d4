// The events a webhook may listen to, as the form offers them. The list is the API's own (the
// document's enum of `Webhook.events`): an event the API adds or drops fails the typecheck here
// until its label follows.
import type { WebhookEvent } from '../api/get-webhooks.ts';

const LABELS = {
  'entry.create': 'Entry created',
  'entry.update': 'Entry updated',
  'entry.delete': 'Entry deleted',
  'entry.publish': 'Entry published',
  'entry.unpublish': 'Entry unpublished',
  'media.create': 'Media uploaded',
  'media.update': 'Media updated',
  'media.delete': 'Media deleted',
  'releases.publish': 'Release published',
} as const satisfies Record<WebhookEvent, string>;

export const WEBHOOK_EVENTS = Object.entries(LABELS).map(([value, label]) => ({ value, label }));

/** A new webhook's events: every change of content. */
export const DEFAULT_EVENTS: WebhookEvent[] = ['entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish'];
