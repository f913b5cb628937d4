// A release's actions: publish or unpublish one document-locale of a type with draft & publish,
// at most once per release. Each change runs as a change of its release (release-change.ts).
import type { Db } from '@cms/db';
import { checkEntries, writeLocale } from '@cms/documents';
import { ApplicationError, NotFoundError, ValidationError } from '@cms/errors';
import type { ReleaseProject } from './context.ts';
import { entryOf } from './entries.ts';
import { idOf, type ListQuery } from './release-input.ts';
import { changeRelease, releaseNotFound } from './release-change.ts';
import { actionJson, type ReleaseAction } from './release-json.ts';
import {
  deleteActionRow, findAction, findRelease, insertAction, listActionRows, updateActionType, type ActionRow, type ActionType,
} from './release-rows.ts';
import { actionProblems } from './validity.ts';

export interface ActionBody {
  contentType: string;
  entryDocumentId: string;
  /** Localized types: one of the project's locales (default: its default locale); ignored on others. */
  locale?: string | null;
  type: ActionType;
}

const fieldError = (key: string, message: string) => ValidationError.fromFieldErrors([{ path: [key], message, name: 'ValidationError' }]);
const actionNotFound = () => new NotFoundError('Release action not found');

/** The actions as answered: each one's validity and entry read now. */
async function actionsJson(db: Db, project: ReleaseProject, rows: readonly ActionRow[]): Promise<ReleaseAction[]> {
  const problems = await actionProblems(db, project, rows);
  const out: ReleaseAction[] = [];
  for (const [i, row] of rows.entries()) out.push(actionJson(row, problems[i] ?? null, await entryOf(db, project, row)));
  return out;
}

export async function addAction(project: ReleaseProject, rawReleaseId: string, body: ActionBody, locales: ReadonlySet<string>): Promise<ReleaseAction> {
  const ct = project.physical.contentTypes[body.contentType];
  if (!ct || !project.model.contentTypes[body.contentType]) throw fieldError('contentType', 'contentType must be the uid of a content type of this project');
  if (!ct.draftAndPublish) throw fieldError('contentType', 'Only content types with draft & publish can be in a release');
  const locale = ct.localized ? writeLocale(locales, project.defaultLocale, body.locale ?? undefined) : null;
  let added: ReleaseAction | undefined;
  await changeRelease(project, rawReleaseId, async (tx, release) => {
    const [entry] = await checkEntries(tx, project, [{ uid: body.contentType, documentId: body.entryDocumentId, locale }]);
    if (!entry!.exists) throw new NotFoundError('Entry not found', { contentType: body.contentType, entryDocumentId: body.entryDocumentId, locale });
    const row = await insertAction(tx, project.schema, release.id, { type: body.type, contentType: body.contentType, entryDocumentId: body.entryDocumentId, locale });
    if (!row) {
      throw new ApplicationError('This entry is already in this release', { contentType: body.contentType, entryDocumentId: body.entryDocumentId, locale }, 409);
    }
    [added] = await actionsJson(tx, project, [row]);
  });
  return added!;
}

export interface ActionList {
  data: ReleaseAction[];
  meta: { pagination: { page: number; pageSize: number; pageCount: number; total: number } };
}

export async function listActions(project: ReleaseProject, rawReleaseId: string, query: ListQuery): Promise<ActionList> {
  const release = await findRelease(project.pool, project.schema, idOf(rawReleaseId, 'Release'));
  if (!release) throw releaseNotFound();
  const { rows, total } = await listActionRows(project.pool, project.schema, release.id, query);
  return {
    data: await actionsJson(project.pool, project, rows),
    meta: { pagination: { page: query.page, pageSize: query.pageSize, pageCount: Math.ceil(total / query.pageSize), total } },
  };
}

export async function updateAction(project: ReleaseProject, rawReleaseId: string, rawActionId: string, type: ActionType): Promise<ReleaseAction> {
  const actionId = idOf(rawActionId, 'Release action');
  let updated: ReleaseAction | undefined;
  await changeRelease(project, rawReleaseId, async (tx, release) => {
    const row = await findAction(tx, project.schema, release.id, actionId);
    if (!row) throw actionNotFound();
    await updateActionType(tx, project.schema, row.id, type);
    [updated] = await actionsJson(tx, project, [{ ...row, type }]);
  });
  return updated!;
}

export async function removeAction(project: ReleaseProject, rawReleaseId: string, rawActionId: string): Promise<void> {
  const actionId = idOf(rawActionId, 'Release action');
  await changeRelease(project, rawReleaseId, async (tx, release) => {
    const row = await findAction(tx, project.schema, release.id, actionId);
    if (!row) throw actionNotFound();
    await deleteActionRow(tx, project.schema, row.id);
  });
}
