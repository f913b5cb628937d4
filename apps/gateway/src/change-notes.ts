// What a request changed, for the CDN purge sent after it (docs/delivery.md): the documents its
// writes emitted events for (`t:{uid} d:{documentId}`), or "the project" for anything else (media,
// settings). Collected in the request's async context: the write paths (REST, GraphQL, the
// dashboard, releases, history restores) note their changes without being handed the request.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyRequest } from 'fastify';
import { documentKey, typeKey } from '@cms/delivery';

/** The purge keys of a request's changes; `project`: something not a document changed. */
export class ChangeNotes {
  readonly keys = new Set<string>();
  project = false;
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
