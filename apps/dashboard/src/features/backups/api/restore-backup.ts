// Restoring a backup (`POST /v1/projects/{slug}/backups/{id}/restore`, owners): in place, or as a
// new project. It runs in the background: `useRestore` follows it, `useRestoreEnd` refreshes what
// it changed once it ends.
import { useMutation } from '@tanstack/react-query';
import { client, unwrap, type RequestBody } from '../../../lib/api-client.ts';
import type { Restore } from './get-restore.ts';

export type RestoreBody = RequestBody<'/v1/projects/{slug}/backups/{id}/restore', 'post'>;
export type RestoreTarget = RestoreBody['target'];

export async function restoreBackup(slug: string, backupId: string, body: RestoreBody): Promise<Restore> {
  return (await unwrap(client.POST('/v1/projects/{slug}/backups/{id}/restore', { params: { path: { slug, id: backupId } }, body }))).restore;
}

export function useRestoreBackup(slug: string) {
  return useMutation({
    mutationFn: ({ backupId, ...body }: RestoreBody & { backupId: string }) => restoreBackup(slug, backupId, body),
  });
}
