// @cms/audit: the audit log — account- and project-level entries (who did what, from where, with
// a redacted summary), append-only in Postgres, listed, exported and pruned per plan.
export { ACCOUNT_ACTIONS, ENTRY_ACTIONS, isActionName, managementAction, derivedAction, type AccountAction, type EntryAction } from './actions.ts';
export { isSecretKey, redactPayload, REDACTED } from './redact.ts';
export {
  ACTOR_TYPES, auditInsert, auditEntryPages, copyProjectAuditEntries, insertAuditEntry, removeProjectAuditEntriesIn, listAuditEntries, pruneAccountAuditEntries, pruneAuditEntries,
  type AuditActor, type AuditActorType, type AuditEntry, type AuditEntryInput, type AuditFilter, type AuditScope, type AuditSource,
} from './audit-rows.ts';
export { AuditLog, auditSource, type AccountAuditEntry, type AuditPools, type AuditProject, type RequestLike } from './audit-log.ts';
export { AUDIT_RETENTION_DAYS, ACCOUNT_AUDIT_RETENTION_DAYS, auditRetentionDays } from './retention.ts';
export { DEFAULT_AUDIT_PAGE_SIZE, MAX_AUDIT_PAGE_SIZE, parseAuditQuery, type AuditListQuery } from './audit-query.ts';
