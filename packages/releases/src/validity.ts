// A release's validation state (management API § Releases): `empty` without actions, `blocked`
// when the entry of an action could not be published or unpublished now, `ready` otherwise —
// computed from the entries as they are, since an entry's draft may change after it was added
// (the release publishes the draft as it is then: Strapi's rule). `failed` and `done` are
// outcomes of a publish, stored on the release.
import type { Db } from '@cms/db';
import { checkEntries, type EntryCheck } from '@cms/documents';
import type { ReleaseProject } from './context.ts';
import type { ActionRow, ReleaseRow, StoredStatus } from './release-rows.ts';

export type ReleaseStatus = StoredStatus;

/** Why an action's entry cannot be applied now; null when it can. */
export function actionProblem(project: ReleaseProject, action: ActionRow, check: EntryCheck): string | null {
  const ct = project.physical.contentTypes[action.contentType];
  if (!ct || !project.model.contentTypes[action.contentType]) return 'This content type no longer exists';
  if (!ct.draftAndPublish) return 'This content type no longer has draft & publish';
  if (!check.exists) return 'This entry no longer exists';
  // Unpublishing needs nothing of the draft.
  return action.type === 'publish' && check.error ? check.error.message : null;
}

/** Each action's problem (null: valid), read in `db` (a transaction's connection, or the pool). */
export async function actionProblems(db: Db, project: ReleaseProject, actions: readonly ActionRow[]): Promise<Array<string | null>> {
  const checks = await checkEntries(db, project, actions.map((a) => ({ uid: a.contentType, documentId: a.entryDocumentId, locale: a.locale })));
  return actions.map((a, i) => actionProblem(project, a, checks[i]!));
}

/** The validation state of a release whose actions are `actions` with these problems. */
export function validityOf(problems: ReadonlyArray<string | null>): 'empty' | 'ready' | 'blocked' {
  if (problems.length === 0) return 'empty';
  return problems.some((p) => p !== null) ? 'blocked' : 'ready';
}

/** Published and failed releases keep their outcome; the others' state is read now. */
export const keepsStatus = (row: ReleaseRow) => row.status === 'done' || row.status === 'failed' || row.releasedAt !== null;

/**
 * The status of each release, in order: its stored outcome, or its validation state now (one
 * statement per content type for all of them).
 */
export async function statusesOf(db: Db, project: ReleaseProject, releases: readonly ReleaseRow[], actions: readonly ActionRow[]): Promise<ReleaseStatus[]> {
  const live = releases.filter((r) => !keepsStatus(r));
  const mine = actions.filter((a) => live.some((r) => r.id === a.releaseId));
  const problems = await actionProblems(db, project, mine);
  return releases.map((r) => {
    if (keepsStatus(r)) return r.releasedAt !== null ? 'done' : r.status;
    return validityOf(problems.filter((_, i) => mine[i]!.releaseId === r.id));
  });
}
