// Deleting a project, from its own route or with the account that is its only owner: its
// subscription ends first (a Stripe failure keeps the project), then its schema, media and tokens go.
import type { ProjectRecord } from '@cms/tenancy';
import type { Platform } from '../platform.ts';

export async function deleteProject(platform: Platform, project: ProjectRecord): Promise<void> {
  await platform.billing?.cancelFor(project.id);
  await platform.projects.delete(project);
}
