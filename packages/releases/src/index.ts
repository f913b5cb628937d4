// @cms/releases: Strapi 5's content releases for every project — releases of publish/unpublish
// actions on document-locales, their validation state, the plan's limit on pending ones, and
// `publishRelease`: every action in one transaction, all or nothing, safe to call from several
// places at once (a member and the scheduler). Rows live in the project's own schema.
// Scheduling: scheduled releases and scheduled actions on single documents, each written with its
// row of the due index (`platform.content_schedules`), and `runSchedule`, which runs a due one
// exactly once (schedule-run.ts); the gateway's scheduler decides when to call it.
export type { ReleaseProject } from './context.ts';
export { createRelease, getRelease, listReleases, updateRelease, deleteRelease, type CreateOptions, type ReleaseList } from './releases.ts';
export { addAction, listActions, updateAction, removeAction, type ActionBody, type ActionList } from './actions.ts';
export { publishRelease, type PublishReleaseOptions, type PublishReleaseResult, type ReleaseEntryError } from './publish.ts';
export { pendingReleasesLimit, pendingLimitError, type PendingLimit } from './limit.ts';
export {
  parseReleaseListQuery, parseActionListQuery, MAX_NAME_LENGTH, MAX_PAGE_SIZE,
  type ReleaseBody, type ReleaseListQuery, type ListQuery,
} from './release-input.ts';
export { isIanaTimeZone, parseInstant, zonedInstant } from './timezone.ts';
export {
  createScheduledAction, listScheduledActions, cancelScheduledAction, MAX_SCHEDULED_ACTIONS_LISTED, type ScheduledAction,
} from './scheduled-actions.ts';
export {
  parseScheduledActionQuery, scheduledForOf, SCHEDULED_ACTION_TYPES, SCHEDULED_ACTION_STATUSES,
  type ScheduledActionBody, type ScheduledActionQuery, type ScheduledActionStatus, type ScheduledActionType,
} from './scheduled-action-input.ts';
export { dueSchedules, postponeSchedule, type IndexedSchedule, type ScheduleKey, type ScheduleKind } from './schedule-index.ts';
export { runSchedule, type ScheduledProject, type ProjectLookup, type ScheduleRun } from './schedule-run.ts';
export { releaseExists } from './preview.ts';
export type { Release, ReleaseAction } from './release-json.ts';
export type { ReleaseStatus } from './validity.ts';
export type { ActionType } from './release-rows.ts';
