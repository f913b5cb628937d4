// How every change to a release runs: in one transaction holding the release's row lock — a
// publish holds it too, so a change made meanwhile waits and then finds the release `done` and
// refused (done releases are frozen) — ending with the new validation state stored (a failed
// release's outcome gives way to it: it was changed since).
import type { Db } from '@cms/db';
import { NotFoundError, ValidationError } from '@cms/errors';
import type { ReleaseProject } from './context.ts';
import { idOf } from './release-input.ts';
import { releaseJson, type Release } from './release-json.ts';
import { actionsOf, findRelease, updateReleaseRow, type ReleaseChange, type ReleaseRow } from './release-rows.ts';
import { actionProblems, validityOf } from './validity.ts';

export const releaseNotFound = () => new NotFoundError('Release not found');
export const releaseFrozen = () => new ValidationError('This release is already published: it can no longer change');

/** The release named in a path, locked until `tx` ends; 404 when the project has none of that id. */
export async function lockRelease(tx: Db, project: ReleaseProject, rawId: string): Promise<ReleaseRow> {
  const row = await findRelease(tx, project.schema, idOf(rawId, 'Release'), true);
  if (!row) throw releaseNotFound();
  return row;
}

/**
 * Run `change` on the release `rawId` (locked, not done), then store `fields` with the release's
 * validation state as it is now; answers the release as it then is.
 */
export async function changeRelease(
  project: ReleaseProject, rawId: string, change: (tx: Db, row: ReleaseRow) => Promise<ReleaseChange | void>,
): Promise<Release> {
  return project.pool.transaction(async (tx) => {
    const row = await lockRelease(tx, project, rawId);
    if (row.releasedAt !== null) throw releaseFrozen();
    const fields = (await change(tx, row)) ?? {};
    const status = validityOf(await actionProblems(tx, project, await actionsOf(tx, project.schema, [row.id])));
    await updateReleaseRow(tx, project.schema, row.id, { ...fields, status, error: null });
    return releaseJson((await findRelease(tx, project.schema, String(row.id)))!, status);
  });
}
