// Deleting an account: every project it is the only owner of goes first, through the projects'
// own deletion (schema, media, tokens); then, in one transaction, its shared projects are handed
// over to another owner and the account row is deleted with its sessions, links and memberships.
import { ApplicationError } from '@cms/errors';
import type { Services } from '../services.ts';
import { deleteProject } from './project-deletion.ts';

const ATTEMPTS = 5;

export async function deleteAccount(services: Services, accountId: number): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    for (const project of await services.members.soleOwnedProjects(accountId)) await deleteProject(services, project);
    // Another owner may have left a shared project meanwhile: then it is deleted on the next round.
    const deleted = await services.pool.transaction(async (tx) => {
      if (!(await services.members.releaseAccount(tx, accountId))) return false;
      await services.accounts.delete(accountId, tx);
      return true;
    });
    if (deleted) return;
  }
  throw new ApplicationError('The account\'s projects kept changing while it was being deleted; please try again', {}, 409);
}
