// How long entries are kept (management API § Audit log: per plan, 7 / 90 / 365 days). The plan is
// the project's effective one (a lapsed payment's grace over: free), decided by the caller.
export const AUDIT_RETENTION_DAYS: Readonly<Record<string, number>> = { free: 7, pro: 90, enterprise: 365 };

/** An account's own log (sign-ins, security changes) is the account's, not a project's: the longest. */
export const ACCOUNT_AUDIT_RETENTION_DAYS = 365;

export function auditRetentionDays(plan: string): number {
  return AUDIT_RETENTION_DAYS[plan] ?? AUDIT_RETENTION_DAYS.free!;
}
