// Deleting an account: every project it is the only owner of is purged first (deleted ones too:
// nobody could restore them), through the projects' own purge (schema, media, tokens); then, in one transaction, its shared projects are handed
// over to another owner and the account row is deleted with its sessions, links and memberships.
import { ApplicationError } from '@cms/errors';
import type { Platform } from '../platform.ts';
import { purgeProject } from './project-deletion.ts';

const ATTEMPTS = 5;

export async function deleteAccount(platform: Platform, accountId: number): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    for (const project of await platform.members.soleOwnedProjects(accountId)) await purgeProject(platform, project);
    // Another owner may have left a shared project meanwhile: then it is deleted on the next round.
    const deleted = await platform.pool.transaction(async (tx) => {
      if (!(await platform.members.releaseAccount(tx, accountId))) return false;
      await platform.accounts.delete(accountId, tx);
      return true;
    });
    if (deleted) return;
  }
  throw new ApplicationError('The account\'s projects kept changing while it was being deleted; please try again', {}, 409);
}
