// Which events a webhook may listen to, and the bodies Strapi 5 sends for them.
import { WEBHOOK_EVENTS } from '@cms/management-api/shapes';

// The list is written once, with the management API's shapes (the `Webhook` schema and the webhook
// routes' bodies name it; that package sits below this one).
export { WEBHOOK_EVENTS };

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export type EntryEvent = Extract<WebhookEvent, `entry.${string}`>;
export type MediaEvent = Extract<WebhookEvent, `media.${string}`>;

/** A release's publish as its webhook tells it: `error` only when it failed (then `isPublished` is false). */
export interface ReleasePublishEvent {
  isPublished: boolean;
  release: unknown;
  error?: { name: string; message: string; details: Record<string, unknown> };
}

/** The event of a test send (Strapi's "Trigger" button). */
export const TEST_EVENT = 'trigger-test';

export const isWebhookEvent = (value: unknown): value is WebhookEvent =>
  typeof value === 'string' && (WEBHOOK_EVENTS as readonly string[]).includes(value);

/** `{event, createdAt, model, uid, entry}`: `entry` is the written version as the content API returns it. */
export function entryPayload(event: EntryEvent, model: string, uid: string, entry: unknown, at = new Date()): string {
  return JSON.stringify({ event, createdAt: at.toISOString(), model, uid, entry });
}

/** `{event, createdAt, media}`: the file as the upload API returns it. */
export function mediaPayload(event: MediaEvent, media: unknown, at = new Date()): string {
  return JSON.stringify({ event, createdAt: at.toISOString(), media });
}

/** Strapi 5's `{event: 'releases.publish', createdAt, isPublished, release, error?}`. */
export function releasePayload(ev: ReleasePublishEvent, at = new Date()): string {
  return JSON.stringify({ event: 'releases.publish', createdAt: at.toISOString(), isPublished: ev.isPublished, release: ev.release, ...(ev.error ? { error: ev.error } : {}) });
}

export function testPayload(at = new Date()): string {
  return JSON.stringify({ event: TEST_EVENT, createdAt: at.toISOString() });
}
