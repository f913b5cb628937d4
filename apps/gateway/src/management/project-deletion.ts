// Deleting a project, from its own route: its subscription ends first (a Stripe failure keeps the
// project), then it answers 404 everywhere and stays restorable for RESTORE_WINDOW_DAYS. Purging
// (the maintenance round past that window, or its account's deletion) drops its schema, media,
// tokens, archives and audit log. A project's environments are dropped at once, whichever way it
// goes (they are copies: not kept for a restore window, not restored with it).
import type { AuditLog } from '@cms/audit';
import type { Billing } from '@cms/billing';
import type { EnvironmentService, ProjectRecord, ProjectService } from '@cms/tenancy';

/** What deleting needs of the platform (not the platform itself: maintenance.ts uses it too). */
export interface ProjectDeletion {
  billing: Billing | null;
  projects: ProjectService;
  audit: AuditLog;
  /** Absent: the caller's projects have no environments to drop (tools, tests). */
  environments?: EnvironmentService;
}

export async function deleteProject(platform: ProjectDeletion, project: ProjectRecord): Promise<void> {
  if (project.parentId) return purgeProject(platform, project);
  await platform.billing?.cancelFor(project.id);
  await platform.projects.delete(project);
  await purgeEnvironments(platform, project);
}

export async function purgeProject(platform: ProjectDeletion, project: ProjectRecord): Promise<void> {
  await purgeEnvironments(platform, project);
  await platform.billing?.cancelFor(project.id);
  await platform.projects.purge(project);
  await platform.audit.dropProject(project);
}

/** Drop the project's environments now: schema, control rows, their own media, audit log. */
export async function purgeEnvironments(platform: ProjectDeletion, parent: ProjectRecord): Promise<void> {
  for (const env of await platform.environments?.projectsOf(parent.id) ?? []) await purgeProject(platform, env);
}
