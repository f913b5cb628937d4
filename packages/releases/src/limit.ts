// The plan's limit on pending releases (@cms/billing `PENDING_RELEASES`), for the plan that applies
// to the project now (its grace period included).
import { effectivePlan, PENDING_RELEASES, type PlanHolder } from '@cms/billing';
import { ForbiddenError } from '@cms/errors';

export interface PendingLimit {
  plan: string;
  max: number;
}

/** The limit of the project's plan; null: none (enterprise). */
export function pendingReleasesLimit(project: PlanHolder): PendingLimit | null {
  const plan = effectivePlan(project);
  const max = PENDING_RELEASES[plan];
  return max === null ? null : { plan, max };
}

export function pendingLimitError(limit: PendingLimit): ForbiddenError {
  return new ForbiddenError(
    `The ${limit.plan} plan allows ${limit.max} pending releases: publish or delete one, or upgrade the plan`,
    { limit: 'pendingReleases', plan: limit.plan, max: limit.max },
  );
}
