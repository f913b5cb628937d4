// Scheduled actions (management API § Releases and scheduled publishing, Contentful's shape):
// publish or unpublish one document-locale of a draft & publish type at a set instant. Each row
// and its row in the due index are written in one transaction; the scheduler runs it (schedule-run.ts).
import { checkEntries, writeLocale } from '@cms/documents';
import { NotFoundError, ValidationError } from '@cms/errors';
import type { ReleaseProject } from './context.ts';
import { actionKey, setSchedule } from './schedule-index.ts';
import {
  scheduledActionIdOf, scheduledForOf, type ScheduledActionBody, type ScheduledActionQuery, type ScheduledActionStatus, type ScheduledActionType,
} from './scheduled-action-input.ts';
import { findScheduledAction, insertScheduledAction, listScheduledActionRows, setScheduledActionStatus, type ScheduledActionRow } from './scheduled-action-rows.ts';

/** What a list answers at most (soonest first). */
export const MAX_SCHEDULED_ACTIONS_LISTED = 1000;

export interface ScheduledAction {
  id: number;
  contentType: string;
  documentId: string;
  locale: string | null;
  action: ScheduledActionType;
  /** The instant in UTC (whatever form it was given in) and the zone it was chosen in. */
  scheduledFor: { datetime: string; timezone: string };
  status: ScheduledActionStatus;
  /** Why it failed; null otherwise. */
  error: string | null;
  createdAt: string;
}

export function scheduledActionJson(row: ScheduledActionRow): ScheduledAction {
  return {
    id: row.id, contentType: row.contentType, documentId: row.documentId, locale: row.locale, action: row.action,
    scheduledFor: { datetime: row.scheduledFor, timezone: row.timezone }, status: row.status, error: row.error, createdAt: row.createdAt,
  };
}

const fieldError = (key: string, message: string) => ValidationError.fromFieldErrors([{ path: [key], message, name: 'ValidationError' }]);
const notFound = () => new NotFoundError('Scheduled action not found');

export async function createScheduledAction(
  project: ReleaseProject, body: ScheduledActionBody, options: { createdBy: number | null; locales: ReadonlySet<string> },
): Promise<ScheduledAction> {
  const ct = project.physical.contentTypes[body.contentType];
  if (!ct || !project.model.contentTypes[body.contentType]) throw fieldError('contentType', 'contentType must be the uid of a content type of this project');
  if (!ct.draftAndPublish) throw fieldError('contentType', 'Only content types with draft & publish can be scheduled');
  const locale = ct.localized ? writeLocale(options.locales, project.defaultLocale, body.locale ?? undefined) : null;
  const { at, timezone } = scheduledForOf(body.scheduledFor);
  return project.pool.transaction(async (tx) => {
    const [entry] = await checkEntries(tx, project, [{ uid: body.contentType, documentId: body.documentId, locale }]);
    if (!entry!.exists) throw new NotFoundError('Entry not found', { contentType: body.contentType, documentId: body.documentId, locale });
    const row = await insertScheduledAction(tx, project.schema, {
      contentType: body.contentType, documentId: body.documentId, locale, action: body.action, scheduledFor: at, timezone, createdBy: options.createdBy,
    });
    // The due index in the same transaction: a committed schedule is always found.
    await setSchedule(tx, actionKey(project, row.id), at);
    return scheduledActionJson(row);
  });
}

export async function listScheduledActions(project: ReleaseProject, query: ScheduledActionQuery): Promise<{ data: ScheduledAction[] }> {
  const found = await listScheduledActionRows(project.pool, project.schema, query, MAX_SCHEDULED_ACTIONS_LISTED);
  return { data: found.map(scheduledActionJson) };
}

/** Cancel a scheduled one: it stays, `canceled`, and leaves the due index. Others: 400. */
export async function cancelScheduledAction(project: ReleaseProject, rawId: string): Promise<ScheduledAction> {
  const id = scheduledActionIdOf(rawId);
  if (id === null) throw notFound();
  return project.pool.transaction(async (tx) => {
    // Waits for a run in progress: then it is no longer `scheduled`.
    const row = await findScheduledAction(tx, project.schema, id, true);
    if (!row) throw notFound();
    if (row.status !== 'scheduled') throw new ValidationError(`Only a scheduled action can be canceled: this one is ${row.status}`);
    await setScheduledActionStatus(tx, project.schema, row.id, 'canceled');
    await setSchedule(tx, actionKey(project, row.id), null);
    return scheduledActionJson({ ...row, status: 'canceled' });
  });
}
