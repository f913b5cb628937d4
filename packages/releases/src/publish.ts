// Publishing a release: every action applied in ONE transaction, all or nothing. The release's row
// is locked first, so of two publishes at once (two members, or a member and the scheduler on
// another instance) one publishes and the other, once the lock is free, finds it `done`.
// Publish actions publish the entry's draft as it is now (Strapi's rule), unpublish actions
// unpublish; each document's usual webhook events and history versions are written in the same
// transaction. A failure rolls everything back, then a transaction of its own marks the release
// `failed` with the reason and sends `releases.publish` with `isPublished: false`.
import { sqlState, type Db } from '@cms/db';
import { publishIn, unpublishIn, writeContext, type DocumentStore, type WriteOrigin } from '@cms/documents';
import { AppError, ValidationError } from '@cms/errors';
import type { ReleasePublishEvent } from '@cms/webhooks';
import type { ReleaseProject } from './context.ts';
import { releaseJson, type Release } from './release-json.ts';
import { actionsOf, findRelease, markReleased, updateReleaseRow, type ActionRow } from './release-rows.ts';
import { lockRelease } from './release-change.ts';
import { releaseKey, setSchedule } from './schedule-index.ts';
import { actionProblems } from './validity.ts';

export interface PublishReleaseOptions extends ReleaseProject {
  /** The release's id (decimal text or number). */
  releaseId: string | number;
  /** The documents' webhook events (`entry.publish`, `entry.unpublish`), in the publish's transaction. */
  emit?: DocumentStore['emit'];
  /** `releases.publish`: in the publish's transaction, or in the one that marks it failed. */
  emitRelease?(tx: Db, event: ReleasePublishEvent): Promise<void>;
  /** Recorded on the documents' history versions (origin `release`, or `schedule`); null: history off. */
  history: WriteOrigin | null;
}

/** An entry the release could not apply, as the 400's `details.errors` lists it. */
export interface ReleaseEntryError {
  actionId: number;
  type: ActionRow['type'];
  contentType: string;
  entryDocumentId: string;
  locale: string | null;
  message: string;
  /** The entry's own validation details (its attributes' errors), when there are some. */
  details?: Record<string, unknown>;
}

export type PublishReleaseResult =
  /** This call published it. */
  | { outcome: 'published'; release: Release }
  /** It was published already (by another call that held the lock first): nothing done. */
  | { outcome: 'done'; release: Release }
  /** Nothing changed; the release is now `failed`. `error` is the 400 to answer with. */
  | { outcome: 'failed'; release: Release; error: ValidationError };

/** Thrown inside the transaction to roll it back with the entries that failed. */
class ReleaseFailure extends Error {
  constructor(readonly entries: ReleaseEntryError[]) {
    super('release failed');
  }
}

const entryName = (e: ReleaseEntryError) => `${e.contentType} ${e.entryDocumentId}${e.locale === null ? '' : ` (${e.locale})`}`;

function failureError(entries: ReleaseEntryError[]): ValidationError {
  const message = entries.length === 1
    ? `The release could not be published: ${entryName(entries[0]!)}: ${entries[0]!.message}`
    : `The release could not be published: ${entries.length} entries failed (first: ${entryName(entries[0]!)}: ${entries[0]!.message})`;
  return new ValidationError(message, { errors: entries });
}

const entryError = (action: ActionRow, message: string, details?: Record<string, unknown>): ReleaseEntryError => ({
  actionId: action.id, type: action.type, contentType: action.contentType, entryDocumentId: action.entryDocumentId, locale: action.locale, message,
  ...(details && Object.keys(details).length > 0 ? { details } : {}),
});

/** Documents in one order for every release, so two releases sharing documents lock them in the same order. */
const byDocument = (a: ActionRow, b: ActionRow) =>
  a.contentType.localeCompare(b.contentType) || a.entryDocumentId.localeCompare(b.entryDocumentId) || (a.locale ?? '').localeCompare(b.locale ?? '');

/**
 * Publish release `releaseId` now. Throws NotFoundError (no such release) and ValidationError (it
 * has no actions: nothing to publish, nothing marked); other errors (the database) propagate with
 * nothing changed and the release still pending.
 */
export async function publishRelease(options: PublishReleaseOptions): Promise<PublishReleaseResult> {
  const { pool, schema } = options;
  const attempt = () => pool.transaction(async (tx): Promise<PublishReleaseResult> => {
    const row = await lockRelease(tx, options, String(options.releaseId));
    if (row.releasedAt !== null) return { outcome: 'done', release: releaseJson(row, 'done') };
    const actions = (await actionsOf(tx, schema, [row.id])).sort(byDocument);
    if (actions.length === 0) throw new ValidationError('This release has no entries to publish');
    // Every entry checked first, so the answer names all the invalid ones, not just the first.
    const problems = await actionProblems(tx, options, actions);
    const invalid = actions.flatMap((a, i) => (problems[i] === null ? [] : [entryError(a, problems[i]!)]));
    if (invalid.length > 0) throw new ReleaseFailure(invalid);
    const ctx = writeContext(options, tx);
    for (const action of actions) {
      const req = { uid: action.contentType, documentId: action.entryDocumentId, locale: action.locale ?? options.defaultLocale };
      try {
        if (action.type === 'publish') await publishIn(ctx, options, req);
        else await unpublishIn(ctx, options, req);
      } catch (error) {
        // A refusal of this entry (a unique value taken meanwhile…): the release fails on it.
        if (error instanceof AppError && error.status < 500) throw new ReleaseFailure([entryError(action, error.message, error.details)]);
        throw error;
      }
    }
    await markReleased(tx, schema, row.id);
    // Published: its schedule (if any) is spent, in the same transaction.
    await setSchedule(tx, releaseKey(options, row.id), null);
    const release = releaseJson((await findRelease(tx, schema, String(row.id)))!, 'done');
    await options.emitRelease?.(tx, { isPublished: true, release });
    return { outcome: 'published', release };
  });
  try {
    try {
      return await attempt();
    } catch (error) {
      // A linked end user deleted by another transaction meanwhile (publishing copies the drafts'
      // links): rolled back; once more on what is there now, as a single write does.
      if (sqlState(error) !== '23503') throw error;
      return await attempt();
    }
  } catch (error) {
    if (!(error instanceof ReleaseFailure)) throw error;
    return markFailed(options, failureError(error.entries));
  }
}

/**
 * After the rollback: the release is `failed` with the reason (unless another call published it
 * meanwhile). Also what a schedule does when the release cannot even be tried (no entries).
 */
export async function markFailed(options: PublishReleaseOptions, error: ValidationError): Promise<PublishReleaseResult> {
  return options.pool.transaction(async (tx): Promise<PublishReleaseResult> => {
    const row = await lockRelease(tx, options, String(options.releaseId));
    if (row.releasedAt !== null) return { outcome: 'done', release: releaseJson(row, 'done') };
    await updateReleaseRow(tx, options.schema, row.id, { status: 'failed', error: error.message.slice(0, 2000) });
    const release = releaseJson((await findRelease(tx, options.schema, String(row.id)))!, 'failed');
    await options.emitRelease?.(tx, { isPublished: false, release, error: { name: error.name, message: error.message, details: error.details } });
    return { outcome: 'failed', release, error };
  });
}
