// What a request changed, for the CDN purge sent after it (docs/delivery.md): the documents its
// writes emitted events for (`t:{uid} d:{documentId}`), or "the project" for anything else (media,
// settings); and its live events, for the live streams (live/live-hub.ts). Collected in the
// request's async context: the write paths (REST, GraphQL, the dashboard, releases, history
// restores) note their changes without being handed the request.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyRequest } from 'fastify';
import { documentKey, typeKey } from '@cms/delivery';
import type { LiveEvent } from '@cms/live';

/** The purge keys of a request's changes; `project`: something not a document changed. */
export class ChangeNotes {
  readonly keys = new Set<string>();
  project = false;
  /** Live events its writes positioned (committed with them), in the order they were. */
  readonly positioned: LiveEvent[] = [];
  /** Its writes recorded live events left to the sequencer. */
  unsequenced = false;
}

declare module 'fastify' {
  interface FastifyRequest {
    changeNotes: ChangeNotes | null;
  }
}

const storage = new AsyncLocalStorage<ChangeNotes>();

/** Run the rest of the request (`done`) collecting its changes in `request.changeNotes`. */
export function collectChanges(request: FastifyRequest, done: () => void): void {
  const notes = new ChangeNotes();
  request.changeNotes = notes;
  storage.run(notes, done);
}

/** A document changed (its webhook event was written in the change's transaction). */
export function noteDocumentChange(uid: string, documentId: string): void {
  const notes = storage.getStore();
  if (!notes) return;
  notes.keys.add(typeKey(uid));
  notes.keys.add(documentKey(documentId));
}

/**
 * Where a write committed with the statement recording its live events hands them, positioned:
 * the request's notes (undefined outside a request: the events are left to the sequencer).
 */
export function positionedLiveEvents(): ((events: LiveEvent[]) => void) | undefined {
  const notes = storage.getStore();
  return notes ? (events) => notes.positioned.push(...events) : undefined;
}

/** A write recorded live events without positions: the sequencer positions them after the request. */
export function noteUnsequencedEvents(): void {
  const notes = storage.getStore();
  if (notes) notes.unsequenced = true;
}

/** Something else than a document changed: the whole project is purged. */
export function noteProjectChange(): void {
  const notes = storage.getStore();
  if (notes) notes.project = true;
}

/** The keys to purge after the request, or undefined for the whole project. */
export function purgeKeysOf(notes: ChangeNotes | null): string[] | undefined {
  if (!notes || notes.project || notes.keys.size === 0) return undefined;
  return [...notes.keys];
}
