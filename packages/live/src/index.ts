// @cms/live: a project's live change log — document events recorded in their write's transaction,
// positioned after commit, read back after a position (resume) and pruned by retention.
export {
  continueLiveLog, hasUnsequencedEvents, liveEventsAfter, liveHead, pruneLiveEvents, liveEventsStatement, sequenceLiveEvents,
  type EventsAfter, type LiveEvent, type LiveEventInput, type LiveEventName,
} from './live-rows.ts';
