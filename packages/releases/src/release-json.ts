// Releases and their actions as the management API answers them (and the `releases.publish`
// webhook carries them).
import type { ActionRow, ActionType, ReleaseRow } from './release-rows.ts';
import type { ReleaseStatus } from './validity.ts';

export interface Release {
  id: number;
  name: string;
  status: ReleaseStatus;
  scheduledAt: string | null;
  timezone: string | null;
  releasedAt: string | null;
  actions: { meta: { count: number } };
  createdAt: string;
  updatedAt: string;
}

export interface ReleaseAction {
  id: number;
  type: ActionType;
  contentType: string;
  entryDocumentId: string;
  locale: string | null;
  /** Could the action be applied now (the draft passes publishing's validation; the entry exists)? */
  isEntryValid: boolean;
  /** Why it could not (ours, beyond Strapi's shape): the entry's validation message; null when valid. */
  entryError: string | null;
  /** The entry's draft as the content API returns it (no populate); null once it no longer exists. */
  entry: Record<string, unknown> | null;
}

export function releaseJson(row: ReleaseRow, status: ReleaseStatus): Release {
  return {
    id: row.id, name: row.name, status, scheduledAt: row.scheduledAt, timezone: row.timezone, releasedAt: row.releasedAt,
    actions: { meta: { count: row.actionCount } }, createdAt: row.createdAt, updatedAt: row.updatedAt,
  };
}

export function actionJson(row: ActionRow, problem: string | null, entry: Record<string, unknown> | null): ReleaseAction {
  return {
    id: row.id, type: row.type, contentType: row.contentType, entryDocumentId: row.entryDocumentId, locale: row.locale,
    isEntryValid: problem === null, entryError: problem, entry,
  };
}
