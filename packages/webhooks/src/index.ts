// @cms/webhooks: a project's webhooks (CRUD, encrypted signing secrets), the outbox its content
// and media changes write to in their own transaction, and the delivery of those events (BullMQ
// with Redis, an in-process loop without), signed, retried for 24 h, logged, replayable.
export { WEBHOOK_EVENTS, TEST_EVENT, isWebhookEvent, entryPayload, mediaPayload, releasePayload, testPayload, type WebhookEvent, type EntryEvent, type MediaEvent, type ReleasePublishEvent } from './events.ts';
export { SIGNATURE_HEADER, signatureHeader, signatureOf, verifySignature } from './signature.ts';
export { isPrivateAddress, sendWebhook, type SendOutcome, type SendRequest } from './send.ts';
export { retryDelay } from './schedule.ts';
export { WebhookStore, LOG_SIZE, OUTBOX_CHANNEL, type Webhook, type WebhookInput, type Delivery, type DeliveryStatus, type AttemptLog } from './store.ts';
export { WebhookRuntime, createWebhookRuntime, createClusterWebhookRuntimes, type WebhookClusters, RESERVED_HEADERS, WEBHOOK_QUEUE, type WebhookRuntimeOptions } from './runtime.ts';
