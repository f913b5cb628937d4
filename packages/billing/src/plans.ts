// Plans and their limits. Without Stripe every project is on `free`.
export interface PlanLimits {
  requestsPerMonth: number;
  requestsPerSecond: number;
  storageBytes: number;
  documents: number;
  maxUploadBytes: number;
}

const MB = 1024 * 1024;
const GB = 1024 * MB;

export const PLANS = {
  free: { requestsPerMonth: 100_000, requestsPerSecond: 50, storageBytes: 1 * GB, documents: 10_000, maxUploadBytes: 50 * MB },
  pro: { requestsPerMonth: 5_000_000, requestsPerSecond: 500, storageBytes: 100 * GB, documents: 1_000_000, maxUploadBytes: 500 * MB },
  enterprise: { requestsPerMonth: 100_000_000, requestsPerSecond: 5_000, storageBytes: 2_000 * GB, documents: 50_000_000, maxUploadBytes: 2 * GB },
} as const satisfies Record<string, PlanLimits>;

export type PlanName = keyof typeof PLANS;

/**
 * How long one SQL statement of a project's API requests may run before Postgres cancels it (a
 * 503) — an operating limit, not one of the plan's published `limits`.
 */
export const PLAN_STATEMENT_TIMEOUT_MS: Record<PlanName, number> = { free: 5_000, pro: 15_000, enterprise: 30_000 };

/** How long a project's backups (daily and manual) are kept, days. */
export const BACKUP_RETENTION_DAYS: Record<PlanName, number> = { free: 7, pro: 30, enterprise: 90 };

/** How long a project's content history versions are kept, days (then the maintenance round deletes them). */
export const HISTORY_RETENTION_DAYS: Record<PlanName, number> = { free: 7, pro: 90, enterprise: 365 };

/**
 * How many releases a project may have pending (not yet published; failed ones included), null:
 * no limit. Kept apart from `PlanLimits`: the usage and billing answers list those as they are.
 */
export const PENDING_RELEASES: Record<PlanName, number | null> = { free: 3, pro: 50, enterprise: null };

/**
 * The share of a gateway's answer cache (ANSWER_CACHE_MB) one project's answers may hold: past
 * it, the project evicts its own least recently used answers, not other projects'.
 */
/** Environments a project may have (management API § Environments): they take its plan. */
export const ENVIRONMENTS: Record<PlanName, number> = { free: 1, pro: 3, enterprise: 20 };

/** Live streams (`/api/live`) a project may hold open at once; null: no limit. */
export const LIVE_STREAMS: Record<PlanName, number | null> = { free: 100, pro: 5_000, enterprise: 50_000 };

export const ANSWER_CACHE_SHARE: Record<PlanName, number> = { free: 0.05, pro: 0.2, enterprise: 0.4 };

export function planLimits(plan: string): PlanLimits {
  return Object.hasOwn(PLANS, plan) ? PLANS[plan as PlanName] : PLANS.free;
}
