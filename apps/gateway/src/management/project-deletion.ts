// Deleting a project, from its own route: its subscription ends first (a Stripe failure keeps the
// project), then it answers 404 everywhere and stays restorable for RESTORE_WINDOW_DAYS. Purging
// (the maintenance round past that window, or its account's deletion) drops its schema, media,
// tokens, archives and audit log.
import type { AuditLog } from '@cms/audit';
import type { Billing } from '@cms/billing';
import type { ProjectRecord, ProjectService } from '@cms/tenancy';

/** What deleting needs of the platform (not the platform itself: maintenance.ts uses it too). */
export interface ProjectDeletion {
  billing: Billing | null;
  projects: ProjectService;
  audit: AuditLog;
}

export async function deleteProject(platform: ProjectDeletion, project: ProjectRecord): Promise<void> {
  await platform.billing?.cancelFor(project.id);
  await platform.projects.delete(project);
}

export async function purgeProject(platform: ProjectDeletion, project: ProjectRecord): Promise<void> {
  await platform.billing?.cancelFor(project.id);
  await platform.projects.purge(project);
  await platform.audit.dropProject(project);
}
