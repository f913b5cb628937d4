// The plan whose limits apply to a project now. A project whose payment failed keeps its paid
// plan until `planGraceUntil` and is on `free` from then on. This is decided whenever the plan is
// read, from the timestamp every instance caches with the project, so nothing has to run (and
// no instance has to be told) at the moment the grace period ends.
import { BACKUP_RETENTION_DAYS, HISTORY_RETENTION_DAYS, PLANS, type PlanName } from './plans.ts';

export interface PlanHolder {
  plan: string;
  planGraceUntil: string | null;
}

/** How many days a backup of the project taken at `now` is kept: its effective plan's retention. */
export function backupRetentionDays(project: PlanHolder, now = Date.now()): number {
  return BACKUP_RETENTION_DAYS[effectivePlan(project, now)];
}

/** How many days the project's content history versions are kept at `now`: its effective plan's retention. */
export function historyRetentionDays(project: PlanHolder, now = Date.now()): number {
  return HISTORY_RETENTION_DAYS[effectivePlan(project, now)];
}

export function effectivePlan(project: PlanHolder, now = Date.now()): PlanName {
  if (project.planGraceUntil !== null && Date.parse(project.planGraceUntil) <= now) return 'free';
  return Object.hasOwn(PLANS, project.plan) ? (project.plan as PlanName) : 'free';
}
