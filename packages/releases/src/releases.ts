// Releases (management API § Releases and scheduled publishing): create (within the plan's limit
// of pending releases), read, list, change and delete. Publishing is publish.ts.
import type { ReleaseProject } from './context.ts';
import { pendingLimitError, type PendingLimit } from './limit.ts';
import { assertScheduleHasZone, idOf, parseReleaseBody, type ReleaseBody, type ReleaseListQuery } from './release-input.ts';
import { changeRelease, lockRelease, releaseFrozen, releaseNotFound } from './release-change.ts';
import { releaseJson, type Release } from './release-json.ts';
import {
  actionsOf, countPending, deleteReleaseRow, findRelease, insertRelease, listReleaseRows, lockReleaseCreation,
} from './release-rows.ts';
import { releaseKey, setSchedule } from './schedule-index.ts';
import { statusesOf } from './validity.ts';

export interface CreateOptions {
  /** The member creating it (account id). */
  createdBy: number | null;
  /** The plan's limit on pending releases; null: none (enterprise, or plan limits off). */
  limit: PendingLimit | null;
}

export async function createRelease(project: ReleaseProject, body: ReleaseBody & { name: string }, options: CreateOptions): Promise<Release> {
  const input = parseReleaseBody(body);
  const scheduledAt = input.scheduledAt ?? null;
  const timezone = input.timezone ?? null;
  assertScheduleHasZone(scheduledAt, timezone);
  return project.pool.transaction(async (tx) => {
    // Counted and inserted under one lock: concurrent creations cannot pass the limit together.
    await lockReleaseCreation(tx, project.schema);
    if (options.limit && (await countPending(tx, project.schema)) >= options.limit.max) throw pendingLimitError(options.limit);
    const row = await insertRelease(tx, project.schema, { name: input.name!, scheduledAt, timezone, createdBy: options.createdBy });
    // The due index in the same transaction: a committed schedule is always found.
    if (scheduledAt !== null) await setSchedule(tx, releaseKey(project, row.id), scheduledAt);
    return releaseJson(row, 'empty');
  });
}

export async function getRelease(project: ReleaseProject, rawId: string): Promise<Release> {
  const row = await findRelease(project.pool, project.schema, idOf(rawId, 'Release'));
  if (!row) throw releaseNotFound();
  const [status] = await statusesOf(project.pool, project, [row], await actionsOf(project.pool, project.schema, [row.id]));
  return releaseJson(row, status!);
}

export interface ReleaseList {
  data: Release[];
  meta: { pagination: { page: number; pageSize: number; pageCount: number; total: number }; pendingReleasesCount: number };
}

export async function listReleases(project: ReleaseProject, query: ReleaseListQuery): Promise<ReleaseList> {
  const { rows, total } = await listReleaseRows(project.pool, project.schema, query.status, query);
  const statuses = await statusesOf(project.pool, project, rows, await actionsOf(project.pool, project.schema, rows.map((r) => r.id)));
  return {
    data: rows.map((r, i) => releaseJson(r, statuses[i]!)),
    meta: {
      pagination: { page: query.page, pageSize: query.pageSize, pageCount: Math.ceil(total / query.pageSize), total },
      pendingReleasesCount: await countPending(project.pool, project.schema),
    },
  };
}

/** `{name?, scheduledAt?, timezone?}`: a schedule keeps the release's zone unless the body names one. */
export async function updateRelease(project: ReleaseProject, rawId: string, body: ReleaseBody): Promise<Release> {
  const input = parseReleaseBody(body);
  return changeRelease(project, rawId, async (tx, row) => {
    assertScheduleHasZone(input.scheduledAt !== undefined ? input.scheduledAt : row.scheduledAt, input.timezone !== undefined ? input.timezone : row.timezone);
    if (input.scheduledAt !== undefined) await setSchedule(tx, releaseKey(project, row.id), input.scheduledAt);
    return input;
  });
}

export async function deleteRelease(project: ReleaseProject, rawId: string): Promise<void> {
  await project.pool.transaction(async (tx) => {
    const row = await lockRelease(tx, project, rawId);
    if (row.releasedAt !== null) throw releaseFrozen();
    await deleteReleaseRow(tx, project.schema, row.id);
    await setSchedule(tx, releaseKey(project, row.id), null);
  });
}
