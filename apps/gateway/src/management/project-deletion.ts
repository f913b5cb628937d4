// Deleting a project, from its own route or with the account that is its only owner: its
// subscription ends first (a Stripe failure keeps the project), then its schema, media and tokens go.
import type { ProjectRecord } from '@cms/tenancy';
import type { Services } from '../services.ts';

export async function deleteProject(services: Services, project: ProjectRecord): Promise<void> {
  await services.billing?.cancelFor(project.id);
  await services.projects.delete(project);
}
