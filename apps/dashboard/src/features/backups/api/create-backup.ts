// "Back up now" (`POST /v1/projects/{slug}/backups`, owners): the new backup shows at once
// (running) at the top of the list, which then follows it until it ends.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, unwrap } from '../../../lib/api-client.ts';
import { projectKeys } from '../../../lib/query-keys.ts';
import type { Backup } from './get-backups.ts';

export async function createBackup(slug: string): Promise<Backup> {
  return (await unwrap(client.POST('/v1/projects/{slug}/backups', { params: { path: { slug } }, body: {} }))).backup;
}

export function useCreateBackup(slug: string) {
  const queryClient = useQueryClient();
  const key = projectKeys.feature(slug, 'backups');
  return useMutation({
    mutationFn: () => createBackup(slug),
    onSuccess: (backup) => {
      queryClient.setQueryData<Backup[]>(key, (list = []) => [{ ...backup, url: null }, ...list.filter((b) => b.id !== backup.id)]);
      // Not awaited: the row is shown already, and the list then polls it until it ends.
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
